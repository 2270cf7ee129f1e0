import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIndexDocument } from '../../src/offers/live-index.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import type { EngineQuery, IndexDocument, SearchSchema } from '../../src/search/engine.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { engineQuery } from '../support/engine-query.js';
import { referenceSearch } from '../support/search-reference.js';

/**
 * Declared attributes over HTTP (issue 23): declared through the service as the CLI does, the
 * index rebuilt in the background, then `attr.*` filters, facets with stats, sorts and cursors
 * answered as the brute-force reference answers them on the same documents; and the 400s.
 */
const offers = [...generateOffers({ count: 300, seed: 7 })];
const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
const SCHEMA: SearchSchema = {
  attributes: [
    { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
    { name: 'condition', type: 'string', facet: true, sort: false, searchable: false },
    { name: 'year', type: 'number', facet: true, sort: true, searchable: false },
    { name: 'rooms', type: 'number', facet: false, sort: true, searchable: false },
  ],
};

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`declared attributes on ${dialect}`, () => {
    let t: TestContext;
    let headers: Record<string, string>;
    let docs: IndexDocument[];
    beforeAll(async () => {
      t = await createTestContext(dialect);
      headers = { 'x-api-key': t.fixtures.keys.testing.key };
      await t.deps.offers.upsertMany('testing', offers);
      for (const attribute of SCHEMA.attributes)
        await t.deps.searchSettings.setAttribute(actor, 'testing', attribute);
      await t.deps.searchIndexes.checkSchema('testing');
      const rows = await createOfferStore(t.deps.db).scan('testing', 0, 10_000);
      docs = rows.map((row) => toIndexDocument(row, true));
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    const get = (query: string) =>
      t.apps.testing.inject({ method: 'GET', url: `/v1/offers/?${query}`, headers });
    const reference = (more: Partial<EngineQuery>, facets: Parameters<typeof referenceSearch>[2] = []) =>
      referenceSearch(docs, engineQuery(t.clock.now(), { limit: 10_000, ...more }), facets, SCHEMA);

    it('lists the declarations at GET /v1/attributes, for any key', async () => {
      for (const key of [t.fixtures.keys.testing.key]) {
        const response = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/attributes',
          headers: { 'x-api-key': key },
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          data: [...SCHEMA.attributes].sort((a, b) => (a.name < b.name ? -1 : 1)),
          rankBy: null,
        });
      }
      const production = await t.apps.production.inject({
        method: 'GET',
        url: '/v1/attributes',
        headers: { 'x-api-key': t.fixtures.keys.production.key },
      });
      expect(production.json()).toEqual({ data: [], rankBy: null });
    });

    it('filters, facets with stats and sorts like the reference, through every cursor', async () => {
      const expected = reference(
        {
          attributes: [{ name: 'year', values: [], min: 2010, max: 2024 }],
          sort: '-attr.year',
        },
        ['attr.year', 'attr.condition', 'price'],
      );
      expect(expected.total).toBeGreaterThan(5);
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50; page += 1) {
        const url: string = `attr.year.min=2010&attr.year.max=2024&sort=-attr.year&facets=attr.year,attr.condition,price&limit=4${cursor ? `&cursor=${cursor}` : ''}`;
        const response = await get(url);
        expect(response.statusCode).toBe(200);
        const body = response.json() as {
          data: { id: string }[];
          total: { value: number };
          facets: unknown;
          facetStats: unknown;
          nextCursor: string | null;
        };
        expect(body.total.value).toBe(expected.total);
        expect(body.facets).toEqual(expected.facets);
        expect(body.facetStats).toEqual(expected.facetStats);
        ids.push(...body.data.map((o) => o.id));
        cursor = body.nextCursor;
        if (!cursor) break;
      }
      expect(ids).toEqual(expected.ids);
    });

    it('matches strings folded like text, any of the values, and sorts offers without the attribute last', async () => {
      const brands = docs.map((d) => d.attributes?.brand).filter((b): b is string => typeof b === 'string');
      const [first, second] = [...new Set(brands)];
      const query = `attr.brand=${encodeURIComponent(String(first).toUpperCase())}&attr.brand=${encodeURIComponent(String(second))}&sort=attr.rooms&limit=100`;
      const response = await get(query);
      expect(response.statusCode, response.body).toBe(200);
      const want = reference({
        attributes: [
          {
            name: 'brand',
            values: [String(first), String(second)].map((b) =>
              b
                .toLowerCase()
                .replace(/[^a-z0-9]+/g, ' ')
                .trim(),
            ),
            min: null,
            max: null,
          },
        ],
        sort: 'attr.rooms',
        limit: 100,
      });
      expect(want.total).toBeGreaterThan(0);
      expect((response.json() as { data: { id: string }[] }).data.map((o) => o.id)).toEqual(want.ids);
    });

    it('names the parameter of an undeclared attribute, a wrong type or a non-finite number (multi-search too)', async () => {
      const cases: Array<[string, string]> = [
        ['attr.colour=red', 'attr.colour'],
        ['attr.year=new', 'attr.year'],
        ['attr.year.min=Infinity', 'attr.year.min'],
        ['attr.brand.max=3', 'attr.brand.max'],
        ['sort=attr.brand', 'sort'],
        ['sort=-attr.colour', 'sort'],
        ['facets=attr.rooms', 'facets'],
        ['attr.year.min=0x7e0', 'attr.year.min'],
        ['attr.year.max=2e3', 'attr.year.max'],
        ['attr.year.min=%202015', 'attr.year.min'],
        ['attr.year.min=2020&attr.year.max=2010', 'attr.year.min'],
      ];
      for (const [query, parameter] of cases) {
        const response = await get(query);
        expect(response.statusCode, query).toBe(400);
        const body = response.json() as { code: string; errors: { parameter: string }[] };
        expect(body.code).toBe('invalid_parameter');
        expect(body.errors.map((e) => e.parameter)).toEqual([parameter]);
      }
      const many = await get(Array.from({ length: 21 }, (_, i) => `attr.brand=b${i}`).join('&'));
      expect(many.statusCode).toBe(400);
      expect((many.json() as { errors: unknown[] }).errors).toEqual([
        { parameter: 'attr.brand', message: 'must NOT have more than 20 items' },
      ]);
      const multi = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/multi-search',
        headers,
        payload: {
          queries: [{ 'attr.year.min': 2015 }, { 'attr.year.max': 'soon' }, { 'attr.brand': ['x', 3] }],
        },
      });
      expect(multi.statusCode).toBe(400);
      expect((multi.json() as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual([
        'queries[1].attr.year.max',
      ]);
      const ok = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/multi-search',
        headers,
        payload: { queries: [{ 'attr.year.min': 2015, facets: 'attr.year' }] },
      });
      expect(ok.statusCode).toBe(200);
      const alone = await get('attr.year.min=2015&facets=attr.year');
      expect((ok.json() as { results: unknown[] }).results[0]).toEqual(alone.json());
    });

    it('refuses to issue a publishable key whose attr.* fixed filter could never be searched with', async () => {
      const issue = (attributes: Record<string, string[]>) =>
        t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'testing',
          kind: 'publishable',
          allowedOrigins: ['https://shop.example'],
          fixedFilters: { attributes },
        });
      await expect(issue({ nope: ['1'] })).rejects.toThrow(/attr\.nope: no attribute nope is declared/);
      await expect(issue({ rooms: ['many'] })).rejects.toThrow(/attr\.rooms=many: not a number value/);
      // Declared in testing, not in production: refused there.
      await expect(
        t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'production',
          kind: 'publishable',
          allowedOrigins: ['https://shop.example'],
          fixedFilters: { attributes: { rooms: ['3'] } },
        }),
      ).rejects.toThrow(/no attribute rooms is declared/);
      await expect(issue({ rooms: ['3'] })).resolves.toMatchObject({ record: { kind: 'publishable' } });
    });

    it('keeps a publishable key within its fixed attr.* filters (search and offer by id)', async () => {
      const brands = [...new Set(docs.map((d) => d.attributes?.brand).filter((b) => typeof b === 'string'))];
      const [mine, other] = brands as string[];
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://shop.example'],
        fixedFilters: { attributes: { brand: [String(mine).toUpperCase()] } },
      });
      const keyed = { 'x-api-key': issued.key, origin: 'https://shop.example' };
      const within = await t.apps.testing.inject({
        method: 'GET',
        url: '/v1/offers/?limit=100',
        headers: keyed,
      });
      expect(within.statusCode, within.body).toBe(200);
      const ids = (within.json() as { data: { id: string }[] }).data.map((o) => o.id);
      const want = docs.filter((d) => d.attributes?.brand === mine && d.status === 'active').map((d) => d.id);
      expect(ids.sort()).toEqual(want.filter((id) => reference({ limit: 1000 }).ids.includes(id)).sort());
      const outside = await t.apps.testing.inject({
        method: 'GET',
        url: `/v1/offers/?attr.brand=${encodeURIComponent(String(other))}`,
        headers: keyed,
      });
      expect(outside.statusCode).toBe(400);
      expect((outside.json() as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual([
        'attr.brand',
      ]);
      const otherOffer = docs.find((d) => d.attributes?.brand === other) as IndexDocument;
      const byId = await t.apps.testing.inject({
        method: 'GET',
        url: `/v1/offers/${otherOffer.id}`,
        headers: keyed,
      });
      expect(byId.statusCode).toBe(404);
    });

    it('audits every change and re-indexes when an attribute is removed', async () => {
      const entries = await t.deps.audit.list({ action: 'search.attribute_set' });
      expect(entries.map((e) => e.targetId).sort()).toEqual(
        SCHEMA.attributes.map((a) => `testing:${a.name}`).sort(),
      );
      await t.deps.searchSettings.removeAttribute(actor, 'testing', 'condition');
      await t.deps.searchIndexes.checkSchema('testing');
      expect((await get('attr.condition=new')).statusCode).toBe(400);
      expect(
        (await t.deps.audit.list({ action: 'search.attribute_removed' })).map((e) => e.targetId),
      ).toEqual(['testing:condition']);
      await t.deps.searchSettings.setAttribute(
        actor,
        'testing',
        SCHEMA.attributes[1] as (typeof SCHEMA.attributes)[number],
      );
      await t.deps.searchIndexes.checkSchema('testing');
      expect((await get('attr.condition=new')).statusCode).toBe(200);
    });

    it('orders relevance ties by the --rank-by attribute, pages exactly, and refuses a cursor of another tie-break', async () => {
      await t.deps.searchSettings.setRankBy(actor, 'testing', { name: 'year', descending: true });
      await t.deps.searchIndexes.checkSchema('testing');
      const attributes = await t.apps.testing.inject({ method: 'GET', url: '/v1/attributes', headers });
      expect(attributes.json().rankBy).toBe('attr.year:desc');
      const ranked: SearchSchema = { ...SCHEMA, rankBy: { name: 'year', descending: true } };
      for (const q of ['car', 'good condition', 'condition', 'accessories', 'sale']) {
        const expected = referenceSearch(
          docs,
          engineQuery(t.clock.now(), {
            limit: 10_000,
            sort: 'relevance',
            text: q ? parseTextQuery(q) : null,
          }),
          [],
          ranked,
        );
        expect(expected.total, q).toBeGreaterThan(10);
        const ids: string[] = [];
        let cursor: string | null = null;
        for (let page = 0; page < 100; page += 1) {
          const res = await get(
            `${q ? `q=${q}&` : ''}sort=relevance&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
          );
          expect(res.statusCode, res.body).toBe(200);
          ids.push(...res.json().data.map((o: { id: string }) => o.id));
          cursor = res.json().nextCursor;
          if (!cursor) break;
        }
        expect(ids, q).toEqual(expected.ids);
      }
      const first = (await get('q=car&sort=relevance&limit=3')).json().nextCursor as string;
      // Another tie-break: the cursor's keys are of another order.
      await t.deps.searchSettings.setRankBy(actor, 'testing', { name: 'rooms', descending: false });
      await t.deps.searchIndexes.checkSchema('testing');
      const stale = await get(`q=car&sort=relevance&limit=3&cursor=${first}`);
      expect(stale.statusCode).toBe(400);
      expect(stale.json().code).toBe('invalid_parameter');
      expect(stale.body).toContain('ranking tie-break changed');
      await t.deps.searchSettings.setRankBy(actor, 'testing', null);
      await t.deps.searchIndexes.checkSchema('testing');
      expect((await get(`q=car&sort=relevance&limit=3&cursor=${first}`)).body).toContain(
        'ranking tie-break changed',
      );
      // A sort of its own keeps its cursors whatever the tie-break.
      const byYear = (await get('sort=attr.year&limit=3')).json().nextCursor as string;
      await t.deps.searchSettings.setRankBy(actor, 'testing', { name: 'year', descending: false });
      await t.deps.searchIndexes.checkSchema('testing');
      expect((await get(`sort=attr.year&limit=3&cursor=${byYear}`)).statusCode).toBe(200);
      await t.deps.searchSettings.setRankBy(actor, 'testing', null);
      await t.deps.searchIndexes.checkSchema('testing');
    });
  });
}
