import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/errors.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';
import type { TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The end user of a verified bearer token; set by the bearer guard. */
    endUser: User | null;
    /** The login (token family, `sid`) the bearer token belongs to; set by the bearer guard. */
    endUserSession: string | null;
  }
}

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is a compact JWS.
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+) *$/i;

/** The access token of an `Authorization: Bearer` header (RFC 6750 §2.1), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1];
}

/**
 * onRequest hook for end-user routes, after the API-key guard: the access token must
 * verify and must have been obtained by the very key of this request.
 */
export function bearerGuard(tokens: TokenService, environment: Environment) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const key = request.apiKey;
    if (!key) throw new Error('bearerGuard needs the API-key guard to run first');
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      throw new ProblemError('token_missing', 'Send the access token as Authorization: Bearer <token>.', {
        headers: { 'www-authenticate': 'Bearer realm="vitrine"' },
      });
    }
    const token = bearerToken(header);
    const check = token
      ? await tokens.verifyAccessToken(token, { environment, keyId: key.id })
      : ({ ok: false, code: 'token_invalid', reason: 'malformed' } as const);
    if (check.ok) {
      request.endUser = check.user;
      request.endUserSession = check.claims.sid ?? null;
      return;
    }
    if (check.code === 'token_expired') {
      throw new ProblemError(
        'token_expired',
        'The access token expired. Refresh it or sign the user in again.',
        {
          headers: {
            'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"',
          },
        },
      );
    }
    throw new ProblemError(
      'token_invalid',
      'The access token is not valid for this API key and environment.',
      {
        headers: {
          'www-authenticate': 'Bearer error="invalid_token", error_description="The access token is invalid"',
        },
      },
    );
  };
}
