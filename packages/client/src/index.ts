/**
 * `@vitrine/client`: the TypeScript client of the Vitrine offer search API.
 *
 * @example
 * ```ts
 * import { Vitrine, VitrineError } from '@vitrine/client';
 * const vitrine = new Vitrine({ baseUrl: 'http://localhost:8081/v1', apiKey: 'vk_test_…' });
 * for await (const offer of vitrine.offers.searchAll({ q: 'bike' })) console.log(offer.title);
 * ```
 */
export { Vitrine, type VitrineOptions } from './client.js';
export { VitrineError } from './errors.js';
export {
  type AuthorizationRequest,
  authorizationUrl,
  type CodeExchange,
  createPkce,
  exchangeCode,
  type Pkce,
  type TokenResponse,
} from './oauth.js';
export type {
  ErrorCode,
  FacetValuesParams,
  FacetValuesResponse,
  Favorites,
  KeyInfo,
  Me,
  MultiSearchQuery,
  MultiSearchResponse,
  Offer,
  OwnOfferInput,
  OwnOfferPatch,
  OwnOffers,
  Problem,
  SavedSearch,
  SavedSearches,
  SavedSearchInput,
  SearchHit,
  SearchParams,
  SearchResponse,
  UserSession,
  UserSessions,
} from './types.js';
export { type AsUserOptions, type CallOptions, type UserTokens, VitrineUser } from './user.js';
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.js';
