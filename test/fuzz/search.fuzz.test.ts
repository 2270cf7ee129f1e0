import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { encodeAny, expectApiAnswer, fuzz, hostileString, report, runs } from './fuzz-support.js';

/**
 * Issue 13: generated requests over every search parameter (and unknown ones, repeats, cursors
 * genuine, tampered and made up), on every backend. Zero 5xx; every error is problem+json.
 * 5,000 per backend by default: 10,000 in all.
 */
const SEARCH_RUNS = runs(5_000);

const sometimes = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: valid.map(String) }, { weight: 1, arbitrary: hostileString });
const coordinate = (max: number) => fc.double({ min: -max, max, noNaN: true }).map((n) => n.toFixed(4));
const isoDate = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function parameters(cursors: () => string[]): Record<string, fc.Arbitrary<string>> {
  const cursor = fc.oneof(
    fc.constant(null).map(() => cursors()[0] ?? 'x'),
    fc.nat().map((i) => {
      const pool = cursors();
      return pool.length === 0 ? 'x' : (pool[i % pool.length] as string);
    }),
    // A genuine cursor with one character changed, cut short, or lengthened.
    fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('A', '_', '-', '0')).map(([i, at, c]) => {
      const pool = cursors();
      const base = pool.length === 0 ? 'abc' : (pool[i % pool.length] as string);
      const position = at % base.length;
      return `${base.slice(0, position)}${c}${base.slice(position + 1)}`;
    }),
    fc.string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'),
      maxLength: 600,
    }),
    fc.json().map((j) => Buffer.from(j).toString('base64url')),
    hostileString,
  );
  return {
    q: sometimes(
      fc.constantFrom(
        'lamp',
        'bike',
        'sofa chair',
        '"oak desk"',
        'table -broken',
        'lam',
        'b ',
        'the',
        '!!',
        '-"red car"',
      ),
    ),
    category: sometimes(fc.constantFrom('furniture', 'books', 'electronics', 'sports', 'x')),
    tag: sometimes(fc.constantFrom('like-new', 'vintage', 'audio', 'a')),
    city: sometimes(fc.constantFrom('Paris', 'Lyon', 'Berlin', 'x')),
    country: sometimes(fc.constantFrom('FR', 'de', 'US', 'zz')),
    near: sometimes(fc.tuple(coordinate(90), coordinate(180)).map(([a, b]) => `${a},${b}`)),
    radius: sometimes(fc.double({ min: 0, max: 25_000, noNaN: true })),
    currency: sometimes(fc.constantFrom('EUR', 'usd', 'GBP')),
    priceMin: sometimes(fc.nat({ max: 100_000 }).map((n) => (n / 100).toFixed(2))),
    priceMax: sometimes(fc.nat({ max: 100_000 }).map((n) => (n / 100).toFixed(2))),
    publishedAfter: sometimes(isoDate),
    publishedBefore: sometimes(isoDate),
    updatedSince: sometimes(isoDate),
    status: sometimes(fc.constantFrom('active', 'expired', 'withdrawn')),
    sort: sometimes(
      fc.constantFrom('relevance', '-publishedAt', 'publishedAt', 'price', '-price', 'distance'),
    ),
    limit: sometimes(fc.integer({ min: 0, max: 101 })),
    facets: sometimes(
      fc.subarray(['category', 'tag', 'city', 'country'], { minLength: 1 }).map((f) => f.join(',')),
    ),
    highlight: sometimes(fc.constantFrom('true', 'false', '1', '0')),
    cursor,
    apiKey: hostileString,
    [fc.sample(fc.constant('unknownParameter'), 1)[0] as string]: hostileString,
  };
}

interface Generated {
  pairs: [string, string][];
  keyMode: 'header' | 'query' | 'none' | 'two';
  rawPercent: boolean;
}

function requests(cursors: () => string[]): fc.Arbitrary<Generated> {
  const params = parameters(cursors);
  const names = Object.keys(params).filter((n) => n !== 'apiKey');
  const pair = fc
    .constantFrom(...names)
    .chain((name) => (params[name] as fc.Arbitrary<string>).map((v): [string, string] => [name, v]));
  return fc.record({
    pairs: fc.array(pair, { maxLength: 8 }),
    keyMode: fc.constantFrom<Generated['keyMode']>(
      'header',
      'header',
      'header',
      'header',
      'query',
      'none',
      'two',
    ),
    rawPercent: fc.boolean(),
  });
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`search fuzz on ${dialect}`, () => {
    let t: TestContext;
    const cursors: string[] = [];
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 300, seed: 5 })]);
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      for (const query of [
        'limit=2',
        'limit=3&sort=price',
        'q=lamp&limit=1',
        'near=48.85,2.35&sort=distance&limit=2',
        'sort=publishedAt&limit=5',
        'q=table&sort=relevance&limit=1',
      ]) {
        const next = (await t.apps.testing.inject({ url: `/v1/offers/?${query}`, headers })).json()
          .nextCursor;
        if (typeof next === 'string') cursors.push(next);
      }
      expect(cursors.length).toBeGreaterThan(3);
    });
    afterAll(async () => {
      await t.close();
    });

    it(`answers ${SEARCH_RUNS} generated searches without a 5xx, every error problem+json`, {
      timeout: 600_000,
    }, async () => {
      const statuses = new Map<number, number>();
      const key = t.fixtures.keys.testing.key;
      await fuzz(
        'search',
        requests(() => cursors),
        SEARCH_RUNS,
        async (g) => {
          const encode = (s: string) => (g.rawPercent ? encodeAny(s).replaceAll('%25', '%') : encodeAny(s));
          const pairs = [...g.pairs];
          if (g.keyMode === 'query' || g.keyMode === 'two') pairs.push(['apiKey', key]);
          const query = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encode(v)}`).join('&');
          const headers: Record<string, string | string[]> = {};
          if (g.keyMode === 'header') headers['x-api-key'] = key;
          if (g.keyMode === 'two') headers['x-api-key'] = t.fixtures.keys.production.key;
          const url = `/v1/offers/?${query}`;
          const res = await t.apps.testing.inject({ url, headers });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expectApiAnswer(res, url);
          if (res.statusCode === 200) {
            const body = res.json();
            expect(Array.isArray(body.data)).toBe(true);
            if (typeof body.nextCursor === 'string' && cursors.length < 200) cursors.push(body.nextCursor);
          }
        },
      );
      report(
        `search on ${dialect}`,
        Object.fromEntries([['requests', SEARCH_RUNS], ...[...statuses].map(([s, n]) => [`status${s}`, n])]),
      );
      // The generator must reach the store, not only the validator.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(SEARCH_RUNS / 10);
    });
  });
}
