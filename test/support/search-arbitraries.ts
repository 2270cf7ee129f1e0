import fc from 'fast-check';
import { FACET_NAMES, SORTS, STATUSES } from '../../src/offers/schemas.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import { foldString } from '../../src/search/attributes/values.js';
import type {
  AttributeFilter,
  EngineQuery,
  FacetRequest,
  IndexDocument,
  SearchSchema,
  TypoTolerance,
} from '../../src/search/engine.js';
import type { SynonymRule } from '../../src/search/query/synonyms.js';
import { engineQuery } from './engine-query.js';

/**
 * Random offers and queries for the engine's property tests (src/search/*.property.test.ts,
 * the snapshot round trip) and, through HTTP, the service's (test/contract/
 * search-engine.property.contract.test.ts): a small vocabulary, so words collide, share stems
 * and sit one or two edits apart, and queries over every parameter and sort.
 */

export const VOCABULARY = [
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
  // Catalogue text (numbers, units, compound words, apostrophes: docs/search.md).
  '32gb',
  '32',
  'gb',
  'gigabytes',
  '6ft',
  '6',
  'feet',
  "6'",
  '5.5',
  'inch',
  'inches',
  't-shirt',
  'tshirt',
  'shirt',
  "men's",
  'men',
  "o'neill",
  'oneill',
  'neill',
  'otterbox',
  'otter',
  'box',
  'smart',
  'watch',
  'smartwatch',
  'usb-c',
  'usb',
  '3-in-1',
  '12345',
  '12346',
];
/** Pairs that also appear in offers as they are, so phrases find something. */
export const PAIRS = [
  'dining chairs',
  'road bike',
  'red lamp',
  'bike trailer',
  'smart watch',
  'o neill',
  't shirt',
  'otter box',
  '32 gb',
  '6 feet',
];
/**
 * Synonyms over the vocabulary: multi-way, one-way, and of several words (a pair offers hold as
 * it is, and one they never hold).
 */
export const SYNONYMS: readonly SynonymRule[] = [
  { oneWay: false, words: ['dog', 'trailer'] },
  { oneWay: true, words: ['lamp', 'refrigerator', 'road bike'] },
  { oneWay: false, words: ['bicycle', 'smart watch', 'zorglub'] },
  { oneWay: true, words: ['dining chairs', 'otterbox'] },
  { oneWay: false, words: ['shirt', 'no such words'] },
  { oneWay: true, words: ['chairs', 'red lamp'] },
];
export const CATEGORIES = ['furniture', 'vehicles', 'jobs', 'services'];
export const TAGS = ['pickup-only', 'new', 'insured', 'weekends', 'remote'];
/** Publisher ids: few, so that `distinct=publisher` keeps one offer of many. */
export const PUBLISHERS = ['pub_ada', 'pub_bo', 'pub_cy', 'pub_dee', 'pub_eve'];
export const CITIES = [
  { city: 'Paris', country: 'FR', lat: 48.8566, lon: 2.3522 },
  { city: 'Lyon', country: 'FR', lat: 45.764, lon: 4.8357 },
  { city: 'Rome', country: 'IT', lat: 41.9028, lon: 12.4964 },
  { city: 'Gdańsk', country: 'PL', lat: 54.352, lon: 18.6466 },
];
/**
 * Map windows (`bbox`): around one city, around two, one crossing the antimeridian (from 170°E
 * eastwards to Lyon's meridian: Paris and half of Lyon, not Rome nor Gdańsk), one whose southern
 * edge is Lyon's latitude.
 */
export const WINDOWS = [
  { minLat: 48, minLon: 2, maxLat: 49.5, maxLon: 3 },
  { minLat: 41, minLon: 2, maxLat: 50, maxLon: 13 },
  { minLat: 40, minLon: 170, maxLat: 60, maxLon: 4.8357 },
  { minLat: 45.764, minLon: -180, maxLat: 90, maxLon: 180 },
];
export const T0 = Date.UTC(2026, 0, 1);
export const DAY = 86_400_000;
export const NOW = T0 + 20 * DAY;

/** The declared attributes of the property tests' environment. */
export const ATTRIBUTE_SCHEMA: SearchSchema = {
  attributes: [
    { name: 'rooms', type: 'number', facet: true, sort: true, searchable: false },
    { name: 'rating', type: 'number', facet: true, sort: true, searchable: false },
    { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
    { name: 'used', type: 'boolean', facet: true, sort: true, searchable: false },
  ],
};
/** The same declarations with a ranking tie-break: rooms (ties and missing values) ascending, rating descending. */
export const RANKED_SCHEMAS: ReadonlyArray<[string, SearchSchema]> = [
  ['--rank-by attr.rooms:asc', { ...ATTRIBUTE_SCHEMA, rankBy: { name: 'rooms', descending: false } }],
  ['--rank-by attr.rating:desc', { ...ATTRIBUTE_SCHEMA, rankBy: { name: 'rating', descending: true } }],
];

/**
 * Searchable attributes (ADR 0042): the brand and a `material` of vocabulary words are searchable,
 * `colour` (a vocabulary word now and then) is declared but not: `q` must not find its words.
 */
export const SEARCHABLE_SCHEMA: SearchSchema = {
  attributes: [
    ...ATTRIBUTE_SCHEMA.attributes.map((a) => (a.name === 'brand' ? { ...a, searchable: true } : a)),
    { name: 'material', type: 'string', facet: false, sort: false, searchable: true },
    { name: 'colour', type: 'string', facet: true, sort: false, searchable: false },
  ],
};
export const SEARCHABLE_SCHEMAS: ReadonlyArray<[string, SearchSchema]> = [
  ['searchable brand and material', SEARCHABLE_SCHEMA],
  [
    'searchable, --rank-by attr.rooms:asc',
    { ...SEARCHABLE_SCHEMA, rankBy: { name: 'rooms', descending: false } },
  ],
];

/** Brands spelt as catalogues do: cases and accents fold together. */
export const BRANDS = ['Apple', 'apple', 'ÄCME', 'acme', 'Café Co', 'cafe-co', 'Zorglub'];

/** Mostly absent: a filter present in every query would leave little to match. */
export function sometimes<T>(arb: fc.Arbitrary<T>, absent = 4): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: absent }, { arbitrary: arb, weight: 1 });
}

/** Words of the vocabulary, now and then a pair as it is. */
export const textArb = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof({ arbitrary: fc.constantFrom(...VOCABULARY), weight: 4 }, fc.constantFrom(...PAIRS)), {
      minLength: min,
      maxLength: max,
    })
    .map((w) => w.join(' '));

/** Offer attributes: declared ones often missing or mistyped, an undeclared one. */
const attributesArb = fc.record(
  {
    rooms: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('3', '4', 'three', '')),
    rating: fc.integer({ min: 0, max: 10 }).map((r) => r / 2),
    brand: fc.oneof(fc.constantFrom(...BRANDS), fc.constant(7)),
    used: fc.constantFrom<string | number>('true', 'false', 'TRUE', 1, 0, 'yes'),
    colour: fc.constantFrom('red', 'blue'),
    material: textArb(0, 3),
  },
  { requiredKeys: [] },
);

export const documentArb = (id: string): fc.Arbitrary<IndexDocument> =>
  fc
    .record({
      title: textArb(1, 6),
      description: textArb(0, 12),
      category: fc.constantFrom(...CATEGORIES),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
      place: fc.constantFrom(...CITIES),
      jitter: fc.tuple(
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      ),
      currency: fc.constantFrom('EUR', 'PLN'),
      // Few publishers, so `distinct=publisher` folds many offers into one.
      publisher: fc.constantFrom(...PUBLISHERS),
      price: fc.integer({ min: 0, max: 20 }).map((p) => p * 10_000),
      status: fc.constantFrom<IndexDocument['status']>('active', 'active', 'active', 'expired', 'withdrawn'),
      // Few distinct dates, so ties on publishedAt are common and the id decides.
      published: fc.integer({ min: 0, max: 8 }).map((d) => T0 + d * DAY),
      updated: fc.integer({ min: 0, max: 30 }).map((d) => T0 + d * DAY),
      expires: fc.option(fc.integer({ min: 10, max: 30 }).map((d) => T0 + d * DAY)),
      attributes: attributesArb,
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
      publisher: r.publisher,
      price: r.price,
      lat: r.place.lat + r.jitter[0],
      lon: r.place.lon + r.jitter[1],
      status: r.status,
      publishedAt: r.published,
      updatedAt: r.updated,
      expiresAt: r.expires,
      attributes: r.attributes,
    }));

export const idArb = fc.integer({ min: 0, max: 60 }).map((i) => `off_${String(i).padStart(3, '0')}`);

/** A word of the vocabulary, sometimes with one or two random edits, sometimes cut short. */
export const typedWord = fc
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

export const qArb = fc
  .record({
    // Now and then a pair typed apart (`otter box`), whose words joined are a word (compounds).
    words: fc.oneof(
      { arbitrary: fc.array(typedWord, { minLength: 1, maxLength: 2 }), weight: 4 },
      fc.constantFrom(...PAIRS).map((pair) => pair.split(' ')),
    ),
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

const attributeFilterArb: fc.Arbitrary<AttributeFilter> = fc.oneof(
  fc.record({
    name: fc.constant('rooms'),
    values: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 2 }),
    min: fc.option(fc.integer({ min: 0, max: 6 })),
    max: fc.option(fc.integer({ min: 0, max: 6 })),
  }),
  fc.record({
    name: fc.constant('rating'),
    values: fc.constant([]),
    min: fc.option(fc.integer({ min: 0, max: 10 }).map((r) => r / 2)),
    max: fc.option(fc.integer({ min: 0, max: 10 }).map((r) => r / 2)),
  }),
  fc.record({
    name: fc.constant('brand'),
    values: fc.uniqueArray(fc.constantFrom(...BRANDS.map(foldString), '7', 'nobody'), {
      minLength: 1,
      maxLength: 2,
    }),
    min: fc.constant(null),
    max: fc.constant(null),
  }),
  fc.record({
    name: fc.constant('used'),
    values: fc.constantFrom([1], [0], [0, 1]),
    min: fc.constant(null),
    max: fc.constant(null),
  }),
);

const ATTRIBUTE_SORTS = [
  'attr.rooms',
  '-attr.rooms',
  'attr.rating',
  '-attr.rating',
  'attr.used',
  '-attr.used',
] as const;
const ATTRIBUTE_FACETS: FacetRequest[] = ['price', 'attr.rooms', 'attr.rating', 'attr.brand', 'attr.used'];

/**
 * `rare`: how much more often each filter is absent than present; `attributes`: the query may
 * filter, sort and facet on ATTRIBUTE_SCHEMA's attributes (and ask for price stats).
 */
export const queryArb = (
  rare: number,
  attributes = false,
): fc.Arbitrary<{ query: EngineQuery; facets: FacetRequest[] }> =>
  fc
    .record({
      attributes: attributes
        ? sometimes(fc.array(attributeFilterArb, { minLength: 1, maxLength: 2 }), Math.min(rare, 2))
        : fc.constant(null),
      attributeSort: attributes ? sometimes(fc.constantFrom(...ATTRIBUTE_SORTS), 2) : fc.constant(null),
      attributeFacets: attributes ? fc.subarray(ATTRIBUTE_FACETS) : fc.constant([]),
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
      bbox: sometimes(fc.constantFrom(...WINDOWS), rare),
      distinct: sometimes(fc.constant('publisher' as const), 2),
      status: rare > 4 ? fc.constant('active') : fc.constantFrom(...STATUSES, 'active', 'active', 'active'),
      sort: fc.constantFrom(...SORTS),
      limit: fc.integer({ min: 1, max: 4 }),
      facets: fc.subarray([...FACET_NAMES]),
      typoTolerance: fc.constantFrom<TypoTolerance>('auto', 'auto', 'all', 'off'),
      synonyms: fc.constantFrom<readonly SynonymRule[]>([], SYNONYMS),
    })
    .map((r) => {
      const text = r.q === null ? null : parseTextQuery(r.q);
      let sort: EngineQuery['sort'] = r.attributeSort ?? r.sort;
      if (sort === 'relevance' && text === null) sort = '-publishedAt';
      if (sort === 'distance' && r.near === null) sort = 'price';
      return {
        query: {
          text,
          typoTolerance: r.typoTolerance,
          synonyms: r.synonyms,
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
          bbox: r.bbox,
          distinct: r.distinct,
          status: r.status as EngineQuery['status'],
          attributes: r.attributes ?? [],
          sort,
          limit: r.limit,
          after: null,
          now: NOW,
        },
        facets: [...r.facets, ...r.attributeFacets],
      };
    });

/** Text only, ranked: where the relevance rules decide the order. */
export const rankingQueryArb = queryArb(1000).map(({ query, facets }) => ({
  query: { ...query, sort: query.text ? ('relevance' as const) : query.sort },
  facets,
}));

/** No text and no filter but the status, sorted: answered from maintained counts and a sorted walk. */
export const statusOnlyQueryArb = fc
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
export const nearestQueryArb = fc
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

export type Change = { kind: 'upsert'; doc: IndexDocument } | { kind: 'remove'; id: string };

export const changeArb: fc.Arbitrary<Change> = fc.oneof(
  idArb.chain((id) => documentArb(id)).map((doc) => ({ kind: 'upsert' as const, doc })),
  idArb.map((id) => ({ kind: 'remove' as const, id })),
);

export const initialDocs = fc
  .uniqueArray(idArb, { minLength: 10, maxLength: 50 })
  .chain((ids) => fc.tuple(...ids.map((id) => documentArb(id))));

/**
 * initialDocs for searchable attributes (ADR 0042): every offer has a `material` of vocabulary
 * words and most a title of two words at most, so a query's words often lie in the attributes
 * alone, the attribute rule's middle value.
 */
export const searchableDocs = initialDocs.chain((docs) =>
  fc
    .tuple(fc.array(textArb(1, 4), { minLength: docs.length, maxLength: docs.length }), fc.boolean())
    .map(([materials, short]) =>
      docs.map((doc, i) => ({
        ...doc,
        title: short || i % 3 !== 0 ? doc.title.split(' ').slice(0, 2).join(' ') : doc.title,
        attributes: { ...doc.attributes, material: materials[i] as string },
      })),
    ),
);

/**
 * Text alone, ranked, small pages: one to three vocabulary words (the last often a prefix, now
 * and then all of them quoted as a phrase), active offers, a facet now and then; what the attribute
 * rule orders (ADR 0042).
 */
export const rankedTextQueryArb = fc
  .record({
    words: fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 3 }),
    shape: fc.constantFrom('words', 'prefix', 'phrase'),
    limit: fc.integer({ min: 1, max: 6 }),
    facets: fc.constantFrom<FacetRequest[]>([], ['category'], ['attr.brand', 'attr.colour']),
  })
  .map(({ words, shape, limit, facets }) => {
    const typed =
      shape === 'phrase' ? `"${words.join(' ')}"` : `${words.join(' ')}${shape === 'prefix' ? '' : ' '}`;
    return { query: engineQuery(NOW, { text: parseTextQuery(typed), sort: 'relevance', limit }), facets };
  })
  .filter(({ query }) => query.text !== null);

/**
 * One typed word (complete, or the prefix being typed), no filter, active offers, every facet:
 * the queries whose facets come from the counts kept per frequent stem (stem-facets.ts).
 */
export const oneWordQueryArb = fc
  .tuple(typedWord, fc.boolean(), fc.constantFrom(...SORTS), fc.integer({ min: 1, max: 4 }))
  .map(([word, complete, sort, limit]) => ({
    query: engineQuery(NOW, {
      text: parseTextQuery(complete ? `${word} ` : word),
      sort: sort === 'distance' ? 'relevance' : sort,
      limit,
    }),
    facets: [...FACET_NAMES],
  }));
