import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import type { SearchQuery } from '../../src/offers/schemas.js';
import { createSearchCache } from '../../src/offers/search-cache.js';
import {
  answerBytes,
  createOfferService,
  type OfferService,
  type SearchAnswer,
} from '../../src/offers/service.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The search cache (ADR 0025) never changes an answer: a service with the cache and one without,
 * over the same database and index, answer every query identically while offers are written and
 * the clock moves forwards past expiries and back again. Queries repeat on purpose, so most of the
 * cached service's answers are hits.
 */
const HOUR = 3_600_000;
const CITIES = ['Paris', 'Lyon', 'Rome'];
const WORDS = ['oak table', 'road bike', 'lamp', 'oak chair', 'bike trailer'];

const QUERIES: SearchQuery[] = [
  {},
  { q: 'oak', facets: 'category,city,tag' },
  { q: 'bike', limit: 3 },
  { category: ['furniture'], sort: 'price', facets: 'city' },
  { status: 'expired', facets: 'category' },
  { near: '48.8566,2.3522', radius: 50, sort: 'distance' },
  { q: 'lamp', highlight: true },
];

function offer(
  i: number,
  start: number,
  v: { word: number; expiresIn: number | null; status: number },
): OfferInput {
  return {
    externalId: `cache-${i}`,
    title: WORDS[v.word % WORDS.length] as string,
    description: `item ${i}`,
    category: i % 2 === 0 ? 'furniture' : 'vehicles',
    tags: i % 3 === 0 ? ['new'] : [],
    location: {
      city: CITIES[i % 3] as string,
      region: null,
      country: 'FR',
      lat: 48.85 + i / 1000,
      lon: 2.35,
    },
    price: { amount: `${10 + i}.00`, currency: 'EUR' },
    publisher: { id: 'pub_cache', name: 'Cache shop' },
    url: null,
    attributes: {},
    status: (['active', 'active', 'withdrawn', 'expired'] as const)[v.status % 4] as OfferInput['status'],
    publishedAt: start - i * HOUR,
    expiresAt: v.expiresIn === null ? null : start + v.expiresIn * HOUR,
  };
}

const variant = fc.record({
  word: fc.nat(10),
  expiresIn: fc.option(fc.integer({ min: -5, max: 40 }), { nil: null }),
  status: fc.nat(3),
});

type Step =
  | { kind: 'query'; q: number; page2: boolean }
  | { kind: 'tick'; hours: number }
  | { kind: 'write'; i: number; v: { word: number; expiresIn: number | null; status: number } };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      q: fc.nat(QUERIES.length - 1),
      page2: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tick' as const), hours: fc.integer({ min: -6, max: 12 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('write' as const), i: fc.nat(29), v: variant }) },
);

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`search cache on ${dialect}`, () => {
    let t: TestContext;
    let cached: OfferService;
    let fresh: OfferService;
    let cache: ReturnType<typeof createSearchCache<SearchAnswer>>;
    const start = Date.UTC(2026, 10, 1, 12);
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: [] });
      const store = createOfferStore(t.deps.db);
      const cursorKey = Buffer.alloc(32, 7);
      cache = createSearchCache<SearchAnswer>(8 * 1024 * 1024, answerBytes);
      const common = {
        store,
        clock: t.clock,
        cursorKey,
        indexes: t.deps.searchIndexes,
        onWritten: (environment: 'production' | 'testing') => t.deps.searchIndexes.catchUp(environment),
      };
      cached = createOfferService({ ...common, cache });
      fresh = createOfferService(common);
      await cached.upsertMany(
        'testing',
        Array.from({ length: 30 }, (_, i) =>
          offer(i, start, { word: i, expiresIn: (i % 7) * 5 - 3, status: i }),
        ),
      );
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    it('answers exactly as without it, across writes, expiries and clock moves', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 40 }), async (steps) => {
          t.clock.set(start);
          for (const step of steps) {
            if (step.kind === 'tick') t.clock.set(t.clock.now() + step.hours * HOUR);
            else if (step.kind === 'write')
              await cached.upsertMany('testing', [offer(step.i, start, step.v)]);
            else {
              const query = QUERIES[step.q] as SearchQuery;
              const a = await cached.search('testing', query);
              const b = await fresh.search('testing', query);
              expect(a).toEqual(b);
              if (step.page2 && a.ok && a.nextCursor) {
                const next = { ...query, cursor: a.nextCursor };
                expect(await cached.search('testing', next)).toEqual(await fresh.search('testing', next));
              }
            }
          }
        }),
        { numRuns: 40, seed: dialect === 'sqlite' ? 21 : 22 },
      );
      // The property is only worth something if the cache answered: most queries repeat.
      expect(cache.stats().hits).toBeGreaterThan(30);
    }, 240_000);
  });
}
