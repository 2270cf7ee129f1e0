/**
 * The in-memory search engine in process (issue 12): builds one index of BENCH_OFFERS (default
 * 1 000 000) seeded offers, then times each query type. No HTTP, no database: what the engine
 * itself costs. Run with `npm run bench:engine` (node --expose-gc, so heap figures are after a
 * full collection).
 *
 * Knobs: BENCH_OFFERS, BENCH_ENGINE_RUNS (timed runs per query type, default 200),
 * BENCH_ENGINE_NOW (the queries' `now`: `anchor`, the seed's anchor date, by default; `real`,
 * the clock, past most expiries as the HTTP server queries; or an ISO date), BENCH_ENGINE_FINISH
 * (what follows the build: `finish`, the index's finishBuild() as `serve` calls it, by default;
 * `orders`, its sorted orders without compact(); `compact`, compact() alone, as this bench did
 * before finishBuild; `none`), BENCH_ENGINE_ATTRIBUTES (`1`: six attributes of the seed declared,
 * ADR 0029, and three query types on them), BENCH_ENGINE_RANK_BY (`attr.year:desc`: the ranking
 * tie-break, ADR 0039). The first query of a few types after it is timed on its own.
 */

import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import roaring from 'roaring';
import { priceToUnits } from '../src/offers/price.js';
import type { FacetName } from '../src/offers/schemas.js';
import { DEFAULT_ANCHOR_MS, generateOffers } from '../src/offers/seed.js';
import { CITIES } from '../src/offers/seed-data.js';
import { isStopWord, parseTextQuery, words } from '../src/search/analysis/text.js';
import {
  type EngineQuery,
  type FacetRequest,
  type IndexDocument,
  NO_ATTRIBUTES,
  type SearchSchema,
} from '../src/search/engine.js';
import { createSearchIndex, type Index } from '../src/search/index/search-index.js';
import { parseRankBy } from '../src/search/rules.js';
import { engineQuery } from '../test/support/engine-query.js';
import { random } from './random.js';
import { seedDocument } from './seed-document.js';

const OFFERS = Number(process.env.BENCH_OFFERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ENGINE_RUNS ?? 200);
const NOW_KNOB = process.env.BENCH_ENGINE_NOW ?? 'anchor';
const NOW =
  NOW_KNOB === 'anchor' ? DEFAULT_ANCHOR_MS : NOW_KNOB === 'real' ? Date.now() : Date.parse(NOW_KNOB);
if (Number.isNaN(NOW)) throw new Error(`BENCH_ENGINE_NOW: not anchor, real or an ISO date: ${NOW_KNOB}`);
const FINISH = process.env.BENCH_ENGINE_FINISH ?? 'finish';
if (!['finish', 'orders', 'compact', 'none'].includes(FINISH))
  throw new Error(`BENCH_ENGINE_FINISH: not finish, orders, compact or none: ${FINISH}`);
const ALL_FACETS: FacetName[] = ['category', 'tag', 'city', 'country'];
/** Six attributes of the seeded offers, declared when BENCH_ENGINE_ATTRIBUTES=1. */
const SCHEMA: SearchSchema =
  process.env.BENCH_ENGINE_ATTRIBUTES === '1'
    ? {
        attributes: [
          { name: 'year', type: 'number', facet: true, sort: true, searchable: false },
          { name: 'mileageKm', type: 'number', facet: true, sort: true, searchable: false },
          { name: 'areaM2', type: 'number', facet: true, sort: true, searchable: false },
          { name: 'storageGb', type: 'number', facet: true, sort: true, searchable: false },
          { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
          { name: 'condition', type: 'string', facet: true, sort: false, searchable: false },
        ],
      }
    : NO_ATTRIBUTES;
/** BENCH_ENGINE_RANK_BY=attr.NAME:desc|asc (with BENCH_ENGINE_ATTRIBUTES=1): the ranking tie-break (ADR 0039). */
const RANK_BY = process.env.BENCH_ENGINE_RANK_BY ? parseRankBy(process.env.BENCH_ENGINE_RANK_BY) : null;
if (process.env.BENCH_ENGINE_RANK_BY && !RANK_BY)
  throw new Error(
    `BENCH_ENGINE_RANK_BY: not attr.NAME:desc or attr.NAME:asc: ${process.env.BENCH_ENGINE_RANK_BY}`,
  );

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
function memory() {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  // `external` includes the typed arrays' buffers (`arrayBuffers`); CRoaring's bitmaps are
  // allocated outside V8 and counted on their own (ADR 0019).
  return { rss: m.rss, heap: m.heapUsed, external: m.external + roaring.getRoaringUsedMemory() };
}

function baseQuery(more: Partial<EngineQuery>): EngineQuery {
  return engineQuery(NOW, { sort: more.text ? 'relevance' : '-publishedAt', ...more });
}

const text = (q: string) => parseTextQuery(q);

interface QueryType {
  name: string;
  /** With `values`: a facet-value search (`GET /offers/facet-values`) of that facet and prefix. */
  queries: Array<{
    query: EngineQuery;
    facets: FacetRequest[];
    values?: { facet: 'city' | 'tag'; prefix: string };
  }>;
  /** Each query timed once, never warmed up nor repeated (what people send while they type). */
  fresh?: boolean;
}

const plain = (query: EngineQuery) => ({ query, facets: [] as FacetRequest[] });

/**
 * `count` never-repeated queries as people type them, drawn from the offers' own words: one to
 * three whole words of an offer's title or description in order, then the first 2–4 letters of
 * the word after them (stop words skipped), from offers spread over the whole seed.
 */
function typingQueries(count: number): string[] {
  const out = new Set<string>();
  const step = Math.max(1, Math.floor(OFFERS / (count * 2)));
  for (let i = 0; out.size < count && i < count * 8; i += 1) {
    const [offer] = [...generateOffers({ count: 1, startIndex: (i * step) % OFFERS })];
    if (offer === undefined) break;
    const all = words(i % 2 === 0 ? offer.title : offer.description).filter(
      (w) => !isStopWord(w) && /^[a-z]+$/.test(w),
    );
    const n = 1 + (i % 3);
    const at = i % Math.max(1, all.length - n);
    const whole = all.slice(at, at + n);
    const next = all[at + n];
    if (whole.length < n || next === undefined || next.length < 3) continue;
    const prefix = next.slice(0, Math.min(next.length - 1, 2 + (i % 3)));
    out.add(`${whole.join(' ')} ${prefix}`);
  }
  return [...out];
}

/**
 * Map windows as `npm run bench` draws them (bench/catalogue.ts): from a district to a country
 * around the seed's cities, one in twenty across the antimeridian, often with a word, a category
 * or a price order.
 */
function bboxQueries(count: number): QueryType['queries'] {
  const r = random(23);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)] as T;
  const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
  const out: QueryType['queries'] = [];
  for (let i = 0; i < count; i += 1) {
    const city = pick(CITIES);
    const half = pick([0.02, 0.05, 0.1, 0.3, 1, 3]) * (0.8 + 0.4 * r());
    const lat = city.lat + (r() - 0.5) * half;
    const lon = city.lon + (r() - 0.5) * half;
    const window = {
      minLat: clamp(lat - half, -90, 90),
      minLon: clamp(lon - half * 1.5, -180, 180),
      maxLat: clamp(lat + half, -90, 90),
      maxLon: clamp(lon + half * 1.5, -180, 180),
    };
    const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
    const crossing = {
      minLat: int(-45, -20),
      minLon: int(95, 150),
      maxLat: int(40, 62),
      maxLon: int(-130, -70),
    };
    const more: Partial<EngineQuery> = { bbox: r() < 0.05 ? crossing : window };
    const roll = r();
    if (roll < 0.25) more.text = text(`${pick(['condition', 'delivery', 'used', 'good'])} `);
    else if (roll < 0.45) more.categories = [pick(['furniture', 'vehicles', 'electronics', 'fashion'])];
    if (r() < 0.2) more.sort = pick(['price', '-price'] as const);
    const facets: FacetRequest[] = r() < 0.15 ? ['category'] : [];
    out.push({ query: baseQuery(more), facets });
  }
  return out;
}

function queryTypes(): QueryType[] {
  return [
    {
      name: 'single word',
      queries: [
        'table ',
        'bike ',
        'laptop ',
        'apartment ',
        'guitar ',
        'jacket ',
        'sofa ',
        'camera ',
        'developer ',
        'garden ',
      ].map((q) => plain(baseQuery({ text: text(q) }))),
    },
    {
      name: 'two words',
      queries: ['oak table ', 'road bike ', 'gaming laptop ', 'leather jacket ', 'garden maintenance '].map(
        (q) => plain(baseQuery({ text: text(q) })),
      ),
    },
    {
      name: 'two words + category + price',
      queries: [
        baseQuery({ text: text('oak table '), categories: ['furniture'], priceMax: priceToUnits('800') }),
        baseQuery({
          text: text('road bike '),
          categories: ['sports'],
          priceMin: priceToUnits('100'),
          priceMax: priceToUnits('3000'),
        }),
      ].map(plain),
    },
    {
      name: 'typo word',
      queries: ['chiars ', 'maintenence ', 'devloper ', 'apartmnet ', 'bicylce '].map((q) =>
        plain(baseQuery({ text: text(q) })),
      ),
    },
    {
      name: 'prefix (typing)',
      queries: ['gard', 'bicy', 'deve', 'de', 'apartm', 'chiar'].map((q) =>
        plain(baseQuery({ text: text(q) })),
      ),
    },
    {
      // A word, then the next being typed: where the words are rarely together, the typo class
      // is ranked whole (docs/search.md), the engine's dearest query shape.
      name: 'word + prefix (typing)',
      queries: ['used ca', 'house clea', 'new la', 'oak ta', 'road bi', 'leather ja'].map((q) =>
        plain(baseQuery({ text: text(q) })),
      ),
    },
    {
      // Frequent words rarely adjacent in the order typed (ADR 0035 "still slow", ADR 0040).
      name: 'frequent words + prefix (typing)',
      queries: ['condition new', 'used ca', 'good condition delivery', 'house clea', 'well ye'].map((q) =>
        plain(baseQuery({ text: text(q) })),
      ),
    },
    {
      name: 'typing: words + 2–4-letter prefix, never repeated',
      fresh: true,
      queries: typingQueries(RUNS).map((q) => plain(baseQuery({ text: text(q) }))),
    },
    {
      name: 'filter only, newest first',
      queries: [
        baseQuery({ categories: ['vehicles'] }),
        baseQuery({ country: 'DE' }),
        baseQuery({ priceMin: priceToUnits('10'), priceMax: priceToUnits('50') }),
        baseQuery({}),
      ].map(plain),
    },
    {
      name: 'filter only, price order',
      queries: [baseQuery({ categories: ['furniture'], sort: 'price' }), baseQuery({ sort: '-price' })].map(
        plain,
      ),
    },
    {
      name: 'common word + 4 facets',
      queries: ['condition ', 'delivery '].map((q) => ({
        query: baseQuery({ text: text(q) }),
        facets: ALL_FACETS,
      })),
    },
    {
      name: 'filter only + 4 facets',
      queries: [{ query: baseQuery({}), facets: ALL_FACETS }],
    },
    {
      name: 'geo radius',
      queries: [
        baseQuery({ near: { lat: 48.8566, lon: 2.3522 }, radiusKm: 25 }),
        baseQuery({ near: { lat: 40.7128, lon: -74.006 }, radiusKm: 30, categories: ['vehicles'] }),
      ].map(plain),
    },
    {
      name: 'sort=distance',
      queries: [
        baseQuery({ near: { lat: 52.52, lon: 13.405 }, radiusKm: 50, sort: 'distance' }),
        baseQuery({ near: { lat: 41.9, lon: 12.5 }, sort: 'distance' }),
      ].map(plain),
    },
    {
      name: 'map window (bbox)',
      queries: bboxQueries(40),
    },
    {
      name: 'facet-value search (city, tag)',
      queries: [
        { query: baseQuery({}), facets: [], values: { facet: 'city' as const, prefix: 'b' } },
        {
          query: baseQuery({ text: text('condition ') }),
          facets: [],
          values: { facet: 'tag' as const, prefix: '' },
        },
        {
          query: baseQuery({ categories: ['vehicles'] }),
          facets: [],
          values: { facet: 'city' as const, prefix: 'sa' },
        },
      ],
    },
    {
      // One offer per publisher (ADR 0038): the order walked from its start until the page's
      // publishers are met; the total counts publishers.
      name: 'distinct=publisher',
      queries: [
        baseQuery({ distinct: 'publisher' }),
        baseQuery({ text: text('table '), distinct: 'publisher' }),
        baseQuery({ text: text('condition '), distinct: 'publisher' }),
        baseQuery({ text: text('oak ta'), distinct: 'publisher' }),
        baseQuery({ categories: ['vehicles'], sort: 'price', distinct: 'publisher' }),
        baseQuery({
          near: { lat: 48.8566, lon: 2.3522 },
          radiusKm: 25,
          sort: 'distance',
          distinct: 'publisher',
        }),
      ].map(plain),
    },
    ...(SCHEMA.attributes.length === 0 ? [] : attributeTypes()),
  ];
}

/** One query of a type: its total, or for a facet-value search the number of values answered. */
function run(index: ReturnType<typeof createSearchIndex>, entry: QueryType['queries'][number]): number {
  if (entry.values) return index.facetValues(entry.query, entry.values.facet, entry.values.prefix, 10).length;
  return index.search(entry.query, entry.facets).total;
}

/** An `attr.*` range with facet stats, and a string attribute's filter sorted by a number one. */
function attributeTypes(): QueryType[] {
  const range = (min: number, max: number) => [{ name: 'year', values: [], min, max }];
  const storage = (min: number, max: number | null) => [{ name: 'storageGb', values: [], min, max }];
  return [
    {
      name: 'attr range + facet stats',
      queries: [
        { query: baseQuery({ attributes: range(2010, 2020) }), facets: ['attr.year', 'price'] },
        {
          query: baseQuery({ attributes: range(2015, 2026), categories: ['vehicles'] }),
          facets: ['attr.mileageKm', 'price'],
        },
        {
          query: baseQuery({ text: text('car '), attributes: range(2000, 2018) }),
          facets: ['attr.year', 'attr.condition'],
        },
      ],
    },
    {
      // As bench/catalogue.ts `attr` asks over HTTP (issue 23): a year or storage range over
      // every offer, facet counts on attributes and the stats of the numbers and price.
      name: 'attr range + stats',
      queries: [
        {
          query: baseQuery({ attributes: storage(64, null), priceMax: priceToUnits('850') }),
          facets: ['attr.storageGb', 'attr.brand', 'attr.condition', 'price'],
        },
        {
          query: baseQuery({ attributes: storage(128, 512) }),
          facets: ['attr.storageGb', 'attr.brand', 'attr.condition', 'price'],
        },
        {
          query: baseQuery({
            attributes: [
              ...storage(32, 256),
              { name: 'condition', values: ['good', 'very-good', 'like-new'], min: null, max: null },
            ],
          }),
          facets: ['attr.storageGb', 'attr.brand', 'attr.condition', 'price'],
        },
        { query: baseQuery({ attributes: range(2012, 2020) }), facets: ['attr.year', 'price'] },
        {
          query: baseQuery({ attributes: range(2016, 2026), country: 'DE' }),
          facets: ['attr.year', 'price'],
        },
        {
          query: baseQuery({ attributes: range(2010, 2026), sort: '-attr.year' }),
          facets: ['attr.year', 'price'],
        },
      ],
    },
    {
      name: 'attr filter, sort=-attr',
      queries: [
        baseQuery({
          attributes: [{ name: 'condition', values: ['good', 'like new'], min: null, max: null }],
          sort: '-attr.year',
        }),
        baseQuery({ attributes: [{ name: 'areaM2', values: [], min: 50, max: null }], sort: 'attr.areaM2' }),
      ].map(plain),
    },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/** The first query of a few types after the build, in turn, each timed alone and then again. */
function firstQueries(index: ReturnType<typeof createSearchIndex>): string {
  const out: string[] = [];
  for (const [name, query] of [
    ['filter only, newest first', baseQuery({})],
    ['filter only, sort=price', baseQuery({ sort: 'price' })],
    ['word, relevance', baseQuery({ text: text('table ') })],
  ] as const) {
    const times = [0, 1].map(() => {
      const t = performance.now();
      index.search(query, []);
      return (performance.now() - t).toFixed(1);
    });
    out.push(`${name} ${times[0]} (${times[1]})`);
  }
  return out.join('; ');
}

/**
 * Writes after the build: one sixteenth of the offers plus one updated (each a new slot), the
 * most a tail holds before a fold, then the queries that fold the orders in, timed alone.
 */
function foldAfterWrites(index: ReturnType<typeof createSearchIndex>): string {
  const count = Math.ceil(OFFERS / 16) + 1;
  const docs = [...generateOffers({ count })].map((offer) => ({
    ...seedDocument(offer, { attributes: SCHEMA.attributes.length > 0 }),
    title: `${offer.title} v2`,
  }));
  const t = performance.now();
  for (const doc of docs) index.upsert(doc);
  const writes = performance.now() - t;
  const folds = firstQueries(index);
  return `${count} updates ${Math.round(writes)} ms; then ${folds}`;
}

function main() {
  const before = memory();
  const index = createSearchIndex({}, RANK_BY ? { ...SCHEMA, rankBy: RANK_BY } : SCHEMA);
  let buildMs = 0;
  let buildCpuMs = 0;
  let generated = 0;
  const CHUNK = 50_000;
  for (let start = 0; start < OFFERS; start += CHUNK) {
    const docs: IndexDocument[] = [];
    for (const offer of generateOffers({ count: Math.min(CHUNK, OFFERS - start), startIndex: start })) {
      docs.push(seedDocument(offer, { attributes: SCHEMA.attributes.length > 0 }));
    }
    generated += docs.length;
    const c = process.cpuUsage();
    const t = performance.now();
    for (const doc of docs) index.upsert(doc);
    buildMs += performance.now() - t;
    const used = process.cpuUsage(c);
    buildCpuMs += (used.user + used.system) / 1000;
    if (start % 200_000 === 0)
      console.error(`indexed ${generated} offers, ${Math.round(buildMs)} ms in the engine so far`);
  }
  const c = process.cpuUsage();
  const finishStarted = performance.now();
  const ix = index as Index;
  if (FINISH === 'finish') ix.finishBuild();
  else if (FINISH === 'orders') ix.buildOrders();
  else if (FINISH === 'compact') ix.compact();
  const finishMs = performance.now() - finishStarted;
  const finishCpu = process.cpuUsage(c);
  const finishCpuMs = (finishCpu.user + finishCpu.system) / 1000;
  const firsts = firstQueries(index);
  const folds = foldAfterWrites(index);
  const after = memory();
  const heapPerOffer = (after.heap + after.external - before.heap - before.external) / OFFERS;
  console.log(`# In-memory engine, in process: ${OFFERS} offers`);
  console.log('');
  console.log(
    `- build (upsert of every offer, analysis included, generation excluded): ${(buildMs / 1000).toFixed(1)} s wall, ${(buildCpuMs / 1000).toFixed(1)} s CPU`,
  );
  console.log(
    `- heap + array buffers + bitmaps after the build and the writes: ${mb(after.heap + after.external)} MB (before: ${mb(before.heap + before.external)} MB); RSS ${mb(after.rss)} MB`,
  );
  console.log(
    `- after the build (BENCH_ENGINE_FINISH=${FINISH}): ${Math.round(finishMs)} ms wall, ${Math.round(finishCpuMs)} ms CPU`,
  );
  console.log(`- queries at now = ${new Date(NOW).toISOString()} (BENCH_ENGINE_NOW=${NOW_KNOB})`);
  console.log(`- first queries after it, in this order (ms; the same query again): ${firsts}`);
  console.log(`- writes after it: ${folds}`);
  console.log(
    `- bytes per offer (heap + buffers + bitmaps growth / offers): ${Math.round(heapPerOffer)} (bitmaps alone: ${Math.round(roaring.getRoaringUsedMemory() / OFFERS)})`,
  );
  console.log('');
  console.log(
    `- load average before the queries: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores)`,
  );
  console.log('');
  console.log('| query type | total (first query) | p50 ms | p99 ms | max ms | CPU p50 ms | CPU p99 ms |');
  console.log('|---|---|---|---|---|---|---|');
  const types = queryTypes();
  // Deep pages: page 1 000 (20 a page) of a broad filter and of a common word, reached by
  // following nextKeys 100 at a time.
  for (const [name, q] of [
    ['deep page 1 000, newest first', baseQuery({})],
    ['deep page 1 000, price', baseQuery({ sort: 'price' })],
    ['deep page 1 000, relevance', baseQuery({ text: text('condition ') })],
  ] as const) {
    let after: EngineQuery['after'] = null;
    for (let page = 0; page < 200; page += 1) {
      const r = index.search({ ...q, limit: 100, after }, []);
      after = r.nextKeys;
    }
    types.push({ name, queries: [plain({ ...q, after })] });
  }
  // distinct=publisher's dearest page: the last (its publishers are met last in the order).
  for (const [name, q] of [
    ['distinct, last page, newest first', baseQuery({ distinct: 'publisher' })],
    ['distinct, last page, relevance', baseQuery({ text: text('condition '), distinct: 'publisher' })],
  ] as const) {
    let after: EngineQuery['after'] = null;
    for (let page = 0; page < 1_000; page += 1) {
      const r = index.search({ ...q, after }, []);
      if (r.nextKeys === null) break;
      after = r.nextKeys;
    }
    types.push({ name, queries: [plain({ ...q, after })] });
  }
  for (const type of types) {
    const times: number[] = [];
    const cpu: number[] = [];
    const first = type.queries[0];
    const totals: number[] = [];
    let total: number | string = first && !type.fresh ? run(index, first) : 0;
    if (!type.fresh) for (let i = 0; i < 5; i += 1) for (const entry of type.queries) run(index, entry);
    for (let i = 0; i < (type.fresh ? type.queries.length : RUNS); i += 1) {
      const entry = type.queries[i % type.queries.length] as QueryType['queries'][number];
      const c = process.cpuUsage();
      const t = performance.now();
      const found = run(index, entry);
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      if (type.fresh) totals.push(found);
    }
    if (type.fresh) {
      totals.sort((a, b) => a - b);
      total = `${totals.length} queries, median ${percentile(totals, 50)}, max ${totals[totals.length - 1]}`;
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(
      `| ${type.name} | ${total} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${(times[times.length - 1] as number).toFixed(2)} | ${percentile(cpu, 50).toFixed(2)} | ${percentile(cpu, 99).toFixed(2)} |`,
    );
  }
}

main();
