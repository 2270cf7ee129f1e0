import type { KeyRecord } from './model.js';

/**
 * What a key may do (issue 16). A route names the scope it needs; a key
 * without it gets `403 api_key_scope`.
 *
 * - `search`: `GET /offers/`, `GET /offers/{id}`, `GET /offers/facet-values`, `POST /multi-search`,
 *   `GET /attributes`: every key.
 * - `auth`: the auth server (`/connect`, `/refresh`, `/authorize`, `/token`, …): secret keys.
 * - `api`: every other key-protected route of the search API (`/key`, `/me/*`): secret keys.
 *   A route that declares no scope needs this one, so a new route is closed to publishable
 *   keys unless it says otherwise.
 * - `offers:write`: `POST /offers/import`, `DELETE /offers/by-external-id/…`: secret keys the
 *   operator granted it to.
 */
export const SCOPES = ['search', 'auth', 'api', 'offers:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope a key-protected route needs when it declares none. */
export const DEFAULT_ROUTE_SCOPE: Scope = 'api';

export function isPublishable(key: Pick<KeyRecord, 'kind'>): boolean {
  return key.kind === 'publishable';
}

/** The scopes a key holds, in `SCOPES` order (what `GET /v1/key` shows). */
export function keyScopes(key: Pick<KeyRecord, 'kind' | 'writeAllowed'>): Scope[] {
  if (key.kind === 'publishable') return ['search'];
  return key.writeAllowed ? ['search', 'auth', 'api', 'offers:write'] : ['search', 'auth', 'api'];
}

/**
 * Whether the key may use a route needing `scope`. The OAuth endpoints (issue 15) call
 * `hasScope(key, 'auth')` so a publishable key is refused there as at `/connect`.
 */
export function hasScope(key: Pick<KeyRecord, 'kind' | 'writeAllowed'>, scope: Scope): boolean {
  switch (scope) {
    case 'search':
      return true;
    case 'auth':
    case 'api':
      return key.kind === 'secret';
    case 'offers:write':
      return key.kind === 'secret' && key.writeAllowed;
  }
}

/** The `403 api_key_scope` detail for a key lacking `scope`. */
export function scopeRefusal(key: Pick<KeyRecord, 'kind'>, scope: Scope): string {
  if (key.kind === 'publishable') {
    return 'This is a publishable key: it can only search (GET /offers/, GET /offers/{id}, GET /offers/facet-values, POST /multi-search, GET /attributes). Use a secret key, from your server, for anything else.';
  }
  return scope === 'offers:write'
    ? 'This key does not have the offers:write scope. Ask the operator to grant it (vitrine keys grant-write KEY_ID).'
    : `This key does not have the ${scope} scope.`;
}
