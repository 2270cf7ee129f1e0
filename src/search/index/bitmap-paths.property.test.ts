import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery } from '../analysis/text.js';
import type { EngineQuery, IndexDocument } from '../engine.js';
import { FACET_NAMES, SORTS } from '../engine.js';
import { createSearchIndex, type Tuning } from './search-index.js';

/**
 * The bitmap paths of ADR 0019 against the reference, on data shaped for them: more facet
 * values than the top 20 shown (so counts decide which values are cut), dense match sets (one
 * common word, most offers active) and sparse ones, offers past their expiry at `now`, deep
 * cursors through every relevance class, and writes after `compact()`. Each case runs with the
 * switch points at both extremes and in between, so every exact path answers every query.
 */

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const NOW = T0 + 20 * DAY;
/** A common word, its typo and prefix neighbours, a word only in descriptions, a rare word. */
const WORDS = ['lamp', 'lamps', 'lanp', 'lampshade', 'table', 'desk', 'oak', 'vintage', 'zorglub'];
const VALUES = Array.from({ length: 26 }, (_, i) => `v${String.fromCharCode(97 + i)}`);

const TUNINGS: Array<Partial<Tuning>> = [
  {
    facetPassBelow: 0,
    facetPassValues: Number.POSITIVE_INFINITY,
    walkCost: 0,
    rangeSliceCost: 0,
    rankWalkCost: 0,
    keptFacetsFrom: 0,
    distinctChunk: 0,
    // Every part cut by proximity, every pair kept, none for long (each use evicts the others).
    proximityPartFrom: 0,
    proximityPairsFrom: 0,
    proximityBytes: 0,
  },
  // Sparse matches: a pass for the one-value columns (26 values ≥ 16), AND-cardinalities for
  // the tags (about two an offer: 26 < 16 × 2).
  {
    facetPassBelow: 8,
    facetPassValues: 16,
    walkCost: 1,
    rangeSliceCost: 1,
    rankWalkCost: 0.1,
    keptFacetsFrom: 10,
    keptFacetsStems: 2,
    proximityPartFrom: 3,
    proximityPairsFrom: 4,
  },
  {
    facetPassBelow: Number.POSITIVE_INFINITY,
    walkCost: Number.POSITIVE_INFINITY,
    rangeSliceCost: Number.POSITIVE_INFINITY,
    proximityPartFrom: Number.POSITIVE_INFINITY,
  },
];

const words = (min: number, max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));

const docArb = (i: number): fc.Arbitrary<IndexDocument> =>
  fc
    .record({
      common: fc.boolean(),
      title: words(0, 3),
      description: words(0, 4),
      category: fc.constantFrom(...VALUES),
      tags: fc.uniqueArray(fc.constantFrom(...VALUES), { maxLength: 4 }),
      city: fc.constantFrom(...VALUES),
      status: fc.constantFrom<IndexDocument['status']>('active', 'active', 'active', 'expired', 'withdrawn'),
      published: fc.integer({ min: 0, max: 5 }),
      // Any price, so that a range's end buckets hold prices on both sides of its ends.
      price: fc.integer({ min: 0, max: 100_000 }),
      expires: fc.option(fc.integer({ min: 15, max: 25 })),
      lat: fc.double({ min: 48, max: 49, noNaN: true }),
    })
    .map((r) => ({
      id: `off_${String(i).padStart(4, '0')}`,
      title: `${r.common ? 'lamp ' : ''}${r.title}`,
      description: r.description,
      category: r.category,
      tags: r.tags,
      city: r.city,
      country: r.city.slice(1).toUpperCase().padEnd(2, 'X'),
      currency: 'EUR',
      publisher: `pub_${r.city}`,
      price: r.price,
      lat: r.lat,
      lon: 2,
      status: r.status,
      publishedAt: T0 + r.published * DAY,
      updatedAt: T0,
      expiresAt: r.expires === null ? null : T0 + r.expires * DAY,
    }));

const queryArb: fc.Arbitrary<EngineQuery> = fc
  .record({
    q: fc.option(fc.constantFrom('lamp ', 'lanp ', 'lamps ', 'lam', 'oak ', 'vintage desk ', 'zorglub ')),
    sort: fc.constantFrom(...SORTS),
    status: fc.constantFrom<EngineQuery['status']>('active', 'active', 'expired', 'withdrawn'),
    category: fc.option(fc.constantFrom(...VALUES), { freq: 3 }),
    priceMin: fc.option(fc.integer({ min: 0, max: 100_000 }), { freq: 3 }),
    priceMax: fc.option(fc.integer({ min: 0, max: 100_000 }), { freq: 2 }),
    publishedAfter: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 3 }),
    radiusKm: fc.option(fc.double({ min: 1, max: 80, noNaN: true }), { freq: 3 }),
    limit: fc.integer({ min: 1, max: 7 }),
    tolerance: fc.constantFrom<EngineQuery['typoTolerance']>('auto', 'all', 'off'),
    distinct: fc.option(fc.constant('publisher' as const), { freq: 2 }),
  })
  .map((r) => {
    const text = r.q === null ? null : parseTextQuery(r.q);
    const near = r.radiusKm !== null || r.sort === 'distance' ? { lat: 48.5, lon: 2 } : null;
    return {
      text,
      typoTolerance: r.tolerance,
      synonyms: [],
      categories: r.category === null ? [] : [r.category],
      tags: [],
      city: null,
      country: null,
      currency: null,
      priceMin: r.priceMin,
      priceMax: r.priceMax,
      publishedAfter: r.publishedAfter === null ? null : T0 + r.publishedAfter * DAY,
      publishedBefore: null,
      updatedSince: null,
      near,
      radiusKm: near === null ? null : r.radiusKm,
      status: r.status,
      attributes: [],
      sort: r.sort === 'relevance' && text === null ? '-publishedAt' : r.sort,
      distinct: r.distinct,
      limit: r.limit,
      after: null,
      now: NOW,
    };
  });

const docsArb = fc
  .integer({ min: 30, max: 160 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => docArb(i))));

describe.each(TUNINGS)('bitmap paths = reference search (%o)', (tuning) => {
  it('pages every query to the end with exact totals and facets over many values', () => {
    fc.assert(
      fc.property(docsArb, queryArb, fc.boolean(), (docs, query, compactFirst) => {
        const index = createSearchIndex(tuning);
        const live = new Map<string, IndexDocument>();
        // Half the offers before compact(), the rest after it: both halves must be found.
        const half = compactFirst ? docs.length >> 1 : docs.length;
        docs.slice(0, half).forEach((d) => {
          index.upsert(d);
          live.set(d.id, d);
        });
        index.compact?.();
        for (const d of docs.slice(half)) {
          index.upsert(d);
          live.set(d.id, d);
        }
        // An update after compact(): the offer moves to a new slot.
        const first = docs[0] as IndexDocument;
        const moved = { ...first, title: `${first.title} vintage`, city: 'vz' };
        index.upsert(moved);
        live.set(moved.id, moved);
        let after: EngineQuery['after'] = null;
        const seen: string[] = [];
        for (let page = 0; page < 200; page += 1) {
          const q = { ...query, after };
          const { matchedStems: _, ...got } = index.search(q, [...FACET_NAMES]);
          expect(got).toEqual(referenceSearch([...live.values()], q, [...FACET_NAMES]));
          seen.push(...got.ids);
          if (got.nextKeys === null) break;
          after = got.nextKeys;
        }
        expect(seen).toEqual(referenceSearch([...live.values()], { ...query, limit: 10_000 }, []).ids);
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
