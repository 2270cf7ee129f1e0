import type { Clock } from '../../platform/clock.js';
import { type Grant, oauthRefusal, tokenResponse } from '../oauth.js';
import type { TokenService } from '../tokens.js';

/** Why a refresh token was refused, as `/token` says it (RFC 6749 §5.2: all `invalid_grant`). */
const INVALID_GRANT: Record<string, string> = {
  refresh_token_expired: 'The refresh token has expired.',
  refresh_token_revoked: 'The refresh token has been revoked.',
};

/**
 * `grant_type=refresh_token` (RFC 6749 §6): the same refresh as `/refresh` (tokens.ts), rotation
 * and reuse detection included; a key without the refresh permission is `unauthorized_client`.
 */
export function refreshTokenGrant(deps: { clock: Clock; tokens: Pick<TokenService, 'refresh'> }): Grant {
  return async (key, form) => {
    if (!form.refresh_token) return oauthRefusal('invalid_request', 'Send refresh_token.');
    const outcome = await deps.tokens.refresh(form.refresh_token, key);
    if (outcome.ok) return { ok: true, response: tokenResponse(outcome.tokens, deps.clock.now()) };
    if (outcome.code === 'refresh_not_permitted') {
      return oauthRefusal('unauthorized_client', 'This client does not have the refresh permission.');
    }
    return oauthRefusal(
      'invalid_grant',
      INVALID_GRANT[outcome.code] ?? 'The refresh token is not valid for this client.',
    );
  };
}
