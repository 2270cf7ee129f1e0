import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/** `POST /v1/multi-search` (SPEC §6): each search answers what it answers alone, in order. */
const offers = [...generateOffers({ count: 200, seed: 3 })];

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`multi-search on ${dialect}`, () => {
    let t: TestContext;
    let headers: Record<string, string>;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      headers = { 'x-api-key': t.fixtures.keys.testing.key };
      await t.deps.offers.upsertMany('testing', offers);
    });
    afterAll(async () => {
      await t.close();
    });

    const multi = (payload: unknown, extra: Record<string, string> = headers) =>
      t.apps.testing.inject({
        method: 'POST',
        url: '/v1/multi-search',
        headers: extra,
        payload: payload as object,
      });

    it('answers each search as GET /v1/offers/ would, in order', async () => {
      const searches = [
        { query: { q: 'table', limit: 3 }, url: '/v1/offers/?q=table&limit=3' },
        {
          query: { category: 'furniture', facets: 'city,tag', sort: 'price' },
          url: '/v1/offers/?category=furniture&facets=city,tag&sort=price',
        },
        {
          query: { category: ['vehicles', 'electronics'], priceMax: '500', limit: 5 },
          url: '/v1/offers/?category=vehicles&category=electronics&priceMax=500&limit=5',
        },
        {
          query: { near: '48.8566,2.3522', radius: 400, sort: 'distance' },
          url: '/v1/offers/?near=48.8566,2.3522&radius=400&sort=distance',
        },
        {
          query: { bbox: '40,-5,52,10', sort: 'price', facets: 'city' },
          url: '/v1/offers/?bbox=40,-5,52,10&sort=price&facets=city',
        },
        {
          query: { q: 'table', distinct: 'publisher', facets: 'city', limit: 3 },
          url: '/v1/offers/?q=table&distinct=publisher&facets=city&limit=3',
        },
        { query: { q: 'tabel', typoTolerance: 'off' }, url: '/v1/offers/?q=tabel&typoTolerance=off' },
        { query: { q: 'tabel', typoTolerance: 'all' }, url: '/v1/offers/?q=tabel&typoTolerance=all' },
      ];
      const response = await multi({ queries: searches.map((s) => s.query) });
      expect(response.statusCode).toBe(200);
      const { results } = response.json() as { results: unknown[] };
      expect(results).toHaveLength(searches.length);
      for (const [i, search] of searches.entries()) {
        const alone = await t.apps.testing.inject({ method: 'GET', url: search.url, headers });
        expect(alone.statusCode).toBe(200);
        expect(results[i]).toEqual(alone.json());
      }
    });

    it('names the parameter of the bad search as queries[i].param', async () => {
      const bad = await multi({
        queries: [
          { q: 'lamp' },
          { limit: 0 },
          { sort: 'distance' },
          { colour: 'red' },
          { bbox: '1,2,3' },
          { typoTolerance: 'min' },
          { distinct: true },
        ],
      });
      expect(bad.statusCode).toBe(400);
      const body = bad.json() as { code: string; errors: { parameter: string }[] };
      expect(body.code).toBe('invalid_parameter');
      expect(body.errors.map((e) => e.parameter).sort()).toEqual([
        'queries[1].limit',
        'queries[3].colour',
        'queries[4].bbox',
        'queries[5].typoTolerance',
        'queries[6].distinct',
      ]);
      // Valid shapes, refused by the rules: still named by index.
      const rules = await multi({ queries: [{ q: 'lamp' }, { sort: 'distance' }, { bbox: '50,0,40,10' }] });
      expect(rules.statusCode).toBe(400);
      expect((rules.json() as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual([
        'queries[1].sort',
        'queries[2].bbox',
      ]);
    });

    it('takes 1 to 10 searches and needs the API key', async () => {
      const eleven = await multi({ queries: Array.from({ length: 11 }, () => ({ q: 'lamp' })) });
      expect(eleven.statusCode).toBe(400);
      expect((eleven.json() as { errors: { parameter: string }[] }).errors[0]?.parameter).toBe('queries');
      expect((await multi({ queries: [] })).statusCode).toBe(400);
      expect((await multi({ queries: Array.from({ length: 10 }, () => ({ q: 'lamp' })) })).statusCode).toBe(
        200,
      );
      expect((await multi({ queries: [{ q: 'lamp' }] }, {})).statusCode).toBe(401);
    });

    it('is declared in the OpenAPI document', async () => {
      const doc = (await t.apps.testing.inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      expect(doc.paths['/multi-search']?.post).toBeDefined();
    });
  });
}
