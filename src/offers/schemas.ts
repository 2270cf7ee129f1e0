import { type Static, Type } from 'typebox';
import { MAX_QUERY_TERMS } from '../search/analysis/text.js';

/**
 * The offer contract, declared once: it validates, serialises, and becomes the
 * OpenAPI schema and the SDK types.
 */
const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 timestamp, UTC.' });

export const OfferSchema = Type.Object(
  {
    id: Type.String({ description: 'Offer id, `off_…`.', examples: ['off_3kTMd9RAnq0LZpOXbe2w'] }),
    title: Type.String(),
    description: Type.String(),
    category: Type.String({ examples: ['furniture'] }),
    tags: Type.Array(Type.String()),
    location: Type.Object({
      city: Type.String(),
      region: Type.Union([Type.String(), Type.Null()]),
      country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
      lat: Type.Number(),
      lon: Type.Number(),
    }),
    price: Type.Object({
      amount: Type.String({ description: 'Decimal string, never a float.', examples: ['1299.00'] }),
      currency: Type.String({ description: 'ISO 4217.', examples: ['EUR'] }),
    }),
    publisher: Type.Object({ id: Type.String(), name: Type.String() }),
    url: Type.Union([Type.String(), Type.Null()]),
    attributes: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description: 'Domain fields, free keys with string or number values.',
    }),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('withdrawn')], {
      description: '`expired` also once `expiresAt` has passed, without any batch job.',
    }),
    publishedAt: Timestamp,
    updatedAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false, title: 'Offer' },
);
export type Offer = Static<typeof OfferSchema>;

export { type OfferStatus, SORTS, type SortOrder, STATUSES } from '../search/engine.js';

export const MAX_Q_LENGTH = 200;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_REPEATED = 20;
export const MAX_RADIUS_KM = 20_000;
/** Values reported per facet. */
export const FACET_TOP = 20;
export { FACET_NAMES, type FacetName } from '../search/engine.js';

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' });
const ATTRIBUTE = '[a-zA-Z][a-zA-Z0-9_]{0,39}';
const SORT_ATTRIBUTE = `^-?attr\\.${ATTRIBUTE}$`;
const FACET_FIELD = `(category|tag|city|country|price|attr\\.${ATTRIBUTE})`;
/** `attr.NAME` (repeatable: any of) and `attr.NAME.min` / `attr.NAME.max` of declared attributes. */
export const ATTRIBUTE_PARAMETER = new RegExp(`^attr\\.(${ATTRIBUTE})(\\.(min|max))?$`);
const AttributeValue = Type.String({ minLength: 1, maxLength: 200 });
const ATTRIBUTE_PARAMETERS = {
  [ATTRIBUTE_PARAMETER.source]: Type.Union([AttributeValue, Type.Array(AttributeValue, { maxItems: 20 })], {
    description:
      'A declared attribute (`GET /v1/attributes`): `attr.NAME=V` (repeatable: any of; strings compared folded like text; booleans `true` / `false`), `attr.NAME.min` / `attr.NAME.max` (numbers, inclusive).',
  }),
};
const JsonAttributeValue = Type.Union([AttributeValue, Type.Number(), Type.Boolean()]);
const JSON_ATTRIBUTE_PARAMETERS = {
  [ATTRIBUTE_PARAMETER.source]: Type.Union([
    JsonAttributeValue,
    Type.Array(JsonAttributeValue, { maxItems: 20 }),
  ]),
};
const Decimal = Type.String({
  pattern: '^\\d{1,11}(\\.\\d{1,4})?$',
  description: 'Decimal number, e.g. `25` or `19.99`.',
});

export const SearchQuerySchema = Type.Object(
  {
    apiKey: Type.Optional(
      Type.String({
        description: 'The API key, when it cannot be sent as the `X-Api-Key` header (preferred).',
      }),
    ),
    q: Type.Optional(
      Type.String({
        maxLength: MAX_Q_LENGTH,
        description: `Full text over title and description; English stemming; the last word also matches as a prefix unless the query ends in a space; \`"a phrase"\` in quotes; \`-word\` or \`-"a phrase"\` excludes. Typo tolerance: a word (the last, prefix word included) of 5–8 letters also matches words 1 edit away, of 9 or more letters 2 edits away; fewer typos rank first. Only punctuation or common words: an empty result. At most ${MAX_Q_LENGTH} characters; words, phrases and exclusions past the ${MAX_QUERY_TERMS}th are ignored.`,
      }),
    ),
    typoTolerance: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('all'), Type.Literal('off')], {
        description:
          'Which query words match words a few edits away. `auto` (default): a word no offer holds as typed (nor its stem), and every word when the query would otherwise match nothing; `all`: every word of 5 letters or more; `off`: none. Numbers are never corrected.',
      }),
    ),
    category: Type.Optional(
      Type.Array(Slug, {
        maxItems: MAX_REPEATED,
        description: `Repeatable; any of the given categories. At most ${MAX_REPEATED}.`,
      }),
    ),
    tag: Type.Optional(
      Type.Array(Slug, {
        maxItems: MAX_REPEATED,
        description: `Repeatable; offers carrying every one of the given tags. At most ${MAX_REPEATED}.`,
      }),
    ),
    city: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Exact city name, as offers and the `city` facet spell it.',
      }),
    ),
    country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2.' })),
    near: Type.Optional(
      Type.String({
        pattern: '^-?\\d{1,3}(\\.\\d{1,8})?,-?\\d{1,3}(\\.\\d{1,8})?$',
        description:
          '`lat,lon` in decimal degrees (WGS 84), e.g. `48.8566,2.3522`. With `radius`, only offers within that distance; enables `sort=distance`.',
        examples: ['48.8566,2.3522'],
      }),
    ),
    bbox: Type.Optional(
      Type.String({
        pattern: '^-?\\d{1,3}(\\.\\d{1,8})?(,-?\\d{1,3}(\\.\\d{1,8})?){3}$',
        description:
          'A map window `minLat,minLon,maxLat,maxLon` in decimal degrees (WGS 84), edges included, e.g. `48.80,2.25,48.92,2.42`: only offers placed inside it. `minLon` greater than `maxLon` crosses the antimeridian (`-20,170,20,-170`). Combines with every other parameter.',
        examples: ['48.80,2.25,48.92,2.42'],
      }),
    ),
    radius: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_RADIUS_KM,
        description: `Kilometres from \`near\` (great-circle distance), at most ${MAX_RADIUS_KM}. Needs \`near\`.`,
      }),
    ),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217.' })),
    priceMin: Type.Optional(Decimal),
    priceMax: Type.Optional(Decimal),
    publishedAfter: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive.' })),
    publishedBefore: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive.' })),
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Inclusive; with `status` lets integrators sync changes.',
      }),
    ),
    status: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('withdrawn')], {
        description: 'Default `active`.',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        [
          Type.Union([
            Type.Literal('relevance'),
            Type.Literal('-publishedAt'),
            Type.Literal('publishedAt'),
            Type.Literal('price'),
            Type.Literal('-price'),
            Type.Literal('distance'),
          ]),
          Type.String({ pattern: SORT_ATTRIBUTE }),
        ],
        {
          description:
            '`attr.NAME` / `-attr.NAME`: by a declared `--sort` attribute (number or boolean), offers without it last either way. `relevance` (default with `q`: fewest typos, then query words closest together, then matched in the title rather than the description, then exact words before prefixes, then newest; see docs/search.md), `-publishedAt` (default without `q`), `publishedAt`, `price`, `-price`, `distance` (nearest first; needs `near`).',
        },
      ),
    ),
    distinct: Type.Optional(
      Type.Literal('publisher', {
        description:
          '`publisher`: one offer per publisher, the first of each in the order asked for (the best-ranked with `q`). `total` then counts those offers (one per publisher, exact) and the pages and cursors walk them; `facets` and `facetStats` still count every match.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}.` }),
    ),
    facets: Type.Optional(
      Type.String({
        pattern: `^${FACET_FIELD}(,${FACET_FIELD}){0,19}$`,
        description: `Comma-separated fields among \`category\`, \`tag\`, \`city\`, \`country\` and declared \`--facet\` attributes (\`attr.NAME\`): the ${FACET_TOP} most frequent values of each over the whole result set (not just the page), with exact counts. \`price\` and number attributes also get \`facetStats\` (min, max, avg, sum, count).`,
        examples: ['category,tag'],
      }),
    ),
    highlight: Type.Optional(
      Type.Boolean({
        description:
          'With `q`: each offer gets `highlight.title`, `highlight.description` (a snippet) and, for searchable attributes, `highlight.attributes`, HTML-escaped, with matched words wrapped in `<mark>…</mark>`.',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 512,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'Opaque; `nextCursor` of the previous page.',
      }),
    ),
  },
  { additionalProperties: false, patternProperties: ATTRIBUTE_PARAMETERS },
);
/** With the `attr.*` parameters, which the schema matches by pattern (ATTRIBUTE_PARAMETER). */
export type SearchQuery = Static<typeof SearchQuerySchema> & {
  [attribute: `attr.${string}`]: string | string[] | undefined;
};

const FacetValues = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }), {
  title: 'FacetCounts',
  maxItems: FACET_TOP,
});

export const HighlightSchema = Type.Object(
  {
    title: Type.String({ description: 'The whole title, HTML-escaped, matches in `<mark>…</mark>`.' }),
    description: Type.String({
      description:
        'About 30 words of the description around the first match (the start when none), HTML-escaped, matches in `<mark>…</mark>`, `…` where text was cut.',
    }),
    attributes: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'When the environment declares searchable attributes: each one the offer has a value for, the whole value HTML-escaped, matches in `<mark>…</mark>`.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Offer text is untrusted: every `<`, `>`, `&`, `"` and `\'` is escaped first, so the only markup is `<mark>` and `</mark>`.',
  },
);

export const SearchHitSchema = Type.Object(
  { ...OfferSchema.properties, highlight: Type.Optional(HighlightSchema) },
  { additionalProperties: false, title: 'SearchHit' },
);
export type SearchHit = Static<typeof SearchHitSchema>;

const FacetStatsSchema = Type.Object(
  { min: Type.Number(), max: Type.Number(), avg: Type.Number(), sum: Type.Number(), count: Type.Integer() },
  { additionalProperties: false, title: 'FacetStats' },
);

export const SearchResponseSchema = Type.Object(
  {
    data: Type.Array(SearchHitSchema),
    total: Type.Object({
      value: Type.Integer(),
      relation: Type.Union([Type.Literal('eq'), Type.Literal('gte')], {
        description: 'Always `eq`: the exact number of matches, at any size (`gte` is no longer answered).',
      }),
    }),
    facets: Type.Object(
      {
        category: Type.Optional(FacetValues),
        tag: Type.Optional(FacetValues),
        city: Type.Optional(FacetValues),
        country: Type.Optional(FacetValues),
      },
      {
        additionalProperties: false,
        patternProperties: { [`^attr\\.${ATTRIBUTE}$`]: FacetValues },
        description: `The fields asked for with \`facets\`; the ${FACET_TOP} most frequent values first, then by value, each with its exact count over the whole result set.`,
      },
    ),
    facetStats: Type.Optional(
      Type.Record(Type.String({ pattern: `^(price|attr\\.${ATTRIBUTE})$` }), FacetStatsSchema, {
        description:
          'With `facets` naming `price` or number attributes: min, max, avg, sum and count of their values over the whole result set (`price` in currency units), for those any match has.',
      }),
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false, title: 'SearchResponse' },
);
export type SearchResponse = Static<typeof SearchResponseSchema>;

/** At most this many searches in one `POST /v1/multi-search`. */
export const MAX_MULTI_QUERIES = 10;

const { apiKey: _apiKey, category: _category, tag: _tag, ...searchParameters } = SearchQuerySchema.properties;
const OneOrMany = (description: string) =>
  Type.Optional(Type.Union([Slug, Type.Array(Slug, { maxItems: MAX_REPEATED })], { description }));

/**
 * One search of `POST /v1/multi-search`: the query parameters of `GET /v1/offers/` as JSON
 * (the key travels in the header). `category` and `tag` take one value or a list.
 */
export const MultiSearchQuerySchema = Type.Object(
  {
    ...searchParameters,
    category: OneOrMany(`One category or a list (any of them). At most ${MAX_REPEATED}.`),
    tag: OneOrMany(`One tag or a list (offers carrying every one). At most ${MAX_REPEATED}.`),
  },
  { additionalProperties: false, patternProperties: JSON_ATTRIBUTE_PARAMETERS },
);
type JsonValue = string | number | boolean;
export type MultiSearchQuery = Static<typeof MultiSearchQuerySchema> & {
  [attribute: `attr.${string}`]: JsonValue | JsonValue[] | undefined;
};

export const MultiSearchBodySchema = Type.Object(
  {
    queries: Type.Array(MultiSearchQuerySchema, {
      minItems: 1,
      maxItems: MAX_MULTI_QUERIES,
      description: `1 to ${MAX_MULTI_QUERIES} searches, answered in order.`,
    }),
  },
  { additionalProperties: false },
);

export const MultiSearchResponseSchema = Type.Object(
  { results: Type.Array(SearchResponseSchema) },
  { additionalProperties: false },
);

/** `GET /v1/offers/facet-values`: values answered by default and at most. */
export const DEFAULT_FACET_VALUES_LIMIT = 10;

const {
  sort: _sort,
  cursor: _cursor,
  facets: _facets,
  highlight: _highlight,
  limit: _limit,
  distinct: _distinct,
  ...facetValuesFilters
} = SearchQuerySchema.properties;

/** A search's parameters (those that decide its result set), the facet, the prefix, the limit. */
export const FacetValuesQuerySchema = Type.Object(
  {
    ...facetValuesFilters,
    facet: Type.String({
      pattern: `^(category|tag|city|country|attr\\.${ATTRIBUTE})$`,
      description: '`category`, `tag`, `city`, `country` or a declared `--facet` attribute (`attr.NAME`).',
    }),
    prefix: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'Only values starting with this, both folded like text (case, accents, punctuation); absent or empty: every value.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        description: `Values answered, default ${DEFAULT_FACET_VALUES_LIMIT}.`,
      }),
    ),
  },
  { additionalProperties: false, patternProperties: ATTRIBUTE_PARAMETERS },
);
export type FacetValuesQuery = Static<typeof FacetValuesQuerySchema> & {
  [attribute: `attr.${string}`]: string | string[] | undefined;
};

export const FacetValuesResponseSchema = Type.Object(
  {
    facet: Type.String(),
    values: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }), {
      maxItems: MAX_LIMIT,
      description:
        'The matching values, most frequent first, then by value, each with its exact count over the whole result set.',
    }),
  },
  { additionalProperties: false, title: 'FacetValuesResponse' },
);
