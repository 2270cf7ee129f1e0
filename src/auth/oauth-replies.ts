import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_ERRORS } from '../http/oauth-errors.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { OAuthRefusal } from './oauth.js';
import type { AddressBudget } from './token/client-authentication.js';

/** RFC 6749 §5.1: token answers and their errors are never cached. */
export function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/**
 * The one place a refusal of the OAuth door becomes a JSON answer (RFC 6749 §5.2, RFC 6750 §3):
 * status and `error` from `OAUTH_ERRORS`, `WWW-Authenticate: Basic` with `invalid_client`
 * (§5.2 "MUST"), never cached.
 */
export function sendOAuthError(reply: FastifyReply, refusal: Pick<OAuthRefusal, 'error' | 'description'>) {
  const entry = OAUTH_ERRORS[refusal.error];
  if (refusal.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="vitrine"');
  noStore(reply);
  return reply
    .code(entry.status)
    .type('application/json')
    .send(JSON.stringify({ error: entry.error, error_description: refusal.description }));
}

/** The address budget of bad keys (limits/request-limits.ts) of this request, for the client check. */
export function addressBudget(limits: RequestLimits | undefined, request: FastifyRequest): AddressBudget {
  return {
    check: () => limits?.checkAddress(request),
    failed: () => limits?.addressFailed(request),
  };
}
