import { createHash, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KeyRecord } from '../keys/model.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId, randomBase62 } from '../platform/ids.js';
import type { User } from '../users/model.js';
import type { UserStore } from '../users/store.js';
import { type AuthorizationCodeStore, CODE_TTL_MS, hashCode } from './authorization-codes.js';
import type { OAuthRequest } from './login-ticket.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';
import type { LoginOrigin } from './token-families.js';
import type { IssuedTokens, TokenService } from './tokens.js';

/**
 * The rules of the OAuth 2.0 / OpenID Connect door (issue 17): scopes, PKCE, codes,
 * the two grants and the ID token. HTTP lives in oauth-routes.ts; the login itself is the one of
 * `/connect` (login.ts). Every JWT is made by `jose`.
 */
export const SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export type Scope = (typeof SCOPES)[number];

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is the base64url (no padding) of a SHA-256: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CODE = /^vac_[0-9A-Za-z]{43}$/;

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
function parseScopeList(scope: string): Scope[] {
  const parsed = parseScope(scope);
  return parsed.ok ? parsed.scopes : [];
}

const hasScope = (scope: string | null, wanted: Scope) => (scope ?? '').split(' ').includes(wanted);

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

/** RFC 6749 §5.2 error codes this server answers with. */
export type GrantError = {
  ok: false;
  error: 'invalid_grant' | 'unauthorized_client' | 'invalid_request';
  description: string;
};
export type GrantResult = { ok: true; response: TokenResponse } | GrantError;

export interface OAuthService {
  /** After a successful login through `/authorize`: a fresh code for the redirect. */
  issueCode(input: {
    user: User;
    key: KeyRecord;
    redirectUri: string;
    request: OAuthRequest;
    origin: LoginOrigin;
  }): Promise<string>;
  exchangeCode(input: {
    key: KeyRecord;
    code: string;
    redirectUri: string;
    verifier: string;
  }): Promise<GrantResult>;
  refresh(input: { key: KeyRecord; refreshToken: string }): Promise<GrantResult>;
  /** The claims `/userinfo` returns for a verified access token. */
  userinfo(user: User, scope: string | null): Record<string, string>;
}

export function createOAuthService(deps: {
  clock: Clock;
  codes: AuthorizationCodeStore;
  tokens: TokenService;
  refreshTokens: Pick<RefreshTokenStore, 'revokeFamily'>;
  users: Pick<UserStore, 'get'>;
  signingKeys: SigningKeys;
  authUrls: Record<Environment, string>;
}): OAuthService {
  const { clock } = deps;
  const invalidGrant = (description: string): GrantError => ({
    ok: false,
    error: 'invalid_grant',
    description,
  });

  async function idToken(
    user: User,
    key: KeyRecord,
    claims: { nonce: string | null; authTime: number; expiresAt: number },
  ): Promise<string> {
    const signer = await deps.signingKeys.signer(user.environment);
    const iat = Math.floor(clock.now() / 1000);
    return new SignJWT({
      auth_time: Math.floor(claims.authTime / 1000),
      ...(claims.nonce === null ? {} : { nonce: claims.nonce }),
    })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: signer.kid, typ: 'JWT' })
      .setIssuer(deps.authUrls[user.environment])
      .setSubject(user.id)
      .setAudience(key.id)
      .setIssuedAt(iat)
      .setExpirationTime(Math.floor(claims.expiresAt / 1000))
      .sign(signer.privateKey);
  }

  function response(tokens: IssuedTokens): TokenResponse {
    return {
      access_token: tokens.accessToken,
      token_type: 'Bearer',
      expires_in: Math.round((tokens.expiresAt - clock.now()) / 1000),
      scope: tokens.scope ?? '',
      ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
    };
  }

  return {
    async issueCode({ user, key, redirectUri, request, origin }) {
      const code = `vac_${randomBase62(43)}`;
      const now = clock.now();
      await deps.codes.insert({
        codeHash: hashCode(code),
        familyId: newId('rtf'),
        keyId: key.id,
        userId: user.id,
        environment: user.environment,
        redirectUri,
        codeChallenge: request.challenge,
        scope: request.scope,
        nonce: request.nonce,
        authTime: now,
        createdAt: now,
        expiresAt: now + CODE_TTL_MS,
        usedAt: null,
        origin,
      });
      return code;
    },

    async exchangeCode({ key, code, redirectUri, verifier }) {
      const stored = CODE.test(code) ? await deps.codes.find(hashCode(code)) : undefined;
      // One answer for every mismatch: nothing tells a guesser which part was wrong.
      if (!stored || stored.keyId !== key.id || stored.environment !== key.environment) {
        return invalidGrant('The authorization code is not valid for this client.');
      }
      const now = clock.now();
      if (stored.usedAt !== null) {
        // RFC 6749 §4.1.2 and RFC 9700 §4.2.1: a replay means the code leaked; end what it issued.
        await deps.refreshTokens.revokeFamily(stored.familyId, 'code_replayed', now);
        return invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
      }
      if (stored.expiresAt <= now) return invalidGrant('The authorization code has expired.');
      if (stored.redirectUri !== redirectUri) {
        return invalidGrant('The redirect_uri is not the one the authorization code was issued for.');
      }
      if (!verifierMatches(verifier, stored.codeChallenge)) {
        return invalidGrant('The code_verifier does not match the code_challenge.');
      }
      if (!(await deps.codes.consume(stored.codeHash, now))) {
        await deps.refreshTokens.revokeFamily(stored.familyId, 'code_replayed', now);
        return invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
      }
      const user = await deps.users.get(stored.userId);
      if (user?.state !== 'active' || user.environment !== key.environment) {
        return invalidGrant('The user of this authorization code can no longer sign in.');
      }
      // The permission may have been withdrawn since /authorize: the scope says what is granted now.
      const scope = grantedScope(parseScopeList(stored.scope), key);
      const tokens = await deps.tokens.grant(user, key, {
        familyId: stored.familyId,
        scope,
        offline: hasScope(scope, 'offline_access'),
        origin: stored.origin,
      });
      const answer = response(tokens);
      if (hasScope(scope, 'openid')) {
        answer.id_token = await idToken(user, key, {
          nonce: stored.nonce,
          authTime: stored.authTime,
          expiresAt: tokens.expiresAt,
        });
      }
      return { ok: true, response: answer };
    },

    async refresh({ key, refreshToken }) {
      const outcome = await deps.tokens.refresh(refreshToken, key);
      if (!outcome.ok) {
        if (outcome.code === 'refresh_not_permitted') {
          return {
            ok: false,
            error: 'unauthorized_client',
            description: 'This client does not have the refresh permission.',
          };
        }
        return invalidGrant(
          outcome.code === 'refresh_token_expired'
            ? 'The refresh token has expired.'
            : outcome.code === 'refresh_token_revoked'
              ? 'The refresh token has been revoked.'
              : 'The refresh token is not valid for this client.',
        );
      }
      return { ok: true, response: response(outcome.tokens) };
    },

    userinfo(user, scope) {
      return {
        sub: user.id,
        ...(hasScope(scope, 'profile') ? { name: user.name } : {}),
        ...(hasScope(scope, 'email') ? { email: user.email } : {}),
      };
    },
  };
}
