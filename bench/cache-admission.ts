/**
 * The answer cache's admission (ADR 0050), by simulation: hit rates of the cache
 * (src/offers/search-cache.ts, with its doorkeeper) against a plain least-recently-used cache of
 * the same number of answers, on traces of BENCH_REQUESTS (400 000) searches drawn from a Zipf
 * law (exponents 0.7, 0.9 and 1.0, the range reported for search-engine query logs) over
 * 2 000 000 distinct queries, for budgets of 64, 32 and 16 MB (2 688 answers of 20 offers at
 * 64 MB: their measured mean estimate). Deterministic; no database, no index.
 *   npx tsx bench/cache-admission.ts
 */
import { createSearchCache } from '../src/offers/search-cache.js';

const DISTINCT = 2_000_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400_000);
const ANSWERS_AT_64_MB = 2_688;

function zipf(exponent: number): () => number {
  const cdf = new Float64Array(DISTINCT);
  let sum = 0;
  for (let i = 0; i < DISTINCT; i += 1) {
    sum += 1 / (i + 1) ** exponent;
    cdf[i] = sum;
  }
  let seed = 42;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = DISTINCT - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function leastRecentlyUsedHits(trace: Int32Array, capacity: number): number {
  const kept = new Map<number, true>();
  let hits = 0;
  for (const query of trace) {
    if (kept.delete(query)) hits += 1;
    kept.set(query, true);
    if (kept.size > capacity) kept.delete(kept.keys().next().value as number);
  }
  return hits / trace.length;
}

function admittedHits(trace: Int32Array, megabytes: number, capacity: number): number {
  // Each answer's estimate, so that `capacity` of them fill the budget (the cache adds its own
  // overhead per entry: the key's characters and 200 bytes).
  const bytes = Math.floor((megabytes * 2 ** 20) / capacity) - 240;
  const cache = createSearchCache<number>(megabytes * 2 ** 20, () => bytes);
  let hits = 0;
  for (const query of trace) {
    const key = `q${query}`;
    if (cache.get('testing', key, 1, 0) !== undefined) hits += 1;
    else cache.set('testing', key, { value: query, version: 1, computedAt: 0, validUntil: Infinity });
  }
  return hits / trace.length;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;
console.log(`| Zipf exponent | budget | answers | least recently used | with the doorkeeper |`);
console.log(`|---|---:|---:|---:|---:|`);
for (const exponent of [0.7, 0.9, 1.0]) {
  const next = zipf(exponent);
  const trace = new Int32Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) trace[i] = next();
  for (const megabytes of [64, 32, 16]) {
    const capacity = Math.round((ANSWERS_AT_64_MB * megabytes) / 64);
    console.log(
      `| ${exponent} | ${megabytes} MB | ${capacity} | ${percent(leastRecentlyUsedHits(trace, capacity))} | ${percent(admittedHits(trace, megabytes, capacity))} |`,
    );
  }
}
