import { createHash, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { KeyRecord } from '../keys/model.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId, randomBase62 } from '../platform/ids.js';
import type { User } from '../users/model.js';
import type { UserStore } from '../users/store.js';
import type { RefreshTokenRecord, RefreshTokenStore } from './refresh-token-store.js';
import type { RevokedFamilies } from './revoked-families.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';
import type { LoginOrigin } from './token-families.js';

/**
 * Access tokens (JWT) and refresh tokens (opaque, hashed, bound to user + key +
 * environment). All JWT work is done by `jose`; this module decides what goes in and what is
 * accepted.
 */

/** Clock skew accepted on `exp` and `nbf`, documented in docs/auth.md. */
export const CLOCK_SKEW_SECONDS = 60;
/** RFC 9068 media type of JWT access tokens; a token without it (an ID token, say) is refused. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

const REFRESH_TOKEN = /^vrt_[0-9A-Za-z]{43}$/;

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  client_id: string;
  env: Environment;
  iat: number;
  exp: number;
  jti: string;
  /** Session version: the user's password-change time when the token was issued. */
  sv: number;
  /**
   * The token family (login) the token was issued from: revoking the family ends the token
   * within 1 s. Absent only from tokens issued before version 60.
   */
  sid?: string;
  /** The OAuth scope granted (space-separated); absent for `/connect` logins. */
  scope?: string;
}

export interface IssuedTokens {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Null when the key may not hold refresh tokens, or with rotation off on refresh. */
  refreshToken: string | null;
  /** The family (one login) the tokens belong to: the `sid` claim. */
  familyId: string;
  /** The OAuth scope granted; null for `/connect`. */
  scope: string | null;
}

export type AccessCheck =
  | { ok: true; user: User; claims: AccessTokenClaims }
  | { ok: false; code: 'token_expired' | 'token_invalid'; reason: string };

export type RefreshOutcome =
  | { ok: true; tokens: IssuedTokens; user: User }
  | {
      ok: false;
      code:
        | 'refresh_not_permitted'
        | 'refresh_token_invalid'
        | 'refresh_token_expired'
        | 'refresh_token_revoked';
    };

export interface TokenService {
  /** After a successful login: an access token, and a refresh token when the key may refresh. */
  login(user: User, key: KeyRecord, origin: LoginOrigin): Promise<IssuedTokens>;
  /**
   * An OAuth grant (authorization code exchanged): the family id was chosen when the
   * code was issued, so a replayed code can revoke it; a refresh token only when `offline` was
   * granted and the key has the refresh permission.
   */
  grant(
    user: User,
    key: KeyRecord,
    grant: { familyId: string; scope: string; offline: boolean; origin: LoginOrigin },
  ): Promise<IssuedTokens>;
  refresh(rawToken: string, key: KeyRecord): Promise<RefreshOutcome>;
  /**
   * RFC 7009: revokes the token's family when it belongs to this key; silently ignores anything
   * else. A refresh token, or (issue 26) an access token: a valid one of this key ends its whole
   * login (the family named by its `sid`), its refresh tokens and access tokens alike.
   */
  revoke(rawToken: string, key: KeyRecord): Promise<void>;
  verifyAccessToken(raw: string, expected: { environment: Environment; keyId: string }): Promise<AccessCheck>;
}

export interface TokenSettings {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  rotation: boolean;
  reuseGraceMs: number;
  /** `{auth_url}` and `{base_url}` per environment: `iss` and `aud`. */
  authUrls: Record<Environment, string>;
  baseUrls: Record<Environment, string>;
}

export function createTokenService(deps: {
  clock: Clock;
  signingKeys: SigningKeys;
  refreshTokens: RefreshTokenStore;
  users: UserStore;
  settings: TokenSettings;
  revokedFamilies: RevokedFamilies;
}): TokenService {
  const { clock, settings } = deps;

  async function accessToken(
    user: User,
    key: KeyRecord,
    familyId: string,
    scope: string | null,
  ): Promise<{ token: string; expiresAt: number }> {
    const signer = await deps.signingKeys.signer(user.environment);
    const iat = Math.floor(clock.now() / 1000);
    const exp = iat + Math.floor(settings.accessTokenTtlMs / 1000);
    const claims = {
      client_id: key.id,
      env: user.environment,
      sv: user.passwordChangedAt,
      sid: familyId,
      ...(scope === null ? {} : { scope }),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: signer.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(settings.authUrls[user.environment])
      .setSubject(user.id)
      .setAudience(settings.baseUrls[user.environment])
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(signer.privateKey);
    return { token, expiresAt: exp * 1000 };
  }

  async function newRefreshToken(
    user: User,
    key: KeyRecord,
    familyId: string,
    scope: string | null,
  ): Promise<string> {
    const token = `vrt_${randomBase62(43)}`;
    const now = clock.now();
    const record: RefreshTokenRecord = {
      id: newId('rtk'),
      tokenHash: hashRefreshToken(token),
      familyId,
      userId: user.id,
      keyId: key.id,
      environment: user.environment,
      createdAt: now,
      expiresAt: now + settings.refreshTokenTtlMs,
      usedAt: null,
      revokedAt: null,
      revokedReason: null,
      scope,
    };
    await deps.refreshTokens.insert(record);
    return token;
  }

  /** The stored token for `raw` if it is well-formed and was issued to this key in its environment. */
  async function ownToken(raw: string, key: KeyRecord): Promise<RefreshTokenRecord | undefined> {
    if (!REFRESH_TOKEN.test(raw)) return undefined;
    const record = await deps.refreshTokens.findByHash(hashRefreshToken(raw));
    if (!record || record.keyId !== key.id || record.environment !== key.environment) return undefined;
    return record;
  }

  /** When the last token just issued expires: the family (session) lives at least that long. */
  const lastExpiry = (issued: { expiresAt: number; refreshToken: string | null }) =>
    Math.max(issued.expiresAt, issued.refreshToken ? clock.now() + settings.refreshTokenTtlMs : 0);

  /** A login's first tokens, and its session (`user_sessions`) recorded. */
  async function openFamily(
    user: User,
    key: KeyRecord,
    grant: { familyId: string; scope: string | null; refresh: boolean; origin: LoginOrigin },
  ): Promise<IssuedTokens> {
    const { familyId, scope } = grant;
    const access = await accessToken(user, key, familyId, scope);
    const refreshToken = grant.refresh ? await newRefreshToken(user, key, familyId, scope) : null;
    const issued = { accessToken: access.token, expiresAt: access.expiresAt, refreshToken, familyId, scope };
    await deps.refreshTokens.recordFamily({
      familyId,
      userId: user.id,
      keyId: key.id,
      environment: user.environment,
      at: clock.now(),
      expiresAt: lastExpiry(issued),
      origin: grant.origin,
    });
    return issued;
  }

  return {
    login: (user, key, origin) =>
      openFamily(user, key, { familyId: newId('rtf'), scope: null, refresh: key.refreshAllowed, origin }),

    grant: (user, key, { familyId, scope, offline, origin }) =>
      openFamily(user, key, { familyId, scope, refresh: offline && key.refreshAllowed, origin }),

    async refresh(raw, key) {
      if (!key.refreshAllowed) return { ok: false, code: 'refresh_not_permitted' };
      const record = await ownToken(raw, key);
      if (!record) return { ok: false, code: 'refresh_token_invalid' };
      const now = clock.now();
      if (record.revokedAt !== null) return { ok: false, code: 'refresh_token_revoked' };
      if (record.expiresAt <= now) return { ok: false, code: 'refresh_token_expired' };
      const user = await deps.users.get(record.userId);
      if (user?.state !== 'active' || user.environment !== key.environment) {
        await deps.refreshTokens.revokeFamily(record.familyId, 'user_disabled', now);
        return { ok: false, code: 'refresh_token_revoked' };
      }
      let refreshToken: string | null = null;
      if (settings.rotation) {
        const first = await deps.refreshTokens.markUsed(record.id, now);
        if (!first) {
          // Spent already. Inside the grace period this is a retry or a concurrent refresh;
          // after it, somebody replays a stolen token: end the whole family (RFC 9700 §4.14.2).
          const spentAt = (await deps.refreshTokens.findByHash(record.tokenHash))?.usedAt ?? now;
          if (now - spentAt > settings.reuseGraceMs) {
            await deps.refreshTokens.revokeFamily(record.familyId, 'reuse_detected', now);
            return { ok: false, code: 'refresh_token_revoked' };
          }
        }
        refreshToken = await newRefreshToken(user, key, record.familyId, record.scope);
      }
      const access = await accessToken(user, key, record.familyId, record.scope);
      await deps.refreshTokens.touchFamily(
        record.familyId,
        now,
        lastExpiry({ expiresAt: access.expiresAt, refreshToken }),
      );
      return {
        ok: true,
        user,
        tokens: {
          accessToken: access.token,
          expiresAt: access.expiresAt,
          refreshToken,
          familyId: record.familyId,
          scope: record.scope,
        },
      };
    },

    async revoke(raw, key) {
      if (raw.split('.').length === 3) {
        const access = await this.verifyAccessToken(raw, { environment: key.environment, keyId: key.id });
        const sid = access.ok ? access.claims.sid : undefined;
        if (typeof sid === 'string')
          await deps.refreshTokens.revokeFamily(sid, 'revoked_by_client', clock.now());
        return;
      }
      const record = await ownToken(raw, key);
      if (record) await deps.refreshTokens.revokeFamily(record.familyId, 'revoked_by_client', clock.now());
    },

    async verifyAccessToken(raw, expected) {
      const { environment } = expected;
      let claims: AccessTokenClaims;
      try {
        const verified = await jwtVerify<AccessTokenClaims>(
          raw,
          async (header) => {
            const key = header.kid ? await deps.signingKeys.publicKey(environment, header.kid) : undefined;
            if (!key) throw new UnknownSigningKey();
            return key;
          },
          {
            algorithms: [SIGNING_ALGORITHM],
            typ: ACCESS_TOKEN_TYPE,
            issuer: settings.authUrls[environment],
            audience: settings.baseUrls[environment],
            requiredClaims: ['sub', 'iat', 'exp', 'jti', 'client_id', 'env', 'sv'],
            clockTolerance: CLOCK_SKEW_SECONDS,
            currentDate: new Date(clock.now()),
          },
        );
        claims = verified.payload;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired)
          return { ok: false, code: 'token_expired', reason: 'expired' };
        if (error instanceof UnknownSigningKey)
          return { ok: false, code: 'token_invalid', reason: 'unknown kid' };
        return { ok: false, code: 'token_invalid', reason: (error as { code?: string }).code ?? 'malformed' };
      }
      if (claims.env !== environment) return { ok: false, code: 'token_invalid', reason: 'environment' };
      if (claims.client_id !== expected.keyId)
        return { ok: false, code: 'token_invalid', reason: 'other key' };
      const user = await deps.users.get(claims.sub);
      if (!user || user.environment !== environment || user.state !== 'active') {
        return { ok: false, code: 'token_invalid', reason: 'user' };
      }
      // A password change ends every session: the token must carry the user's current session
      // version (the time of the last password change, exact to the millisecond).
      if (claims.sv !== user.passwordChangedAt) {
        return { ok: false, code: 'token_invalid', reason: 'issued before password change' };
      }
      // The family was revoked (by the client, reuse detected, key or permission
      // revoked, a replayed authorization code): its access tokens end with it.
      if (typeof claims.sid === 'string' && (await deps.revokedFamilies.isRevoked(claims.sid))) {
        return { ok: false, code: 'token_invalid', reason: 'family revoked' };
      }
      return { ok: true, user, claims };
    },
  };
}

class UnknownSigningKey extends Error {}
