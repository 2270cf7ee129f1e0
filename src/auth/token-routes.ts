import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { extractApiKey } from '../http/credentials.js';
import { ProblemError } from '../http/errors.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { KeyRecord } from '../keys/model.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { addressBudget, noStore, sendOAuthError } from './oauth-replies.js';
import { authenticateClient } from './token/client-authentication.js';
import type { TokenService } from './tokens.js';

export interface TokenRouteDeps {
  environment: Environment;
  clock: Clock;
  verifier: KeyVerifier;
  tokens: TokenService;
  jwks: () => Promise<unknown>;
  guard: onRequestHookHandler;
  limits?: RequestLimits;
}

/** `/refresh`, `/revoke` and the JWKS: JSON endpoints for clients, errors as problem+json. */
export function tokenRoutes(app: FastifyInstance, deps: TokenRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const TokenResponse = Type.Object(
    {
      access_token: Type.String(),
      token_type: Type.Literal('Bearer'),
      expires_in: Type.Integer({ description: 'Seconds until the access token expires.' }),
      expires_at: Type.String({ format: 'date-time' }),
      refresh_token: Type.Optional(
        Type.String({
          description:
            'Only with `REFRESH_TOKEN_ROTATION=on`: the next refresh token; the one sent is spent.',
        }),
      ),
    },
    { additionalProperties: false },
  );
  const refreshParam = Type.String({ minLength: 1, maxLength: 200, description: 'The refresh token.' });
  const apiKeyParam = Type.Optional(
    Type.String({ description: 'Your API key (prefer the `X-Api-Key` header).' }),
  );

  async function refresh(key: KeyRecord, token: string, reply: FastifyReply) {
    const outcome = await deps.tokens.refresh(token, key);
    noStore(reply);
    if (!outcome.ok)
      throw new ProblemError(outcome.code, REFRESH_DETAILS[outcome.code] ?? 'The refresh was refused.');
    const now = deps.clock.now();
    return {
      access_token: outcome.tokens.accessToken,
      token_type: 'Bearer' as const,
      expires_in: Math.round((outcome.tokens.expiresAt - now) / 1000),
      expires_at: new Date(outcome.tokens.expiresAt).toISOString(),
      ...(outcome.tokens.refreshToken ? { refresh_token: outcome.tokens.refreshToken } : {}),
    };
  }

  const refreshSchema = {
    tags: ['auth'],
    summary: 'Get a new access token with a refresh token',
    description:
      'Needs the key that obtained the refresh token, with the refresh permission. With `REFRESH_TOKEN_ROTATION=on` the answer carries the next refresh token and the one sent is spent.',
    security: API_KEY_SECURITY,
    response: { 200: TokenResponse, ...problemResponses(400, 401, 403) },
  };

  api.get(
    '/auth/refresh',
    {
      onRequest: deps.guard,
      schema: {
        ...refreshSchema,
        operationId: 'refreshAccessToken',
        querystring: Type.Object(
          { apiKey: apiKeyParam, refresh: refreshParam },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => refresh(request.apiKey as KeyRecord, request.query.refresh, reply),
  );

  api.post(
    '/auth/refresh',
    {
      onRequest: deps.guard,
      schema: {
        ...refreshSchema,
        operationId: 'refreshAccessTokenWithForm',
        querystring: Type.Object({ apiKey: apiKeyParam }, { additionalProperties: false }),
        body: Type.Object({ refresh: refreshParam }, { additionalProperties: false }),
        consumes: ['application/x-www-form-urlencoded'],
      },
    },
    async (request, reply) => refresh(request.apiKey as KeyRecord, request.body.refresh, reply),
  );

  // RFC 7009 as before with the API key (X-Api-Key or apiKey); OAuth clients may
  // authenticate as at /token instead (client_secret_basic or client_secret_post).
  const keyOrClient: onRequestHookHandler = function (request, reply, done) {
    let hasKey: boolean;
    try {
      hasKey = extractApiKey(request) !== null;
    } catch {
      hasKey = true; // two keys: the guard names the conflict
    }
    const header = request.headers.authorization;
    if (!hasKey && (header === undefined || /^Basic\b/i.test(header))) {
      done();
      return;
    }
    deps.guard.call(this, request, reply, done);
  };

  api.post(
    '/auth/revoke',
    {
      onRequest: keyOrClient,
      schema: {
        tags: ['auth'],
        summary: 'Revoke a refresh or access token (RFC 7009)',
        operationId: 'revokeToken',
        description:
          'Revokes the refresh token, or the access token, and every token of the same login (rotated refresh tokens and their access tokens) within 1 s. Answers 200 also for unknown tokens or tokens of another key (which it leaves alone), as RFC 7009 asks. OAuth clients may authenticate as at `/token` instead of sending the API key.',
        security: API_KEY_SECURITY,
        querystring: Type.Object({ apiKey: apiKeyParam }, { additionalProperties: false }),
        body: Type.Object(
          {
            // An access token (a JWT) is longer than a refresh token: RFC 7009 revokes both.
            token: Type.String({ minLength: 1, maxLength: 4096 }),
            token_type_hint: Type.Optional(Type.String({ maxLength: 50 })),
            client_id: Type.Optional(Type.String({ maxLength: 100 })),
            client_secret: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        consumes: ['application/x-www-form-urlencoded'],
        response: {
          200: Type.Object({}, { additionalProperties: false, description: 'Always an empty object.' }),
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      let key = request.apiKey;
      if (!key && request.headers.authorization === undefined && request.body.client_secret === undefined) {
        throw new ProblemError('api_key_missing', 'Send your API key in the X-Api-Key header.');
      }
      if (!key) {
        const client = await authenticateClient(
          {
            authorization: request.headers.authorization,
            form: request.body,
            budget: addressBudget(deps.limits, request),
          },
          deps,
        );
        if (!client.ok) return sendOAuthError(reply as FastifyReply, client);
        key = client.key;
      }
      await deps.tokens.revoke(request.body.token, key);
      noStore(reply);
      return {};
    },
  );

  api.get(
    '/auth/.well-known/jwks.json',
    {
      schema: {
        tags: ['auth'],
        summary: 'Public keys that verify access tokens (JWKS)',
        operationId: 'getJwks',
        description:
          'Ed25519 keys (`kty` OKP, `alg` EdDSA). A rotated-out key stays listed until every token it signed has expired.',
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return deps.jwks();
    },
  );
}

const REFRESH_DETAILS: Record<string, string> = {
  refresh_not_permitted: 'This API key does not have the refresh permission.',
  refresh_token_invalid: 'This refresh token is not valid for this API key.',
  refresh_token_expired: 'This refresh token has expired.',
  refresh_token_revoked: 'This refresh token has been revoked.',
};
