import type { KeyRecord } from '../keys/model.js';
import { newId, randomBase62 } from '../platform/ids.js';
import type { User } from '../users/model.js';
import { CODE_TTL_MS, hashCode } from './authorization-codes.js';
import type { IdTokenDeps } from './id-token.js';
import type { OAuthRequest } from './login-ticket.js';
import { type Grant, type GrantType, scopeIncludes } from './oauth.js';
import { type AuthorizationCodeGrantDeps, authorizationCodeGrant } from './token/authorization-code-grant.js';
import { refreshTokenGrant } from './token/refresh-token-grant.js';
import type { LoginOrigin } from './token-families.js';
import type { TokenService } from './tokens.js';

export interface OAuthService {
  /** After a successful login through `/authorize`: a fresh code for the redirect. */
  issueCode(input: {
    user: User;
    key: KeyRecord;
    redirectUri: string;
    request: OAuthRequest;
    origin: LoginOrigin;
  }): Promise<string>;
  /** The grants of `/token`, by `grant_type`. */
  grants: Record<GrantType, Grant>;
  /** The claims `/userinfo` returns for a verified access token. */
  userinfo(user: User, scope: string | null): Record<string, string>;
}

/** The OAuth door's service (issue 17): codes, the grants of token/, the userinfo claims. */
export function createOAuthService(
  deps: AuthorizationCodeGrantDeps & IdTokenDeps & { tokens: Pick<TokenService, 'grant' | 'refresh'> },
): OAuthService {
  const { clock } = deps;
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

    grants: {
      authorization_code: authorizationCodeGrant(deps),
      refresh_token: refreshTokenGrant(deps),
    },

    userinfo(user, scope) {
      return {
        sub: user.id,
        ...(scopeIncludes(scope, 'profile') ? { name: user.name } : {}),
        ...(scopeIncludes(scope, 'email') ? { email: user.email } : {}),
      };
    },
  };
}
