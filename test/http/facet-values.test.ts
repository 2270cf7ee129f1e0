import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Facet-value search over HTTP (issue 23): the values of one facet within a search's results,
 * filtered by a folded prefix, its errors naming `facet`, `prefix` and `limit`, and a publishable
 * key's fixed filters applied as to any search. The counts themselves are compared with the
 * reference in test/contract/search-facet-values.property.contract.test.ts.
 */
const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
const CITIES = ['Zürich', 'Zug', 'Paris', 'Parma', 'New York'];

interface Answer {
  facet: string;
  values: { value: string; count: number }[];
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`facet-value search on ${dialect}`, () => {
    let t: TestContext;
    let headers: Record<string, string>;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      const offers = [...generateOffers({ count: 60, seed: 23 })].map((o, i) => ({
        ...o,
        category: ['books', 'music', 'garden'][i % 3] as string,
        // Zürich 20, Zug 15, Paris 12, Parma 8, New York 5 (i < 20, < 35, < 47, < 55, the rest).
        location: {
          ...o.location,
          city: CITIES[i < 20 ? 0 : i < 35 ? 1 : i < 47 ? 2 : i < 55 ? 3 : 4] as string,
        },
        attributes: { brand: i % 4 === 0 ? 'Émile-Co' : 'Acme', rooms: i % 5 },
        status: 'active' as const,
        expiresAt: null,
      }));
      await t.deps.offers.upsertMany('testing', offers);
      await t.deps.searchSettings.setAttribute(actor, 'testing', {
        name: 'brand',
        type: 'string',
        facet: true,
        sort: false,
        searchable: false,
      });
      await t.deps.searchSettings.setAttribute(actor, 'testing', {
        name: 'rooms',
        type: 'number',
        facet: false,
        sort: true,
        searchable: false,
      });
      await t.deps.searchIndexes.checkSchema('testing');
      headers = { 'x-api-key': t.fixtures.keys.testing.key };
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    const get = (query: string, with_ = headers) =>
      t.apps.testing.inject({ method: 'GET', url: `/v1/offers/facet-values?${query}`, headers: with_ });
    const parameters = (body: string) =>
      (JSON.parse(body) as { errors: { parameter: string }[] }).errors.map((e) => e.parameter);

    it('answers the values starting with the folded prefix, most frequent first, exact counts', async () => {
      const all = await get('facet=city');
      expect(all.statusCode, all.body).toBe(200);
      expect((all.json() as Answer).values.map((v) => [v.value, v.count])).toEqual([
        ['Zürich', 20],
        ['Zug', 15],
        ['Paris', 12],
        ['Parma', 8],
        ['New York', 5],
      ]);
      const zu = (await get('facet=city&prefix=ZU')).json() as Answer;
      expect(zu).toEqual({
        facet: 'city',
        values: [
          { value: 'Zürich', count: 20 },
          { value: 'Zug', count: 15 },
        ],
      });
      const limited = (await get('facet=city&prefix=par&limit=1')).json() as Answer;
      expect(limited.values).toEqual([{ value: 'Paris', count: 12 }]);
      // Within the search: only the books (every third offer).
      const books = (await get('facet=city&prefix=zu&category=books')).json() as Answer;
      expect(books.values).toEqual([
        { value: 'Zürich', count: 7 },
        { value: 'Zug', count: 5 },
      ]);
      const brand = (await get('facet=attr.brand&prefix=emile')).json() as Answer;
      // Matched folded, answered as the offers write it.
      expect(brand).toEqual({ facet: 'attr.brand', values: [{ value: 'Émile-Co', count: 15 }] });
      expect(((await get('facet=city&prefix=x')).json() as Answer).values).toEqual([]);
      // A hyphen in the prefix is a space, as in the value (not the hyphen's parts joined).
      expect(((await get('facet=city&prefix=new-y')).json() as Answer).values).toEqual([
        { value: 'New York', count: 5 },
      ]);
      // `Émile-Co` is compared as `emile co`: a filter spelled with a space or the hyphen finds it.
      for (const spelled of ['Emile%20Co', 'emile-co'])
        expect(((await get(`facet=attr.brand&attr.brand=${spelled}`)).json() as Answer).values).toEqual([
          { value: 'Émile-Co', count: 15 },
        ]);
    });

    it('names facet, prefix and limit when they are wrong', async () => {
      for (const [query, parameter] of [
        ['prefix=a', 'facet'],
        ['facet=price', 'facet'],
        ['facet=attr.nope', 'facet'],
        // Declared, but not as a --facet attribute.
        ['facet=attr.rooms', 'facet'],
        [`facet=city&prefix=${'a'.repeat(101)}`, 'prefix'],
        ['facet=city&limit=0', 'limit'],
        ['facet=city&limit=101', 'limit'],
        ['facet=city&cursor=abc', 'cursor'],
      ] as const) {
        const res = await get(query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_parameter' });
        expect(parameters(res.body), query).toEqual([parameter]);
      }
    });

    it('keeps a publishable key within its fixed filters', async () => {
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://books.example'],
        fixedFilters: { category: ['books'] },
      });
      const keyed = { 'x-api-key': issued.key, origin: 'https://books.example' };
      const within = await get('facet=category', keyed);
      expect(within.statusCode, within.body).toBe(200);
      expect((within.json() as Answer).values).toEqual([{ value: 'books', count: 20 }]);
      const cities = (await get('facet=city&prefix=zu', keyed)).json() as Answer;
      expect(cities.values).toEqual([
        { value: 'Zürich', count: 7 },
        { value: 'Zug', count: 5 },
      ]);
      const outside = await get('facet=city&category=garden', keyed);
      expect(outside.statusCode).toBe(400);
      expect(parameters(outside.body)).toEqual(['category']);
    });
  });
}
