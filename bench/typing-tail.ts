/**
 * Issue 23, the typing tail, in process: builds one index of BENCH_OFFERS (default 1 000 000)
 * seeded offers as bench/engine.ts does, then sends BENCH_TYPING (default 3 000) of the HTTP
 * bench's never-repeated typing queries (bench/catalogue.ts `typing`, the same list in the same
 * order) once each, timing each by CPU. Prints p50/p90/p99/p99.5/max, the slowest queries with
 * their totals and a second run of each, and a hash of every page (ids, total) to compare two
 * versions of the engine on the same data; BENCH_TYPING_OUT names a file for each query's CPU ms
 * (JSON, in the list's order), to compare two runs query by query. Queries at a fixed clock (BENCH_TYPING_NOW, an ISO date;
 * 2026-11-27 by default: past some expiries, as the server asks on that day), so that two runs
 * answer the same. The first query of two words after the build is timed on its own. Run with
 * `node --expose-gc --import tsx bench/typing-tail.ts`. Also prints the garbage collections during
 * the queries (PerformanceObserver) and how many of the slowest 1 % by wall clock overlap one;
 * the heap's growth is bounded as `serve` bounds it (HEAP_GROWTH_PERCENT, default 25).
 */

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { generateOffers } from '../src/offers/seed.js';
import { boundHeapGrowth } from '../src/platform/heap-growth.js';
import { parseTextQuery } from '../src/search/analysis/text.js';
import { createSearchIndex, type Index } from '../src/search/index/search-index.js';
import { engineQuery } from '../test/support/engine-query.js';
import { catalogueTypes } from './catalogue.js';
import { seedDocument } from './seed-document.js';

const OFFERS = Number(process.env.BENCH_OFFERS ?? 1_000_000);
const COUNT = Number(process.env.BENCH_TYPING ?? 3_000);
const WARM_UP = Number(process.env.BENCH_TYPING_WARM_UP ?? 300);
const NOW = Date.parse(process.env.BENCH_TYPING_NOW ?? '2026-11-27T00:00:00Z');
if (Number.isNaN(NOW)) throw new Error(`BENCH_TYPING_NOW: not an ISO date: ${process.env.BENCH_TYPING_NOW}`);

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;

function build(): Index {
  const index = createSearchIndex({});
  const c = process.cpuUsage();
  const CHUNK = 50_000;
  for (let start = 0; start < OFFERS; start += CHUNK) {
    for (const offer of generateOffers({ count: Math.min(CHUNK, OFFERS - start), startIndex: start })) {
      index.upsert(seedDocument(offer));
    }
  }
  (index as Index).finishBuild();
  // What the server does before it answers (live-index.ts): the first query's work done ahead.
  const warm = process.cpuUsage();
  (index as Index).warm(NOW);
  console.log(`- warm-up after the build: ${cpuMs(warm).toFixed(0)} ms CPU`);
  console.log(`- built ${OFFERS} offers (generation included): ${(cpuMs(c) / 1000).toFixed(1)} s CPU`);
  return index as Index;
}

async function main() {
  const typing = catalogueTypes().find((t) => t.id === 'typing');
  if (typing === undefined) throw new Error('no typing scenario in bench/catalogue.ts');
  const all = typing.paths.map(
    (path) => new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('q') ?? '',
  );
  const queries = all.slice(0, COUNT);
  // Warm-up, as the HTTP bench's first second: other queries of the list (its end), untimed.
  const warmUp = all.slice(-WARM_UP);
  const index = build();
  // As `serve` does once its indexes are built (ADR 0044): the collections the server has.
  boundHeapGrowth(Number(process.env.HEAP_GROWTH_PERCENT ?? 25));
  (globalThis as { gc?: () => void }).gc?.();
  const rss = process.memoryUsage().rss;
  const first = process.cpuUsage();
  index.search(engineQuery(NOW, { text: parseTextQuery('good condition '), sort: 'relevance' }), []);
  console.log(
    `- first query of two words after the build ('good condition'): ${cpuMs(first).toFixed(1)} ms CPU`,
  );
  console.log(
    `- load average before the queries: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const q of warmUp) index.search(engineQuery(NOW, { text: parseTextQuery(q), sort: 'relevance' }), []);
  const hash = createHash('sha256');
  const timed: Array<{ q: string; ms: number; total: number; at: number; start: number; end: number }> = [];
  const gcs: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  for (const q of queries) {
    const query = engineQuery(NOW, { text: parseTextQuery(q), sort: 'relevance' });
    const start = performance.now();
    const c = process.cpuUsage();
    const r = index.search(query, []);
    const ms = cpuMs(c);
    const end = performance.now();
    timed.push({ q, ms, total: r.total, at: timed.length, start, end });
    hash.update(`${q}\t${r.total}\t${r.ids.join(',')}\n`);
    // The collections' entries come on the event loop.
    if (timed.length % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  gcStats(timed, gcs);
  const sorted = timed.map((t) => t.ms).sort((a, b) => a - b);
  const rssAfter = process.memoryUsage().rss;
  console.log(
    `- ${timed.length} typing queries, CPU ms: p50 ${percentile(sorted, 50).toFixed(2)}, p90 ${percentile(sorted, 90).toFixed(2)}, p99 ${percentile(sorted, 99).toFixed(2)}, p99.5 ${percentile(sorted, 99.5).toFixed(2)}, max ${(sorted[sorted.length - 1] as number).toFixed(2)}; sum ${sorted.reduce((a, b) => a + b, 0).toFixed(0)}`,
  );
  console.log(
    `- RSS after the build ${Math.round(rss / 2 ** 20)} MB, after the queries ${Math.round(rssAfter / 2 ** 20)} MB`,
  );
  // `adjacent` (ADR 0043) is absent from an engine before it: this script times both.
  const kept = (index as Index).proximity as Index['proximity'] & { adjacent?: { size: number } };
  console.log(
    `- kept proximity layers ${(kept.size / 2 ** 20).toFixed(2)} MiB; adjacent-pairs filter ${((kept.adjacent?.size ?? 0) / 2 ** 20).toFixed(2)} MiB; kept unions ${((index as Index).unions.size / 2 ** 20).toFixed(2)} MiB`,
  );
  console.log(`- pages hash ${hash.digest('hex').slice(0, 16)}`);
  // Each query's CPU ms in the list's order, to compare two runs query by query.
  if (process.env.BENCH_TYPING_OUT)
    writeFileSync(process.env.BENCH_TYPING_OUT, JSON.stringify(timed.map((t) => [t.q, t.ms])));
  console.log('- slowest (CPU ms; the same query again; total; its place in the list):');
  for (const t of [...timed].sort((a, b) => b.ms - a.ms).slice(0, 25)) {
    const query = engineQuery(NOW, { text: parseTextQuery(t.q), sort: 'relevance' });
    const c = process.cpuUsage();
    index.search(query, []);
    console.log(`  ${t.ms.toFixed(2)} (${cpuMs(c).toFixed(2)}) ${t.total} #${t.at} "${t.q}"`);
  }
}

/** Collections during the timed queries (wall clock), and how many of the slowest 1 % overlap one. */
function gcStats(timed: Array<{ start: number; end: number }>, gcs: PerformanceEntry[]) {
  const kind = (e: PerformanceEntry) => (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
  const names: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const byKind = new Map<string, { n: number; ms: number; max: number }>();
  for (const e of gcs) {
    const k = names[kind(e)] ?? String(kind(e));
    const s = byKind.get(k) ?? { n: 0, ms: 0, max: 0 };
    s.n += 1;
    s.ms += e.duration;
    s.max = Math.max(s.max, e.duration);
    byKind.set(k, s);
  }
  const per = 1000 / timed.length;
  for (const [k, s] of byKind)
    console.log(
      `- GC ${k}: ${(s.n * per).toFixed(1)} per 1 000 queries, pause ${(s.ms / s.n).toFixed(2)} ms mean, ${s.max.toFixed(2)} max, ${(s.ms * per).toFixed(0)} ms per 1 000`,
    );
  const wall = timed.map((t) => {
    let gc = 0;
    for (const e of gcs) {
      const from = Math.max(t.start, e.startTime);
      const to = Math.min(t.end, e.startTime + e.duration);
      if (to > from) gc += to - from;
    }
    return { ms: t.end - t.start, gc };
  });
  const sorted = [...wall].sort((a, b) => a.ms - b.ms);
  const band = sorted.slice(Math.floor(sorted.length * 0.99) - 15, Math.floor(sorted.length * 0.99) + 15);
  const withGc = band.filter((w) => w.gc > 0);
  const without = wall.map((w) => w.ms - w.gc).sort((a, b) => a - b);
  const ms = sorted.map((w) => w.ms);
  console.log(
    `- wall ms: p50 ${percentile(ms, 50).toFixed(2)}, p99 ${percentile(ms, 99).toFixed(2)}; less the GC pauses in them: p99 ${percentile(without, 99).toFixed(2)}; the p99 band (±15 queries): ${withGc.length} of ${band.length} overlap a GC, ${withGc.reduce((a, w) => a + w.gc, 0).toFixed(1)} ms of GC in them`,
  );
}

await main();
