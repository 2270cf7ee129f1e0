import { type Static, Type } from 'typebox';

/**
 * The offer contract of SPEC §6, declared once: it validates, serialises, and becomes the
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
  { additionalProperties: false },
);
export type Offer = Static<typeof OfferSchema>;

export const SORTS = ['relevance', '-publishedAt', 'publishedAt', 'price', '-price'] as const;
export type SortOrder = (typeof SORTS)[number];
export const STATUSES = ['active', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof STATUSES)[number];

export const MAX_Q_LENGTH = 200;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_REPEATED = 20;
/** Totals are exact up to this many matches, then reported as `{"relation": "gte"}`. */
export const TOTAL_EXACT_BOUND = 10_000;

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' });
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
        description: `Full text over title (ranked first) and description; English stemming; the last word also matches as a prefix unless the query ends in a space. At most ${MAX_Q_LENGTH} characters.`,
      }),
    ),
    category: Type.Optional(
      Type.Array(Slug, {
        maxItems: MAX_REPEATED,
        description: `Repeatable; any of the given categories. At most ${MAX_REPEATED}.`,
      }),
    ),
    country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2.' })),
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
          Type.Literal('relevance'),
          Type.Literal('-publishedAt'),
          Type.Literal('publishedAt'),
          Type.Literal('price'),
          Type.Literal('-price'),
        ],
        {
          description:
            '`relevance` (default with `q`; title matches first, then newest), `-publishedAt` (default without `q`), `publishedAt`, `price`, `-price`.',
        },
      ),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}.` }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 512,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'Opaque; `nextCursor` of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchResponseSchema = Type.Object(
  {
    data: Type.Array(OfferSchema),
    total: Type.Object({
      value: Type.Integer(),
      relation: Type.Union([Type.Literal('eq'), Type.Literal('gte')], {
        description: `\`eq\`: exact. \`gte\`: at least \`value\` (counting stops at ${TOTAL_EXACT_BOUND}).`,
      }),
    }),
    facets: Type.Object({}, { additionalProperties: true, description: 'Reserved for facet counts.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type SearchResponse = Static<typeof SearchResponseSchema>;
