/**
 * Saved-search alerts' matching alone (issue 24, ADR 0045): what the matching worker spends per
 * imported offer, on one thread, without a database. Files BENCH_SAVED (default 100 000) saved
 * searches made as bench/webhooks.ts makes them (bench/saved-searches.ts, from the first 20 000
 * seeded offers), their keys counted on the first 10 000 seeded offers (the percolator's sample,
 * the oldest by change sequence), then matches BENCH_IMPORT_OFFERS (default 10 000) new offers
 * (bench/webhooks.ts's import: seed 8) with `createLocalMatcher`, in pages of 500 and rounds of
 * 4 000 offers as the percolator reads them. BENCH_MATCHING_RUNS (default 3) times, each in a new
 * matcher.
 *
 * Prints per run the CPU time of filing and of matching (µs per offer), the garbage collector's
 * share of it, the pairs checked exactly and matched, and a hash of the matched (saved search,
 * offer) pairs: a change to the matching must leave the checks' count (when it keeps the
 * filing) and the hash as they were. Run by `npm run bench:matching` (a profile:
 * `node --cpu-prof --import tsx bench/matching.ts`).
 */

import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import type { OfferInput } from '../src/offers/offer-input.js';
import { priceToUnits } from '../src/offers/price.js';
import { offerIdFor } from '../src/offers/rows.js';
import { generateOffers } from '../src/offers/seed.js';
import type { IndexRow } from '../src/offers/store.js';
import { createLocalMatcher } from '../src/webhooks/matcher.js';
import { NO_RULES, type SavedQuery } from '../src/webhooks/offer-matching.js';
import type { AlertingSearch } from '../src/webhooks/percolator-store.js';
import { benchSavedQuery } from './saved-searches.js';

const SAVED = Number(process.env.BENCH_SAVED ?? 100_000);
const IMPORT = Number(process.env.BENCH_IMPORT_OFFERS ?? 10_000);
const RUNS = Number(process.env.BENCH_MATCHING_RUNS ?? 3);
/** The percolator's sample (filed-searches.ts SAMPLE), its page and its round (two batches of 2 000). */
const SAMPLE = 10_000;
const PAGE = 500;
const ROUND = 4_000;
/** A fixed `now` (the round's clock), so the pairs do not depend on the day the bench runs. */
const NOW = Date.UTC(2026, 10, 27, 12);

/** An offer row as the offers store reads it back (toRowValues and INDEX_READ_COLUMNS). */
function seedRow(offer: OfferInput, changeSeq: number): IndexRow {
  return {
    seq: changeSeq,
    change_seq: changeSeq,
    id: offerIdFor('testing', offer.externalId),
    title: offer.title,
    description: offer.description,
    category: offer.category,
    tags: JSON.stringify(offer.tags),
    city: offer.location.city,
    country: offer.location.country,
    currency: offer.price.currency,
    price_value: priceToUnits(offer.price.amount),
    lat: offer.location.lat,
    lon: offer.location.lon,
    status: offer.status,
    published_at: offer.publishedAt,
    updated_at: NOW,
    expires_at: offer.expiresAt,
    publisher_id: offer.publisher.id,
    attributes: JSON.stringify(offer.attributes),
  };
}

const seeded = [...generateOffers({ count: 20_000, seed: 42 })];
const sample = seeded.slice(0, SAMPLE).map((offer, i) => seedRow(offer, i + 1));
const searches: AlertingSearch[] = [];
for (let i = 0; i < SAVED; i += 1) {
  // Through JSON, as the percolator's store reads them back.
  const query = JSON.parse(
    JSON.stringify(benchSavedQuery(seeded[(i * 7919) % seeded.length] as OfferInput, i)),
  ) as SavedQuery;
  searches.push({
    id: `svs_bench${i}`,
    userId: `usr_bench${Math.floor(i / 100)}`,
    projectId: 'prj_bench',
    name: 'bench',
    query,
    sinceSeq: 0,
    createdAt: i,
  });
}
const imported: IndexRow[] = [];
let seq = 2_000_000;
for (const offer of generateOffers({ count: IMPORT, seed: 8 }))
  imported.push(seedRow({ ...offer, externalId: `alerts-${offer.externalId}`, publishedAt: NOW }, ++seq));

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

console.log(
  `matching: ${SAVED} saved searches, ${IMPORT} imported offers, ${RUNS} runs (load average ${loadavg()[0]?.toFixed(2)})`,
);
for (let run = 1; run <= RUNS; run += 1) {
  const matcher = createLocalMatcher();
  let cpu = process.cpuUsage();
  await matcher.begin('testing', NO_RULES, sample);
  await matcher.file('testing', searches);
  const fileMs = cpuMs(cpu);
  const pairs: string[] = [];
  let checked = 0;
  await new Promise((resolve) => setTimeout(resolve, 10));
  const gcBefore = gcMs;
  cpu = process.cpuUsage();
  for (let r = 0; r < imported.length; r += ROUND) {
    // Each round files what is new (nothing here) and re-files some searches after a drift.
    await matcher.file('testing', []);
    for (let p = r; p < Math.min(r + ROUND, imported.length); p += PAGE) {
      const found = await matcher.match('testing', imported.slice(p, Math.min(p + PAGE, r + ROUND)), NOW);
      checked += found.checked;
      for (const pair of found.pairs) pairs.push(`${pair.searchId} ${pair.offerId}`);
    }
  }
  const matchMs = cpuMs(cpu);
  // The collector's entries are delivered on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const gc = gcMs - gcBefore;
  const hash = createHash('sha256').update(pairs.sort().join('\n')).digest('hex').slice(0, 16);
  console.log(
    `run ${run}: filed in ${fileMs.toFixed(0)} ms CPU; matching ${matchMs.toFixed(0)} ms CPU, ${((matchMs * 1000) / imported.length).toFixed(1)} µs per offer (GC ${gc.toFixed(0)} ms); ${checked} checks, ${pairs.length} matches, pairs ${hash} (load average ${loadavg()[0]?.toFixed(2)})`,
  );
  await matcher.close();
}
