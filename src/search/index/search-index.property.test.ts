import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery } from '../../../test/support/engine-query.js';
import {
  ATTRIBUTE_SCHEMA,
  type Change,
  changeArb,
  DAY,
  documentArb,
  initialDocs,
  NOW,
  nearestQueryArb,
  oneWordQueryArb,
  queryArb,
  RANKED_SCHEMAS,
  rankedTextQueryArb,
  rankingQueryArb,
  SEARCHABLE_SCHEMAS,
  searchableDocs,
  statusOnlyQueryArb,
  T0,
} from '../../../test/support/search-arbitraries.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import type { EngineQuery, FacetRequest, IndexDocument, SearchSchema } from '../engine.js';
import { createSearchIndex, type Tuning } from './search-index.js';

/**
 * The engine against the brute-force reference (test/support/search-reference.ts): random offers
 * over a small vocabulary (so words collide, share stems and sit one or two edits apart), random
 * queries over every parameter and sort, paged through cursors to the end, with offers written
 * and removed between pages. Every page must be the reference's page for the documents of that
 * moment: same ids, order, total, facets and next keys.
 */

class World {
  readonly index: ReturnType<typeof createSearchIndex>;

  constructor(
    tuning: Partial<Tuning>,
    readonly schema: SearchSchema = ATTRIBUTE_SCHEMA,
  ) {
    this.index = createSearchIndex(tuning, schema);
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

  /**
   * Pages `query` through its cursors to the end, each page equal to the reference's for the
   * documents of that moment; `changes[page]` applied after each page, the bulk load's end
   * (finishBuild) before page `finishAt`, and the spare capacity given back after the changes of
   * page `compactAfter` (later writes must grow the arrays again).
   */
  pageToEnd(
    query: EngineQuery,
    facets: FacetRequest[],
    changes: readonly (readonly Change[])[],
    finishAt: number,
    compactAfter = -1,
  ): void {
    let after: EngineQuery['after'] = null;
    for (let page = 0; page < 100; page += 1) {
      if (page === finishAt) this.index.finishBuild?.();
      const q = { ...query, after };
      // Another query first, so the scratch buffers hold its values, not zeros.
      this.index.search(
        { ...query, sort: query.sort === 'price' ? 'publishedAt' : 'price', after: null },
        [],
      );
      const { matchedStems: _, ...got } = this.index.search(q, facets);
      expect(got).toEqual(referenceSearch([...this.docs.values()], q, facets, this.schema));
      if (got.nextKeys === null) break;
      after = got.nextKeys;
      for (const change of changes[page] ?? []) this.apply(change);
      if (page === compactAfter) this.index.compact?.();
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
  [
    'bitmaps and walks everywhere',
    {
      facetPassBelow: 0,
      facetPassValues: Number.POSITIVE_INFINITY,
      walkCost: 0,
      rangeSliceCost: 0,
      rankWalkCost: 0,
      keptFacetsFrom: 0,
      // distinct=publisher: chunks of one offer, the matches narrowed after each.
      distinctChunk: 0,
    },
  ],
  // Facet counts kept for at most two stems: the third frequent stem counts from the bitmaps.
  ['facet counts kept for a few stems', { keptFacetsFrom: 3, keptFacetsStems: 2 }],
  // Every union of words' sets kept between queries and caught up after writes (ADR 0047); a
  // small cap drops all but the last.
  ['unions kept everywhere', { unionsFrom: 0, unionBytes: 256 }],
  // Every relevance part of several words cut by proximity, each pair read from the text (ADR 0040).
  ['proximity parts everywhere', { proximityPartFrom: 0, proximityPairsFrom: Number.POSITIVE_INFINITY }],
  [
    'passes and selections everywhere',
    {
      facetPassBelow: Number.POSITIVE_INFINITY,
      walkCost: Number.POSITIVE_INFINITY,
      rangeSliceCost: Number.POSITIVE_INFINITY,
      rankWalkCost: Number.POSITIVE_INFINITY,
      keptFacetsFrom: Number.POSITIVE_INFINITY,
      distinctChunk: 0.5,
    },
  ],
];

// Generous timeouts: the machine running the suite may be shared; a run takes seconds alone.
describe.each(TUNINGS)('search engine = reference search (%s)', (_, tuning) => {
  it('answers every query like the reference, page after page through the cursors', () => {
    fc.assert(
      fc.property(
        initialDocs,
        fc.oneof(
          queryArb(4, true),
          queryArb(20, true),
          rankingQueryArb,
          nearestQueryArb,
          statusOnlyQueryArb,
          oneWordQueryArb,
        ),
        (docs, { query, facets }) => {
          const world = new World(tuning);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          const full = referenceSearch(
            [...world.docs.values()],
            { ...query, limit: 10_000 },
            facets,
            ATTRIBUTE_SCHEMA,
          );
          const seen: string[] = [];
          let after: EngineQuery['after'] = null;
          for (let page = 0; page < 100; page += 1) {
            const q = { ...query, after };
            const { matchedStems: _, ...got } = world.index.search(q, facets);
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, facets, ATTRIBUTE_SCHEMA));
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
        fc.oneof(queryArb(4, true), queryArb(20, true), nearestQueryArb, statusOnlyQueryArb, oneWordQueryArb),
        fc.array(fc.array(changeArb, { maxLength: 3 }), { maxLength: 8 }),
        // Before which page the bulk load's end (finishBuild) comes: 0 as at start-up, later
        // ones mid-way through writes and cursors.
        fc.integer({ min: 0, max: 3 }),
        (docs, { query, facets }, changes, finishAt) => {
          const world = new World(tuning);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          // Spare capacity given back mid-way (after page 1's writes).
          world.pageToEnd(query, facets, changes, finishAt, 1);
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
        fc.oneof(queryArb(4, true), queryArb(20, true), statusOnlyQueryArb, oneWordQueryArb),
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
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, facets, ATTRIBUTE_SCHEMA));
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
            expect(got).toEqual(referenceSearch([...world.docs.values()], q, [], ATTRIBUTE_SCHEMA));
            if (got.nextKeys === null) break;
            after = got.nextKeys;
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});

/**
 * The ranking tie-break (ADR 0039): the matches the text rules leave tied ordered by a declared
 * number attribute before the newest, ascending and descending, offers without it last; every
 * relevance path (rank buckets, walks, selections) and the cursor carrying the value.
 */
const RANKED_TUNINGS = TUNINGS.filter(([name]) => name !== 'facet counts kept for a few stems');
describe.each(
  RANKED_SCHEMAS.flatMap(([rank, schema]) =>
    RANKED_TUNINGS.map(([name, tuning]) => [`${rank}, ${name}`, tuning, schema] as const),
  ),
)('search engine = reference search (%s)', (_, tuning, schema) => {
  it('pages every query like the reference, with writes between pages', () => {
    fc.assert(
      fc.property(
        initialDocs,
        fc.oneof(queryArb(4, true), queryArb(20, true), rankingQueryArb, oneWordQueryArb),
        fc.array(fc.array(changeArb, { maxLength: 3 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        (docs, { query: base, facets }, changes, finishAt) => {
          const query = { ...base, sort: 'relevance' as const };
          const world = new World(tuning, schema);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          world.pageToEnd(query, facets, changes, finishAt);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});

/**
 * Searchable attributes (ADR 0042): their words matched by `q` like the title's and the
 * description's (typos, prefixes, compounds, phrases, exclusions), the attribute rule three-valued
 * (title, then the searchable attributes, then the description) on every relevance path, a
 * declared attribute that is not searchable never matched; with and without a tie-break.
 */
describe.each(
  SEARCHABLE_SCHEMAS.flatMap(([name, schema]) =>
    TUNINGS.map(([tuned, tuning]) => [`${name}, ${tuned}`, tuning, schema] as const),
  ),
)('search engine = reference search (%s)', (_, tuning, schema) => {
  it('pages every query like the reference, with writes between pages', () => {
    fc.assert(
      fc.property(
        searchableDocs,
        fc.oneof(queryArb(4, true), rankingQueryArb, oneWordQueryArb, rankedTextQueryArb, rankedTextQueryArb),
        fc.array(fc.array(changeArb, { maxLength: 3 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        (docs, { query, facets }, changes, finishAt) => {
          const world = new World(tuning, schema);
          for (const doc of docs) world.apply({ kind: 'upsert', doc });
          world.pageToEnd(query, facets, changes, finishAt, 1);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
