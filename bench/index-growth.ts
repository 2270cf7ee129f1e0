/**
 * What the search index grows by when offers are added after its build (issue 26, ADR 0044): one
 * index of BENCH_OFFERS seeded offers built as `serve` builds it (finishBuild, warm), then
 * BENCH_ADDED new offers upserted one by one as catch-ups apply an import. Memory after two full
 * collections at both moments: the JavaScript heap, the typed arrays' buffers, CRoaring's own
 * count, the main malloc heap (`[heap]` in /proc/self/smaps) and RSS; per offer at the build and
 * per offer added, so growth beyond what the added offers need shows. No database, no HTTP.
 *   node --expose-gc --import tsx bench/index-growth.ts
 */

import fs from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import roaring from 'roaring';
import { DEFAULT_ANCHOR_MS, generateOffers } from '../src/offers/seed.js';
import { createSearchIndex, type Index } from '../src/search/index/search-index.js';
import { seedDocument } from './seed-document.js';

const OFFERS = Number(process.env.BENCH_OFFERS ?? 1_000_000);
const ADDED = Number(process.env.BENCH_ADDED ?? OFFERS / 10);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));

function memory() {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  const smaps = fs.readFileSync('/proc/self/smaps', 'utf8');
  const brk = Number(/\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps)?.[1] ?? 0) * 1024;
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    arrayBuffers: m.arrayBuffers,
    roaring: roaring.getRoaringUsedMemory(),
    brk,
  };
}

/** Typed-array batches kept per set id and grid cell (slot-sets.ts ValueSets, geo-grid.ts). */
function pendingBuffers(ix: Index): { sets: number; cells: number } {
  let sets = 0;
  for (const set of Object.values(ix.sets))
    for (const p of (set as unknown as { pending: unknown[] }).pending) if (p !== undefined) sets += 1;
  let cells = 0;
  const grid = ix.grid as unknown as {
    list: Array<{ pending: unknown; fine: Map<number, { pending: unknown }> }>;
  };
  for (const cell of grid.list) {
    if (cell.pending) cells += 1;
    for (const small of cell.fine.values()) if (small.pending) cells += 1;
  }
  return { sets, cells };
}

const empty = memory();
const index = createSearchIndex() as Index;
let n = 0;
for (const offer of generateOffers({ count: OFFERS }))
  index.upsert(seedDocument(offer, { id: `seed-${n++}` }));
index.finishBuild();
index.warm(DEFAULT_ANCHOR_MS);
const built = memory();
const atBuild = pendingBuffers(index);
const docs = [...generateOffers({ count: ADDED, seed: 2601 })].map((offer, i) =>
  seedDocument(offer, { id: `soak-${i}` }),
);
const t0 = performance.now();
for (const doc of docs) index.upsert(doc);
const upsertMs = performance.now() - t0;
docs.length = 0;
index.warm(DEFAULT_ANCHOR_MS);
const added = memory();
const atEnd = pendingBuffers(index);

const keys = Object.keys(empty) as Array<keyof typeof empty>;
const row = (from: typeof empty, to: typeof empty) =>
  Object.fromEntries(keys.map((k) => [k, mib(to[k] - from[k])]));
const perOffer = (from: typeof empty, to: typeof empty, count: number) =>
  Object.fromEntries(keys.map((k) => [k, Math.round((to[k] - from[k]) / count)]));
console.log(
  JSON.stringify(
    {
      offers: OFFERS,
      added: ADDED,
      words: index.dict.wordText.length,
      gridCells: index.grid.cellCount,
      pendingBuffers: { atBuild, atEnd },
      // CPU of the added offers' upserts (documents made before), per offer.
      upsertMicrosecondsPerOffer: Number(((upsertMs * 1000) / ADDED).toFixed(1)),
      mibBuilt: row(empty, built),
      mibAdded: row(built, added),
      bytesPerOfferBuilt: perOffer(empty, built, OFFERS),
      bytesPerOfferAdded: perOffer(built, added, ADDED),
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    },
    null,
    2,
  ),
);
