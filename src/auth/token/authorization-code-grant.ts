import type { UserStore } from '../../users/store.js';
import { type AuthorizationCodeStore, CODE_FORMAT, hashCode } from '../authorization-codes.js';
import { type IdTokenDeps, signIdToken } from '../id-token.js';
import {
  type Grant,
  grantedScope,
  oauthRefusal,
  parseScopeList,
  scopeIncludes,
  tokenResponse,
  verifierMatches,
} from '../oauth.js';
import type { RefreshTokenStore } from '../refresh-token-store.js';
import type { TokenService } from '../tokens.js';

export interface AuthorizationCodeGrantDeps extends IdTokenDeps {
  codes: AuthorizationCodeStore;
  tokens: Pick<TokenService, 'grant'>;
  refreshTokens: Pick<RefreshTokenStore, 'revokeFamily'>;
  users: Pick<UserStore, 'get'>;
}

const invalidGrant = (description: string) => oauthRefusal('invalid_grant', description);

/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.5): a code issued to this client,
 * for this redirect URI and PKCE verifier, used once, within its minute → tokens, and an ID token
 * with `openid`.
 */
export function authorizationCodeGrant(deps: AuthorizationCodeGrantDeps): Grant {
  const { clock } = deps;
  const replayed = async (familyId: string, now: number) => {
    // RFC 6749 §4.1.2 and RFC 9700 §4.2.1: a replay means the code leaked; end what it issued.
    await deps.refreshTokens.revokeFamily(familyId, 'code_replayed', now);
    return invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
  };

  return async (key, form) => {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
    if (!code || !redirectUri || !verifier) {
      return oauthRefusal('invalid_request', 'Send code, redirect_uri and code_verifier.');
    }
    const stored = CODE_FORMAT.test(code) ? await deps.codes.find(hashCode(code)) : undefined;
    // One answer for every mismatch: nothing tells a guesser which part was wrong.
    if (!stored || stored.keyId !== key.id || stored.environment !== key.environment) {
      return invalidGrant('The authorization code is not valid for this client.');
    }
    const now = clock.now();
    if (stored.usedAt !== null) return replayed(stored.familyId, now);
    if (stored.expiresAt <= now) return invalidGrant('The authorization code has expired.');
    if (stored.redirectUri !== redirectUri) {
      return invalidGrant('The redirect_uri is not the one the authorization code was issued for.');
    }
    if (!verifierMatches(verifier, stored.codeChallenge)) {
      return invalidGrant('The code_verifier does not match the code_challenge.');
    }
    if (!(await deps.codes.consume(stored.codeHash, now))) return replayed(stored.familyId, now);
    const user = await deps.users.get(stored.userId);
    if (user?.state !== 'active' || user.environment !== key.environment) {
      return invalidGrant('The user of this authorization code can no longer sign in.');
    }
    // The permission may have been withdrawn since /authorize: the scope says what is granted now.
    const scope = grantedScope(parseScopeList(stored.scope), key);
    const tokens = await deps.tokens.grant(user, key, {
      familyId: stored.familyId,
      scope,
      offline: scopeIncludes(scope, 'offline_access'),
      origin: stored.origin,
    });
    const answer = tokenResponse(tokens, clock.now());
    if (scopeIncludes(scope, 'openid')) {
      answer.id_token = await signIdToken(deps, user, key, {
        nonce: stored.nonce,
        authTime: stored.authTime,
        expiresAt: tokens.expiresAt,
      });
    }
    return { ok: true, response: answer };
  };
}
