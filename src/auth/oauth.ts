import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuthErrorCode } from '../http/oauth-errors.js';
import type { KeyRecord } from '../keys/model.js';
import type { IssuedTokens } from './tokens.js';

/**
 * The rules of the OAuth 2.0 / OpenID Connect door (issue 17): scopes, PKCE, the token answer and
 * the result every step of the door returns. The steps themselves are one file each, in
 * authorize/ and token/ (issue 26); oauth-service.ts puts the grants together; HTTP lives in
 * oauth-routes.ts; the login itself is the one of `/connect` (login.ts).
 */
export const SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export type Scope = (typeof SCOPES)[number];

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is the base64url (no padding) of a SHA-256: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export type ScopeCheck = { ok: true; scopes: Scope[] } | { ok: false; unknown: string };

/** A requested `scope` (space-separated, RFC 6749 §3.3); unknown values are refused, not dropped. */
export function parseScope(raw: string | undefined): ScopeCheck {
  const scopes: Scope[] = [];
  for (const value of (raw ?? '').split(' ')) {
    if (value === '') continue;
    if (!(SCOPES as readonly string[]).includes(value)) return { ok: false, unknown: value };
    if (!scopes.includes(value as Scope)) scopes.push(value as Scope);
  }
  return { ok: true, scopes };
}

/** The scope granted: `offline_access` only for a key with the refresh permission. */
export function grantedScope(scopes: readonly Scope[], key: KeyRecord): string {
  return scopes.filter((s) => s !== 'offline_access' || key.refreshAllowed).join(' ');
}

/** A stored scope (validated when it was granted). */
export function parseScopeList(scope: string): Scope[] {
  const parsed = parseScope(scope);
  return parsed.ok ? parsed.scopes : [];
}

export const scopeIncludes = (scope: string | null, wanted: Scope) =>
  (scope ?? '').split(' ').includes(wanted);

/** RFC 7636 §4.6, S256 only. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

/** RFC 6749 §5.1: the answer of `/token` for tokens issued at `now` (epoch ms). */
export function tokenResponse(tokens: IssuedTokens, now: number): TokenResponse {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: Math.round((tokens.expiresAt - now) / 1000),
    scope: tokens.scope ?? '',
    ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
  };
}

/**
 * What a step of the door answers when it refuses: a stable code of the OAuth error table
 * (`OAUTH_ERRORS`, http/errors.ts) and the sentence for `error_description`. Steps return it;
 * they never throw an HTTP error.
 */
export interface OAuthRefusal {
  ok: false;
  error: OAuthErrorCode;
  description: string;
}

export const oauthRefusal = (error: OAuthErrorCode, description: string): OAuthRefusal => ({
  ok: false,
  error,
  description,
});

/** A step's answer: go on (with what it read), or the refusal. */
export type StepResult<T extends object = object> = ({ ok: true } & T) | OAuthRefusal;

export type GrantResult = { ok: true; response: TokenResponse } | OAuthRefusal;

/** The form of a `/token` request: each parameter once (token/token-form.ts). */
export type TokenForm = Readonly<Record<string, string | undefined>>;

/** The grant types `/token` serves (RFC 6749 §4.1.3, §6), one file each in token/. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** One grant type of `/token` (RFC 6749 §4): for an authenticated client, its form → tokens. */
export type Grant = (key: KeyRecord, form: TokenForm) => Promise<GrantResult>;
