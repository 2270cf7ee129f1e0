import type { components, paths } from './generated/openapi.js';

/**
 * Request and response types of the Vitrine API, taken from the OpenAPI document the server
 * serves (generated into ./generated/openapi.ts), so they cannot drift from the server.
 */
type Schemas = components['schemas'];
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Ok<O> = O extends { responses: infer R }
  ? R extends { 200: infer S }
    ? Json<S>
    : R extends { 201: infer S }
      ? Json<S>
      : never
  : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Search parameters of `GET {base_url}/offers/`; the key is sent by the client. */
export type SearchParams = Omit<Query<Get<'/offers/'>>, 'apiKey'>;
/** One page of search results: `data`, exact `total`, `facets`, `nextCursor`. */
export type SearchResponse = Schemas['SearchResponse'];
/** A search hit: an offer, with `highlight` when asked for. */
export type SearchHit = Schemas['SearchHit'];
/** An offer. */
export type Offer = Schemas['Offer'];
/** Parameters of `GET {base_url}/offers/facet-values`: a search's filters, `facet`, `prefix`, `limit`. */
export type FacetValuesParams = Omit<Query<Get<'/offers/facet-values'>>, 'apiKey'>;
/** The values of a facet within a search's results, most frequent first, with exact counts. */
export type FacetValuesResponse = Schemas['FacetValuesResponse'];
type PostOf<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type MultiSearchBody = JsonBody<PostOf<'/multi-search'>>;
/** One search of a multi-search: the parameters of `search`, `category` and `tag` as one value or a list. */
export type MultiSearchQuery = MultiSearchBody extends { queries: (infer Q)[] } ? Q : never;
/** `POST {base_url}/multi-search`'s answer: one search response per query, in order. */
export type MultiSearchResponse = Ok<PostOf<'/multi-search'>>;
/** The calling key's public facts (`GET {base_url}/key`). */
export type KeyInfo = Schemas['CallingKey'];
/** The signed-in end user (`GET {base_url}/me`). */
export type Me = Schemas['Me'];
export type Favorites = Ok<Get<'/me/favorites'>>;
export type SavedSearches = Ok<Get<'/me/saved-searches'>>;
export type SavedSearchInput = Schemas['SavedSearchInput'];
export type SavedSearch = Schemas['SavedSearch'];
export type OwnOffers = Ok<Get<'/me/offers'>>;
/** The user's active sessions (`GET {base_url}/me/sessions`). */
export type UserSessions = Ok<Get<'/me/sessions'>>;
/** One login of the user: created, last used, client, address, user agent, `current`. */
export type UserSession = Schemas['UserSession'];
export type OwnOfferInput = Schemas['OwnOfferInput'];
export type OwnOfferPatch = Schemas['OwnOfferPatch'];
/** `{auth_url}/refresh`'s answer. */
export type RefreshResponse = Ok<Get<'/refresh'>>;
/** The problem+json body of every error (RFC 9457 + `code`, `requestId`, `errors`). */
export type Problem = Schemas['Problem'];
/** The stable error codes the API answers with (docs/errors.md). */
export type ErrorCode = Problem['code'];
