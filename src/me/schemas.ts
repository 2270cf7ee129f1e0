import { type Static, Type } from 'typebox';
import { SearchQuerySchema } from '../offers/schemas.js';

/** The end-user API's contract: validates requests, drives OpenAPI and SDK types. */
const Timestamp = Type.String({ format: 'date-time' });

export const MeSchema = Type.Object(
  {
    id: Type.String({ description: 'End-user id, `usr_…` (the `sub` of access tokens).' }),
    email: Type.String(),
    name: Type.String(),
    environment: Type.Union([Type.Literal('production'), Type.Literal('testing')]),
    createdAt: Timestamp,
  },
  { additionalProperties: false, title: 'Me' },
);

/** What a saved search stores: the search parameters of `/offers/` except key, cursor and page size. */
export const SavedQuerySchema = Type.Omit(SearchQuerySchema, ['apiKey', 'cursor', 'limit'], {
  additionalProperties: false,
});

export const SavedSearchInputSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank.' }),
    query: SavedQuerySchema,
    alerts: Type.Optional(
      Type.Boolean({
        description:
          "Send the project's webhook endpoints a `saved_search.matched` event for each offer written after now that this search finds (once per offer). Default false.",
      }),
    ),
  },
  { additionalProperties: false, title: 'SavedSearchInput' },
);
export type SavedSearchInput = Static<typeof SavedSearchInputSchema>;

export const SavedSearchSchema = Type.Object(
  {
    id: Type.String({ description: 'Saved-search id, `svs_…`.' }),
    name: Type.String(),
    query: SavedQuerySchema,
    alerts: Type.Boolean({ description: 'Whether new matches are sent as `saved_search.matched` webhooks.' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false, title: 'SavedSearch' },
);

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' });

/** An offer an end user publishes. Id, publisher, status and times are the server's. */
export const OwnOfferInputSchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not blank.' }),
    description: Type.String({ maxLength: 5000 }),
    category: Slug,
    tags: Type.Optional(Type.Array(Slug, { maxItems: 20, uniqueItems: true })),
    location: Type.Object(
      {
        city: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
        region: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
        country: Type.String({ pattern: '^[A-Z]{2}$' }),
        lat: Type.Number({ minimum: -90, maximum: 90 }),
        lon: Type.Number({ minimum: -180, maximum: 180 }),
      },
      { additionalProperties: false },
    ),
    price: Type.Object(
      {
        amount: Type.String({ pattern: '^\\d{1,11}(\\.\\d{1,4})?$', description: 'Decimal string.' }),
        currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      },
      { additionalProperties: false },
    ),
    url: Type.Optional(
      Type.Union([Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' }), Type.Null()]),
    ),
    attributes: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 50 }),
        Type.Union([Type.String({ maxLength: 500 }), Type.Number()]),
        {
          maxProperties: 50,
        },
      ),
    ),
    expiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  },
  { additionalProperties: false, title: 'OwnOfferInput' },
);
export type OwnOfferInput = Static<typeof OwnOfferInputSchema>;
export const OwnOfferPatchSchema = Type.Partial(OwnOfferInputSchema, {
  additionalProperties: false,
  title: 'OwnOfferPatch',
});
export type OwnOfferPatch = Static<typeof OwnOfferPatchSchema>;

export const MAX_FAVORITES = 1000;
export const MAX_SAVED_SEARCHES = 100;
export const MAX_OWN_OFFERS = 1000;

export const UserSessionSchema = Type.Object(
  {
    id: Type.String({
      description: 'Session id, `rtf_…`: the `sid` claim of its access tokens (never a token).',
    }),
    createdAt: Timestamp,
    lastUsedAt: Type.String({
      format: 'date-time',
      description: 'The sign-in, or the last refresh of its tokens.',
    }),
    client: Type.Object(
      {
        keyId: Type.String({ description: 'The API key that signed the user in, `key_…`.' }),
        projectName: Type.String({ description: 'The project of that key.' }),
      },
      { additionalProperties: false },
    ),
    ip: Type.String({ description: 'The address the user signed in from ("" if unknown).' }),
    userAgent: Type.String({
      description: 'The browser that signed in ("" if unknown), at most 300 characters.',
    }),
    current: Type.Boolean({ description: 'Whether the access token of this request belongs to it.' }),
  },
  { additionalProperties: false, title: 'UserSession' },
);
