import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { decodeJwt } from 'jose';
import { extractApiKey } from '../http/credentials.js';
import { ERRORS } from '../http/errors.js';
import { OAUTH_ERRORS } from '../http/oauth-errors.js';
import { toProblem } from '../http/problem.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLimits } from '../limits/request-limits.js';
import { authorizeRequest } from './authorize/authorize-request.js';
import { bearerToken } from './bearer-guard.js';
import { type LoginFlow, redirectWithError } from './login.js';
import { sendLoginPage, sendRefusal } from './login-routes.js';
import { GRANT_TYPES, SCOPES } from './oauth.js';
import { addressBudget, noStore, sendOAuthError } from './oauth-replies.js';
import type { OAuthService } from './oauth-service.js';
import {
  AUTHORIZE_ROUTE,
  DISCOVERY_ROUTE,
  TOKEN_ROUTE,
  USERINFO_GET_ROUTE,
  USERINFO_POST_ROUTE,
} from './route-docs.js';
import { SIGNING_ALGORITHM } from './signing-keys.js';
import { tokenRequest } from './token/token-request.js';
import type { TokenService } from './tokens.js';

/**
 * The standard door (issue 17): discovery, `/authorize`, `/token` and `/userinfo`.
 * `/authorize` ends on the login page of `/connect` (login.ts); `/revoke` and the JWKS are the
 * token routes'. Errors follow the RFCs, not problem+json: HTML pages when the client or its
 * redirect URI cannot be trusted, redirects with `error` (RFC 6749 §4.1.2.1) once they can, and
 * `{"error": …}` JSON at `/token` (§5.2) and `/userinfo` (RFC 6750 §3). The checks of
 * `/authorize` and the grants of `/token` are named steps returning results (authorize/, token/,
 * issue 26); the handlers below turn those results into answers, each in one place.
 */
export interface OAuthRouteDeps {
  environment: 'production' | 'testing';
  origin: string;
  signupEnabled: boolean;
  flow: LoginFlow;
  oauth: OAuthService;
  tokens: TokenService;
  verifier: KeyVerifier;
  limits?: RequestLimits;
}

export function discoveryDocument(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    revocation_endpoint: `${issuer}/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    // Not a registered name (RFC 8414 §2 allows more): what `/revoke` accepts; either ends the login.
    revocation_token_types_supported: ['refresh_token', 'access_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'name', 'email'],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

export async function oauthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  const issuer = `${deps.origin}/auth`;
  const document = discoveryDocument(issuer);

  // OIDC Discovery §4 (issuer + suffix), and RFC 8414 §3 both ways (suffix on the issuer, and
  // the well-known path inserted before the issuer's path).
  for (const path of [
    '/auth/.well-known/openid-configuration',
    '/auth/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/auth',
  ]) {
    const documented = path === '/auth/.well-known/openid-configuration';
    const options: RouteShorthandOptions = documented ? DISCOVERY_ROUTE : { schema: { hide: true } };
    app.get(path, options, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return document;
    });
  }

  app.get('/auth/authorize', AUTHORIZE_ROUTE, async (request, reply) => {
    const outcome = await authorizeRequest(request.query as Record<string, unknown>, deps);
    if (outcome.ok) {
      const ticket = await deps.flow.issueTicket(reply, outcome.ticket);
      return sendLoginPage(reply, deps, {
        ticket,
        projectName: outcome.projectName,
        destination: outcome.destination,
      });
    }
    if (outcome.at === 'page') return sendRefusal(reply, deps, outcome.refusal);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const location = redirectWithError(outcome.redirectUri, {
      error: OAUTH_ERRORS[outcome.error].error,
      description: outcome.description,
      state: outcome.state,
      iss: issuer,
    });
    return reply.code(303).header('location', location).send();
  });

  await app.register(async (scope) => {
    // RFC 6749 §5.2: every failure of /token, even a body Fastify could not parse, is OAuth JSON.
    scope.setErrorHandler((error, request, reply) => {
      const problem = toProblem(request, error as Error);
      const given = ERRORS[problem.code].status;
      if (given >= 500) {
        const code = given === 503 ? 'server_unavailable' : 'server_error';
        return sendOAuthError(reply, { error: code, description: 'The server failed.' });
      }
      return sendOAuthError(reply, {
        error: given === 429 ? 'slow_down' : 'invalid_request',
        description: problem.detail,
      });
    });

    scope.post('/auth/token', TOKEN_ROUTE, async (request, reply) => {
      const outcome = await tokenRequest(
        {
          body: request.body,
          authorization: request.headers.authorization,
          budget: addressBudget(deps.limits, request),
        },
        deps,
      );
      if (!outcome.ok) return sendOAuthError(reply, outcome);
      request.log.info(
        { environment: deps.environment, keyId: outcome.key.id, grant: outcome.grantType, outcome: 'token' },
        'token issued',
      );
      noStore(reply);
      return reply.type('application/json').send(JSON.stringify(outcome.response));
    });

    const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
      const refused = (error: string | null, description: string) => {
        reply.header(
          'www-authenticate',
          error
            ? `Bearer realm="vitrine", error="${error}", error_description="${description}"`
            : 'Bearer realm="vitrine"',
        );
        return sendOAuthError(reply, { error: 'invalid_token', description });
      };
      const raw = bearerToken(request.headers.authorization);
      if (!raw)
        return refused(
          request.headers.authorization ? 'invalid_token' : null,
          'Send the access token as Authorization: Bearer <token>.',
        );
      // A token is only good with its own key. The key may come as X-Api-Key (then it
      // must be the token's); off-the-shelf clients send the token alone, whose client_id names
      // the key, which must still be active in this environment.
      let keyId: string | undefined;
      try {
        const apiKey = extractApiKey(request);
        if (apiKey !== null) {
          const verified = await deps.verifier.verify(apiKey, deps.environment);
          if (!verified.ok) return refused('invalid_token', 'The API key sent is not valid.');
          keyId = verified.key.id;
        } else {
          const named = decodeJwt(raw).client_id;
          const key = await deps.flow.checkClientId(typeof named === 'string' ? named : undefined);
          keyId = key.ok ? key.key.id : undefined;
        }
      } catch {
        keyId = undefined;
      }
      if (!keyId) return refused('invalid_token', 'The access token is not valid.');
      const check = await deps.tokens.verifyAccessToken(raw, { environment: deps.environment, keyId });
      if (!check.ok) {
        return refused(
          'invalid_token',
          check.code === 'token_expired' ? 'The access token expired.' : 'The access token is not valid.',
        );
      }
      noStore(reply);
      return reply
        .type('application/json')
        .send(JSON.stringify(deps.oauth.userinfo(check.user, check.claims.scope ?? null)));
    };
    scope.get('/auth/userinfo', USERINFO_GET_ROUTE, userinfo);
    scope.post('/auth/userinfo', USERINFO_POST_ROUTE, userinfo);
  });
}
