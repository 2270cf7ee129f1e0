import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIndexDocument } from '../../src/offers/live-index.js';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { priceToUnits } from '../../src/offers/price.js';
import { SORTS, STATUSES } from '../../src/offers/schemas.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import { foldString } from '../../src/search/attributes/values.js';
import type { AttributeFilter, EngineQuery, FacetRequest, IndexDocument } from '../../src/search/engine.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import {
  ATTRIBUTE_SCHEMA,
  BRANDS,
  CATEGORIES,
  CITIES,
  DAY,
  qArb,
  RANKED_SCHEMAS,
  SEARCHABLE_SCHEMA,
  SYNONYMS,
  sometimes,
  T0,
  TAGS,
  textArb,
  typedWord,
  WINDOWS,
} from '../support/search-arbitraries.js';
import { referenceFacetValues, referenceSearch } from '../support/search-reference.js';

/**
 * Issue 12, done-when: the real service over HTTP (API key, schema, service, engine, rows read
 * back by id) against the brute-force reference search (test/support/search-reference.ts), on
 * both backends. Random offers over the engine tests' small vocabulary
 * (test/support/search-arbitraries.ts: words collide, share stems, sit one or two edits apart)
 * and catalogue words (numbers, units, compound words, apostrophes), written through the
 * service, with the environment's synonyms; random queries over every parameter (text with
 * typos, prefixes, phrases and exclusions, the typo policy, every filter, geo, every sort,
 * facets), paged through `nextCursor` to the end: the same ids in the same order, the same total
 * and facet counts.
 */
const offerArb = (i: number): fc.Arbitrary<OfferInput> =>
  fc
    .record({
      title: textArb(1, 5),
      description: textArb(0, 10),
      category: fc.constantFrom(...CATEGORIES),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
      place: fc.constantFrom(...CITIES),
      jitter: fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 })),
      price: fc.integer({ min: 0, max: 40 }),
      currency: fc.constantFrom('EUR', 'PLN'),
      status: fc.constantFrom('active', 'active', 'active', 'withdrawn', 'expired'),
      day: fc.integer({ min: 0, max: 30 }),
      expires: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
      attributes: fc.record(
        {
          rooms: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('3', 'three')),
          rating: fc.integer({ min: 0, max: 10 }).map((n) => n / 2),
          brand: fc.constantFrom(...BRANDS),
          used: fc.constantFrom<string | number>('true', 'FALSE', 1, 0, 'yes'),
          // Searchable in the last test (ADR 0042), as `colour` is declared and not.
          material: textArb(0, 3),
          colour: fc.constantFrom('red', 'blue'),
        },
        { requiredKeys: [] },
      ),
    })
    .map((r) => ({
      externalId: `prop-${i}`,
      title: r.title,
      description: r.description,
      category: r.category,
      tags: r.tags,
      location: {
        city: r.place.city,
        region: null,
        country: r.place.country,
        lat: Number((r.place.lat + r.jitter[0] / 1000).toFixed(4)),
        lon: Number((r.place.lon + r.jitter[1] / 1000).toFixed(4)),
      },
      // Fractions on the wire, and more octaves of price than documentArb's (price ranges).
      price: { amount: `${r.price * 25}.50`, currency: r.currency },
      // Six publishers, by position (no draw: the offers are those of the seed before distinct).
      publisher: { id: `pub_prop${i % 6}`, name: 'Property shop' },
      url: null,
      attributes: r.attributes,
      status: r.status as OfferInput['status'],
      // Ties on purpose (whole days): the order must fall back to the id.
      publishedAt: T0 + r.day * DAY,
      expiresAt: r.expires === null ? null : T0 + r.expires * DAY,
    }));

type Params = Record<string, string | number | boolean | string[] | number[]>;

/** Facets whose values are searched, and prefixes: typed in another case, accented or not, none. */
const FACET_VALUE_FACETS = [
  'category',
  'tag',
  'city',
  'country',
  'attr.rooms',
  'attr.rating',
  'attr.brand',
  'attr.used',
] as const;
const prefixArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    'p',
    'PA',
    'ly',
    'gda',
    'Gdań',
    'r',
    'f',
    'a',
    'ÄC',
    'cafe',
    'café-',
    'z',
    't',
    '1',
    '2.',
    'x',
    ' ',
  ),
  fc
    .constantFrom(...CATEGORIES, ...TAGS)
    .chain((v) => fc.integer({ min: 1, max: v.length }).map((n) => v.slice(0, n))),
);

/**
 * The forms the engine tests' `qArb` does not make: a phrase alone (one quoted word is a plain
 * term), a query ending in an exclusion, three loose words, a last word cut to one letter (too
 * short for a prefix, so an exact term).
 */
const formArb = fc
  .tuple(
    fc.array(typedWord, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('plain', 'prefix', 'phrase', 'exclude', 'space'),
    fc.integer({ min: 1, max: 6 }),
  )
  .map(([ws, form, cut]) => {
    const last = ws.at(-1) ?? '';
    const head = ws.slice(0, -1).join(' ');
    switch (form) {
      case 'prefix':
        return `${head} ${last.slice(0, Math.max(1, last.length - cut))}`.trim();
      case 'phrase':
        return `"${ws.join(' ')}"`;
      case 'exclude':
        return `${ws[0]} -${last}`;
      case 'space':
        return `${ws.join(' ')} `;
      default:
        return ws.join(' ');
    }
  });

/** Each parameter absent three times in four. */
const some = <T>(arb: fc.Arbitrary<T>) => sometimes(arb, 3);

const queryArb: fc.Arbitrary<Params> = fc
  .record({
    q: some(fc.oneof(qArb, formArb)),
    typoTolerance: some(fc.constantFrom('auto', 'all', 'off')),
    category: some(fc.uniqueArray(fc.constantFrom(...CATEGORIES), { minLength: 1, maxLength: 2 })),
    tag: some(fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 })),
    city: some(fc.constantFrom(...CITIES.map((c) => c.city))),
    country: some(fc.constantFrom('fr', 'IT', 'PL')),
    currency: some(fc.constantFrom('EUR', 'pln')),
    priceMin: some(fc.integer({ min: 0, max: 600 }).map(String)),
    priceMax: some(fc.integer({ min: 200, max: 1000 }).map(String)),
    publishedAfter: some(fc.integer({ min: 0, max: 30 }).map((d) => new Date(T0 + d * DAY).toISOString())),
    publishedBefore: some(fc.integer({ min: 0, max: 30 }).map((d) => new Date(T0 + d * DAY).toISOString())),
    near: some(fc.constantFrom(...CITIES).map((c) => `${c.lat},${c.lon}`)),
    radius: some(fc.constantFrom(5, 30, 500, 2000)),
    bbox: some(fc.constantFrom(...WINDOWS).map((w) => `${w.minLat},${w.minLon},${w.maxLat},${w.maxLon}`)),
    status: some(fc.constantFrom(...STATUSES)),
    distinct: some(fc.constant('publisher')),
    sort: some(fc.constantFrom(...SORTS, 'attr.rooms', '-attr.rooms', '-attr.rating', 'attr.used')),
    facets: some(
      fc.constantFrom(
        'category',
        'tag,city',
        'category,tag,city,country',
        'attr.rooms,price',
        'attr.brand,attr.used,attr.rating',
      ),
    ),
    'attr.rooms.min': some(fc.integer({ min: 0, max: 6 })),
    'attr.rooms.max': some(fc.integer({ min: 2, max: 6 })),
    'attr.rating': some(
      fc.uniqueArray(
        fc.integer({ min: 0, max: 10 }).map((n) => n / 2),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    'attr.brand': some(
      fc.uniqueArray(fc.constantFrom(...BRANDS, 'APPLE', 'cafe co'), { minLength: 1, maxLength: 2 }),
    ),
    'attr.used': some(fc.constantFrom('true', 'false', 'TRUE')),
    limit: fc.integer({ min: 1, max: 7 }),
  })
  .map((r) => {
    const params: Params = {};
    for (const [k, v] of Object.entries(r)) if (v !== null) params[k] = v;
    // Only valid combinations: the rules refusing the others are tested elsewhere.
    if (params.sort === 'relevance' && params.q === undefined) delete params.sort;
    if (params.sort === 'distance' && params.near === undefined) delete params.sort;
    if (params.radius !== undefined && params.near === undefined) delete params.radius;
    if (
      params.priceMin !== undefined &&
      params.priceMax !== undefined &&
      Number(params.priceMin) > Number(params.priceMax)
    )
      delete params.priceMin;
    const [roomsMin, roomsMax] = [params['attr.rooms.min'], params['attr.rooms.max']];
    if (roomsMin !== undefined && roomsMax !== undefined && Number(roomsMin) > Number(roomsMax))
      delete params['attr.rooms.min'];
    return params;
  });

function url(params: Params, cursor: string | null): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const item of [v].flat()) search.append(k, String(item));
  if (cursor) search.set('cursor', cursor);
  return `/v1/offers/?${search.toString()}`;
}

/** `attr.*` parameters as the engine takes them (strings folded, booleans 1 / 0). */
function attributeFilters(params: Params): AttributeFilter[] {
  const filters = new Map<string, AttributeFilter>();
  const filter = (name: string) => {
    const f = filters.get(name) ?? { name, values: [], min: null, max: null };
    filters.set(name, f);
    return f;
  };
  for (const [key, value] of Object.entries(params)) {
    const [, name, bound] = /^attr\.(\w+)(?:\.(min|max))?$/.exec(key) ?? [];
    if (!name) continue;
    if (bound) filter(name)[bound as 'min' | 'max'] = Number(value);
    else
      filter(name).values = [value].flat().map((v) => {
        if (name === 'brand') return foldString(String(v));
        if (name === 'used') return String(v).toLowerCase() === 'true' ? 1 : 0;
        return Number(v);
      });
  }
  return [...filters.values()];
}

/** The query as the engine gets it, built here from the parameters, independently of the service. */
function engineQuery(params: Params, now: number): EngineQuery {
  const str = (k: string) => (params[k] === undefined ? null : String(params[k]));
  const time = (k: string) => (params[k] === undefined ? null : Date.parse(String(params[k])));
  const near = str('near');
  const [lat = 0, lon = 0] = near ? near.split(',').map(Number) : [];
  const q = str('q');
  const box = (str('bbox')?.split(',').map(Number) as [number, number, number, number] | undefined) ?? null;
  return {
    text: q === null ? null : parseTextQuery(q),
    typoTolerance: (str('typoTolerance') ?? 'auto') as EngineQuery['typoTolerance'],
    synonyms: SYNONYMS,
    categories: (params.category as string[] | undefined) ?? [],
    tags: (params.tag as string[] | undefined) ?? [],
    city: str('city'),
    country: str('country')?.toUpperCase() ?? null,
    currency: str('currency')?.toUpperCase() ?? null,
    priceMin: params.priceMin === undefined ? null : priceToUnits(String(params.priceMin)),
    priceMax: params.priceMax === undefined ? null : priceToUnits(String(params.priceMax)),
    publishedAfter: time('publishedAfter'),
    publishedBefore: time('publishedBefore'),
    updatedSince: null,
    near: near ? { lat, lon } : null,
    radiusKm: params.radius === undefined ? null : Number(params.radius),
    bbox: box === null ? null : { minLat: box[0], minLon: box[1], maxLat: box[2], maxLon: box[3] },
    status: (str('status') ?? 'active') as EngineQuery['status'],
    attributes: attributeFilters(params),
    sort: (str('sort') ?? (q === null ? '-publishedAt' : 'relevance')) as EngineQuery['sort'],
    distinct: str('distinct') as EngineQuery['distinct'],
    limit: 100_000,
    after: null,
    now,
  };
}

interface Page {
  data: { id: string }[];
  total: { value: number; relation: string };
  facets: Record<string, unknown>;
  facetStats?: Record<string, unknown>;
  nextCursor: string | null;
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`search engine against the reference, through HTTP, on ${dialect}`, () => {
    let t: TestContext;
    let docs: IndexDocument[];
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      const offers = fc.sample(fc.tuple(...Array.from({ length: 160 }, (_, i) => offerArb(i))), {
        numRuns: 1,
        seed: dialect === 'sqlite' ? 12 : 13,
      })[0] as OfferInput[];
      await t.deps.offers.upsertMany('testing', offers);
      const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
      for (const attribute of ATTRIBUTE_SCHEMA.attributes)
        await t.deps.searchSettings.setAttribute(actor, 'testing', attribute);
      await t.deps.searchIndexes.checkSchema('testing');
      // The environment's synonyms, as the reference is given them (issue 23).
      for (const rule of SYNONYMS) await t.deps.synonyms.add(actor, 'testing', rule.words, rule.oneWay);
      // What the database holds, as the index reads it (the reference sees the same documents).
      docs = (
        await t.deps.db.all<Parameters<typeof toIndexDocument>[0]>(
          "SELECT seq, change_seq, id, title, description, category, tags, city, country, currency, price_value, lat, lon, status, published_at, updated_at, expires_at, publisher_id, attributes FROM offers WHERE environment = 'testing'",
        )
      ).map((row) =>
        toIndexDocument(
          {
            ...row,
            price_value: Number(row.price_value),
            lat: Number(row.lat),
            lon: Number(row.lon),
            published_at: Number(row.published_at),
            updated_at: Number(row.updated_at),
            expires_at: row.expires_at === null ? null : Number(row.expires_at),
          },
          true,
        ),
      );
      expect(docs).toHaveLength(160);
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    it('pages, totals and facets are the reference’s, for random queries over every parameter', async () => {
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      await fc.assert(
        fc.asyncProperty(queryArb, async (params) => {
          const now = t.clock.now();
          const facetNames = (
            params.facets === undefined ? [] : String(params.facets).split(',')
          ) as FacetRequest[];
          const expected = referenceSearch(docs, engineQuery(params, now), facetNames, ATTRIBUTE_SCHEMA);
          const seen: string[] = [];
          let cursor: string | null = null;
          let first: Page | null = null;
          for (let page = 0; page < 200; page += 1) {
            const res = await t.apps.testing.inject({ method: 'GET', url: url(params, cursor), headers });
            expect(res.statusCode, res.body).toBe(200);
            const body = res.json() as Page;
            first ??= body;
            seen.push(...body.data.map((o) => o.id));
            expect(body.total).toEqual({ value: expected.total, relation: 'eq' });
            cursor = body.nextCursor;
            if (!cursor) break;
          }
          expect(seen).toEqual(expected.ids);
          expect(first?.facets).toEqual(expected.facets);
          expect(first?.facetStats).toEqual(expected.facetStats);
        }),
        { numRuns: 120, seed: 20_261_123 },
      );
    }, 300_000);

    it('facet-value search answers the reference’s values and counts, for random searches', async () => {
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      const arb = fc.record({
        params: queryArb,
        facet: fc.constantFrom(...FACET_VALUE_FACETS),
        prefix: prefixArb,
        limit: sometimes(fc.integer({ min: 1, max: 12 }), 1),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ params: search, facet, prefix, limit }) => {
          const { sort: _s, facets: _f, limit: _l, distinct: _d, ...params } = search;
          const query = engineQuery(params, t.clock.now());
          const wanted = limit ?? 10;
          const expected = referenceFacetValues(docs, query, facet, prefix, wanted, ATTRIBUTE_SCHEMA);
          const extra: Params = { facet, prefix, ...(limit === null ? {} : { limit }) };
          const res = await t.apps.testing.inject({
            method: 'GET',
            url: url({ ...params, ...extra }, null).replace('/v1/offers/?', '/v1/offers/facet-values?'),
            headers,
          });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toEqual({ facet, values: expected });
        }),
        { numRuns: 120, seed: 20_261_127 },
      );
    }, 300_000);

    it('ranks ties by the --rank-by attribute like the reference, page after page (issue 23)', async () => {
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
      for (const [, schema] of RANKED_SCHEMAS) {
        await t.deps.searchSettings.setRankBy(actor, 'testing', schema.rankBy ?? null);
        await t.deps.searchIndexes.checkSchema('testing');
        await fc.assert(
          fc.asyncProperty(
            queryArb.filter((p) => p.q !== undefined),
            async (raw) => {
              const params: Params = { ...raw, sort: 'relevance' };
              const expected = referenceSearch(docs, engineQuery(params, t.clock.now()), [], schema);
              const seen: string[] = [];
              let cursor: string | null = null;
              for (let page = 0; page < 200; page += 1) {
                const res = await t.apps.testing.inject({ method: 'GET', url: url(params, cursor), headers });
                expect(res.statusCode, res.body).toBe(200);
                const body = res.json() as Page;
                seen.push(...body.data.map((o) => o.id));
                expect(body.total.value).toBe(expected.total);
                cursor = body.nextCursor;
                if (!cursor) break;
              }
              expect(seen).toEqual(expected.ids);
            },
          ),
          { numRuns: 60, seed: 20_261_128 },
        );
      }
      await t.deps.searchSettings.setRankBy(actor, 'testing', null);
      await t.deps.searchIndexes.checkSchema('testing');
    }, 300_000);

    it('matches and ranks searchable attributes like the reference: pages, totals, facets (ADR 0042)', async () => {
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
      for (const attribute of SEARCHABLE_SCHEMA.attributes)
        await t.deps.searchSettings.setAttribute(actor, 'testing', attribute);
      await t.deps.searchIndexes.checkSchema('testing');
      await fc.assert(
        fc.asyncProperty(
          // Text, facets and page size alone: filters would leave few matches to tell the fields apart.
          queryArb
            .filter((p) => p.q !== undefined)
            .map(
              ({ q, facets, limit, typoTolerance }): Params => ({
                q: q as string,
                ...(facets === undefined ? {} : { facets }),
                ...(limit === undefined ? {} : { limit }),
                ...(typoTolerance === undefined ? {} : { typoTolerance }),
              }),
            ),
          async (params) => {
            const facetNames = (
              params.facets === undefined ? [] : String(params.facets).split(',')
            ) as FacetRequest[];
            const query = engineQuery(params, t.clock.now());
            const expected = referenceSearch(docs, query, facetNames, SEARCHABLE_SCHEMA);
            const seen: string[] = [];
            let cursor: string | null = null;
            let first: Page | null = null;
            for (let page = 0; page < 200; page += 1) {
              const res = await t.apps.testing.inject({ method: 'GET', url: url(params, cursor), headers });
              expect(res.statusCode, res.body).toBe(200);
              const body = res.json() as Page;
              first ??= body;
              seen.push(...body.data.map((o) => o.id));
              expect(body.total).toEqual({ value: expected.total, relation: 'eq' });
              cursor = body.nextCursor;
              if (!cursor) break;
            }
            expect(seen).toEqual(expected.ids);
            expect(first?.facets).toEqual(expected.facets);
          },
        ),
        { numRuns: 80, seed: 20_261_129 },
      );
    }, 300_000);
  });
}
