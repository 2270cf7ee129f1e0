import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery } from '../../test/support/engine-query.js';
import { referenceSearch } from '../../test/support/search-reference.js';
import { FACET_NAMES, type FacetName, SORTS, STATUSES } from '../offers/schemas.js';
import { parseTextQuery } from '../offers/text.js';
import type { EngineQuery, IndexDocument } from './engine.js';
import { createSearchIndex, type Tuning } from './search-index.js';

/**
 * The engine against the brute-force reference (test/support/search-reference.ts): random offers
 * over a small vocabulary (so words collide, share stems and sit one or two edits apart), random
 * queries over every parameter and sort, paged through cursors to the end, with offers written
 * and removed between pages. Every page must be the reference's page for the documents of that
 * moment: same ids, order, total, facets and next keys.
 */

const VOCABULARY = [
  'chair',
  'chairs',
  'chiars',
  'dining',
  'dinning',
  'table',
  'bike',
  'road',
  'trailer',
  'dog',
  'running',
  'run',
  'maintenance',
  'maintenence',
  'lamp',
  'e-bike',
  'café',
  'the',
  'zorglub',
  'zorglib',
  'refrigerator',
  'refrigerators',
  'red',
  'reed',
  'bicycle',
  'bicycles',
];
/** Pairs that also appear in offers as they are, so phrases find something. */
const PAIRS = ['dining chairs', 'road bike', 'red lamp', 'bike trailer'];
const CATEGORIES = ['furniture', 'vehicles', 'jobs', 'services'];
const TAGS = ['pickup-only', 'new', 'insured', 'weekends', 'remote'];
const CITIES = [
  { city: 'Paris', country: 'FR', lat: 48.8566, lon: 2.3522 },
  { city: 'Lyon', country: 'FR', lat: 45.764, lon: 4.8357 },
  { city: 'Rome', country: 'IT', lat: 41.9028, lon: 12.4964 },
  { city: 'Gdańsk', country: 'PL', lat: 54.352, lon: 18.6466 },
];
const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const NOW = T0 + 20 * DAY;

/** Mostly absent: a filter present in every query would leave little to match. */
function sometimes<T>(arb: fc.Arbitrary<T>, absent = 4): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: absent }, { arbitrary: arb, weight: 1 });
}

const text = (min: number, max: number) =>
  fc
    .array(fc.oneof({ arbitrary: fc.constantFrom(...VOCABULARY), weight: 4 }, fc.constantFrom(...PAIRS)), {
      minLength: min,
      maxLength: max,
    })
    .map((w) => w.join(' '));

const documentArb = (id: string): fc.Arbitrary<IndexDocument> =>
  fc
    .record({
      title: text(1, 6),
      description: text(0, 12),
      category: fc.constantFrom(...CATEGORIES),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
      place: fc.constantFrom(...CITIES),
      jitter: fc.tuple(
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      ),
      currency: fc.constantFrom('EUR', 'PLN'),
      price: fc.integer({ min: 0, max: 20 }).map((p) => p * 10_000),
      status: fc.constantFrom<IndexDocument['status']>('active', 'active', 'active', 'expired', 'withdrawn'),
      // Few distinct dates, so ties on publishedAt are common and the id decides.
      published: fc.integer({ min: 0, max: 8 }).map((d) => T0 + d * DAY),
      updated: fc.integer({ min: 0, max: 30 }).map((d) => T0 + d * DAY),
      expires: fc.option(fc.integer({ min: 10, max: 30 }).map((d) => T0 + d * DAY)),
    })
    .map((r) => ({
      id,
      title: r.title,
      description: r.description,
      category: r.category,
      tags: r.tags,
      city: r.place.city,
      country: r.place.country,
      currency: r.currency,
      price: r.price,
      lat: r.place.lat + r.jitter[0],
      lon: r.place.lon + r.jitter[1],
      status: r.status,
      publishedAt: r.published,
      updatedAt: r.updated,
      expiresAt: r.expires,
    }));

const idArb = fc.integer({ min: 0, max: 60 }).map((i) => `off_${String(i).padStart(3, '0')}`);

/** A word of the vocabulary, sometimes with one or two random edits, sometimes cut short. */
const typedWord = fc
  .tuple(
    fc.constantFrom(...VOCABULARY),
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 25 }),
    fc.nat(),
  )
  .map(([word, edit, letter, at]) => {
    const c = String.fromCharCode(97 + letter);
    const i = at % (word.length + 1);
    switch (edit) {
      case 1:
        return word.slice(0, i) + c + word.slice(i);
      case 2:
        return word.slice(0, i) + word.slice(i + 1);
      case 3:
        return word.slice(0, i) + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2);
      case 4:
        return word.slice(0, Math.max(2, i));
      default:
        return word;
    }
  });

const qArb = fc
  .record({
    words: fc.array(typedWord, { minLength: 1, maxLength: 2 }),
    phrase: sometimes(
      fc.oneof(
        fc.constantFrom(...PAIRS),
        fc.array(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 3 }).map((w) => w.join(' ')),
      ),
    ),
    excluded: sometimes(fc.constantFrom(...VOCABULARY)),
    excludedPhrase: sometimes(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 2 })),
    trailingSpace: fc.boolean(),
  })
  .map((r) => {
    // Phrases and exclusions first, so the last typed word can be a prefix.
    const parts: string[] = [];
    if (r.excludedPhrase) parts.push(`-"${r.excludedPhrase.join(' ')}"`);
    if (r.phrase) parts.push(`"${r.phrase}"`);
    if (r.excluded) parts.push(`-${r.excluded}`);
    parts.push(...r.words);
    return parts.join(' ') + (r.trailingSpace ? ' ' : '');
  });

/** `rare`: how much more often each filter is absent than present. */
const queryArb = (rare: number): fc.Arbitrary<{ query: EngineQuery; facets: FacetName[] }> =>
  fc
    .record({
      q: fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: qArb, weight: 3 }),
      categories: sometimes(
        fc.uniqueArray(fc.constantFrom(...CATEGORIES), { minLength: 1, maxLength: 2 }),
        rare,
      ),
      tags: sometimes(fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }), rare),
      place: sometimes(fc.constantFrom(...CITIES), rare),
      byCountry: sometimes(fc.constantFrom('FR', 'IT', 'PL'), rare),
      currency: sometimes(fc.constantFrom('EUR', 'PLN'), rare),
      priceMin: sometimes(
        fc.integer({ min: 0, max: 20 }).map((p) => p * 10_000),
        rare,
      ),
      priceMax: sometimes(
        fc.integer({ min: 0, max: 20 }).map((p) => p * 10_000),
        rare,
      ),
      publishedAfter: sometimes(
        fc.integer({ min: 0, max: 8 }).map((d) => T0 + d * DAY),
        rare,
      ),
      publishedBefore: sometimes(
        fc.integer({ min: 0, max: 9 }).map((d) => T0 + d * DAY),
        rare,
      ),
      updatedSince: sometimes(
        fc.integer({ min: 0, max: 30 }).map((d) => T0 + d * DAY),
        rare,
      ),
      near: sometimes(fc.constantFrom(...CITIES), rare),
      radiusKm: fc.option(fc.double({ min: 1, max: 2000, noNaN: true })),
      status: rare > 4 ? fc.constant('active') : fc.constantFrom(...STATUSES, 'active', 'active', 'active'),
      sort: fc.constantFrom(...SORTS),
      limit: fc.integer({ min: 1, max: 4 }),
      facets: fc.subarray([...FACET_NAMES]),
    })
    .map((r) => {
      const text = r.q === null ? null : parseTextQuery(r.q);
      let sort = r.sort;
      if (sort === 'relevance' && text === null) sort = '-publishedAt';
      if (sort === 'distance' && r.near === null) sort = 'price';
      return {
        query: {
          text,
          categories: r.categories ?? [],
          tags: r.tags ?? [],
          city: r.place?.city ?? null,
          country: r.byCountry,
          currency: r.currency,
          priceMin: r.priceMin,
          priceMax: r.priceMax,
          publishedAfter: r.publishedAfter,
          publishedBefore: r.publishedBefore,
          updatedSince: r.updatedSince,
          near: r.near ? { lat: r.near.lat, lon: r.near.lon } : null,
          radiusKm: r.near ? r.radiusKm : null,
          status: r.status as EngineQuery['status'],
          sort,
          limit: r.limit,
          after: null,
          now: NOW,
        },
        facets: r.facets,
      };
    });

/** Text only, ranked: where the relevance rules decide the order. */
const rankingQueryArb = queryArb(1000).map(({ query, facets }) => ({
  query: { ...query, sort: query.text ? ('relevance' as const) : query.sort },
  facets,
}));

/** No text and no filter but the status, sorted: answered from maintained counts and a sorted walk. */
const statusOnlyQueryArb = fc
  .tuple(
    queryArb(1000),
    fc.constantFrom(...STATUSES),
    fc.constantFrom('publishedAt' as const, '-publishedAt' as const, 'price' as const, '-price' as const),
  )
  .map(([{ query }, status, sort]) => ({
    query: { ...query, text: null, status: status as EngineQuery['status'], sort },
    facets: [...FACET_NAMES],
  }));

/** Nearest first from anywhere around the cities, where the grid's cells decide what is read. */
const nearestQueryArb = fc
  .tuple(
    queryArb(1000),
    fc.constantFrom(...CITIES),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .map(([{ query, facets }, city, dLat, dLon]) => ({
    query: {
      ...query,
      text: null,
      sort: 'distance' as const,
      near: { lat: city.lat + dLat, lon: city.lon + dLon },
    },
    facets,
  }));

type Change = { kind: 'upsert'; doc: IndexDocument } | { kind: 'remove'; id: string };

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  idArb.chain((id) => documentArb(id)).map((doc) => ({ kind: 'upsert' as const, doc })),
  idArb.map((id) => ({ kind: 'remove' as const, id })),
);

const initialDocs = fc
  .uniqueArray(idArb, { minLength: 10, maxLength: 50 })
  .chain((ids) => fc.tuple(...ids.map((id) => documentArb(id))));

class World {
  readonly index: ReturnType<typeof createSearchIndex>;

  constructor(tuning: Partial<Tuning>) {
    this.index = createSearchIndex(tuning);
  }

  readonly docs = new Map<string, IndexDocument>();

  apply(change: Change): void {
    if (change.kind === 'upsert') {
      this.index.upsert(change.doc);
      this.docs.set(change.doc.id, change.doc);
    } else {
      this.index.remove(change.id);
      this.docs.delete(change.id);
    }
  }
}

/**
 * Each exact path of the engine, forced on this small data (ADR 0019): the defaults; counting
 * facets by AND-cardinalities, walking every sorted page and relevance class, slicing every
 * range out of the sorted orders; and the opposite of each (a pass over the matches, a selection
 * among them, a test per match).
 */
const TUNINGS: Array<[string, Partial<Tuning>]> = [
  ['default switch points', {}],
  ['bitmaps and walks everywhere', { facetPassBelow: 0, walkCost: 0, rangeSliceCost: 0, rankWalkCost: 0 }],
  [
    'passes and selections everywhere',
    {
      facetPassBelow: Number.POSITIVE_INFINITY,
      walkCost: Number.POSITIVE_INFINITY,
      rangeSliceCost: Number.POSITIVE_INFINITY,
      rankWalkCost: Number.POSITIVE_INFINITY,
    },
  ],
];

// Generous timeouts: the machine running the suite may be shared; a run takes seconds alone.
describe.each(TUNINGS)('search engine = reference search (%s)', (_, tuning) => {
  it('answers every query like the reference, page after page through the cursors', () => {
    fc.assert(
      fc.property(
        initialDocs,
        fc.oneof(queryArb(4), queryArb(20), rankingQueryArb, nearestQueryArb, statusOnlyQueryArb),
        (docs, { query, facets }) => {
          const world = new World(tuning);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          const full = referenceSearch([...world.docs.values()], { ...query, limit: 10_000 }, facets);
          const seen: string[] = [];
          let after: EngineQuery['after'] = null;
          for (let page = 0; page < 100; page += 1) {
            const q = { ...query, after };
            const { matchedStems: _, ...got } = world.index.search(q, facets);
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, facets));
            seen.push(...got.ids);
            if (got.nextKeys === null) break;
            after = got.nextKeys;
          }
          expect(seen).toEqual(full.ids);
          expect(world.index.size).toBe(world.docs.size);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('stays equal to the reference while offers are written and removed between pages', () => {
    fc.assert(
      fc.property(
        initialDocs,
        fc.oneof(queryArb(4), queryArb(20), nearestQueryArb, statusOnlyQueryArb),
        fc.array(fc.array(changeArb, { maxLength: 3 }), { maxLength: 8 }),
        // Before which page the bulk load's end (finishBuild) comes: 0 as at start-up, later
        // ones mid-way through writes and cursors.
        fc.integer({ min: 0, max: 3 }),
        (docs, { query, facets }, changes, finishAt) => {
          const world = new World(tuning);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          let after: EngineQuery['after'] = null;
          for (let page = 0; page < 100; page += 1) {
            if (page === finishAt) world.index.finishBuild?.();
            const q = { ...query, after };
            const { matchedStems: _, ...got } = world.index.search(q, facets);
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, facets));
            if (got.nextKeys === null) break;
            after = got.nextKeys;
            for (const change of changes[page] ?? []) world.apply(change);
            // Spare capacity given back mid-way: later writes must grow the arrays again.
            if (page === 1) world.index.compact?.();
          }
          expect(world.index.size).toBe(world.docs.size);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it("counts offers past their expiry at each query's own now, the clock moving either way between writes", () => {
    fc.assert(
      fc.property(
        initialDocs,
        fc.oneof(queryArb(4), queryArb(20), statusOnlyQueryArb),
        // Half days: some queries land exactly on an expiry (expiries are whole days).
        fc.array(fc.tuple(fc.integer({ min: 10, max: 70 }), fc.array(changeArb, { maxLength: 3 })), {
          minLength: 2,
          maxLength: 10,
        }),
        (docs, { query, facets }, steps) => {
          const world = new World(tuning);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          for (const [halfDays, changes] of steps) {
            const q = { ...query, now: T0 + (halfDays * DAY) / 2 };
            const { matchedStems: _, ...got } = world.index.search(q, facets);
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, facets));
            for (const change of changes) world.apply(change);
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('pages nearest first across the cells of the geo grid like the reference', () => {
    const around = fc.tuple(
      fc.double({ min: -1.2, max: 1.2, noNaN: true }),
      fc.double({ min: -1.2, max: 1.2, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(around, { minLength: 20, maxLength: 80 }),
        documentArb('x'),
        around,
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.double({ min: 1, max: 150, noNaN: true })),
        (points, template, [dLat, dLon], limit, radiusKm) => {
          const world = new World(tuning);
          points.forEach(([a, b], i) => {
            world.apply({
              kind: 'upsert',
              doc: {
                ...template,
                id: `off_${i}`,
                status: 'active',
                expiresAt: null,
                lat: 48 + a,
                lon: 2 + b,
              },
            });
          });
          const query = engineQuery(NOW, {
            near: { lat: 48 + dLat, lon: 2 + dLon },
            radiusKm,
            sort: 'distance',
            limit,
          });
          let after: EngineQuery['after'] = null;
          for (let page = 0; page < 100; page += 1) {
            const q = { ...query, after };
            const { matchedStems: _, ...got } = world.index.search(q, []);
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, []));
            if (got.nextKeys === null) break;
            after = got.nextKeys;
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
