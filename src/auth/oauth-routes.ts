import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { decodeJwt } from 'jose';
import { extractApiKey } from '../http/credentials.js';
import { ERRORS, type PageErrorCode } from '../http/errors.js';
import { toProblem } from '../http/problem.js';
import type { RequestLimits } from '../limits/request-limits.js';
import { authenticateClient } from './client-auth.js';
import { oauthClientRefusal } from './client-rules.js';
import { type LoginFlow, redirectWithError } from './login.js';
import { MAX_STATE_LENGTH, sendLoginPage, sendRefusal } from './login-routes.js';
import {
  type GrantResult,
  grantedScope,
  type OAuthService,
  parseScope,
  S256_CHALLENGE,
  SCOPES,
} from './oauth.js';
import {
  AUTHORIZE_ROUTE,
  DISCOVERY_ROUTE,
  TOKEN_ROUTE,
  USERINFO_GET_ROUTE,
  USERINFO_POST_ROUTE,
} from './route-docs.js';
import { SIGNING_ALGORITHM } from './signing-keys.js';
import type { TokenService } from './tokens.js';

/**
 * The standard door (issue 17): discovery, `/authorize`, `/token` and `/userinfo`.
 * `/authorize` ends on the login page of `/connect` (login.ts); `/revoke` and the JWKS are the
 * token routes'. Errors follow the RFCs, not problem+json: HTML pages when the client or its
 * redirect URI cannot be trusted, redirects with `error` (RFC 6749 §4.1.2.1) once they can, and
 * `{"error": …}` JSON at `/token` (§5.2) and `/userinfo` (RFC 6750 §3).
 */
export interface OAuthRouteDeps {
  environment: 'production' | 'testing';
  origin: string;
  signupEnabled: boolean;
  flow: LoginFlow;
  oauth: OAuthService;
  tokens: TokenService;
  verifier: Parameters<typeof authenticateClient>[2]['verifier'];
  limits?: RequestLimits;
}

const MAX_NONCE_LENGTH = 512;

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
    grant_types_supported: ['authorization_code', 'refresh_token'],
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

  app.get('/auth/authorize', AUTHORIZE_ROUTE, async (request, reply) => authorize(request, reply));

  async function authorize(request: FastifyRequest, reply: FastifyReply) {
    const query = request.query as Record<string, unknown>;
    const repeated = Object.keys(query).filter((name) => typeof query[name] !== 'string');
    const single = (name: string): string | undefined =>
      typeof query[name] === 'string' ? (query[name] as string) : undefined;
    const page = (code: PageErrorCode, message: string) =>
      sendRefusal(reply, deps, { ok: false, code, message });

    // 1. Who asks and where to: until both are verified, nothing redirects (RFC 6749 §4.1.2.1).
    if (repeated.includes('client_id')) {
      return page('invalid_client', 'The client_id was given more than once.');
    }
    const client = await deps.flow.checkClientId(single('client_id'));
    if (!client.ok) return sendRefusal(reply, deps, client);
    const refusal = oauthClientRefusal(client.key);
    if (refusal) return page('invalid_client', refusal);
    const redirect = await deps.flow.checkDestination(
      client.key,
      repeated.includes('redirect_uri') ? null : single('redirect_uri'),
    );
    if (!redirect.ok) {
      return page('invalid_redirect_uri', redirect.reason.replace('destination', 'redirect_uri'));
    }

    // 2. Everything else answers at the client's redirect URI.
    const rawState = single('state');
    const state =
      !repeated.includes('state') && rawState !== undefined && rawState.length <= MAX_STATE_LENGTH
        ? rawState
        : null;
    const back = (error: string, description: string) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply
        .code(303)
        .header('location', redirectWithError(redirect.url, { error, description, state, iss: issuer }))
        .send();
    };
    if (repeated.length > 0)
      return back('invalid_request', `Parameters given more than once: ${repeated.join(', ')}.`);
    if (rawState !== undefined && rawState.length > MAX_STATE_LENGTH) {
      return back('invalid_request', `The state has more than ${MAX_STATE_LENGTH} characters.`);
    }
    if (single('request') !== undefined)
      return back('request_not_supported', 'Request objects are not supported.');
    if (single('request_uri') !== undefined)
      return back('request_uri_not_supported', 'request_uri is not supported.');
    const responseType = single('response_type');
    if (responseType === undefined) return back('invalid_request', 'response_type is missing.');
    if (responseType !== 'code')
      return back('unsupported_response_type', 'Only response_type=code is supported.');
    const challenge = single('code_challenge');
    const method = single('code_challenge_method');
    if (challenge === undefined || method === undefined) {
      return back(
        'invalid_request',
        'PKCE is required: send code_challenge with code_challenge_method=S256.',
      );
    }
    if (method !== 'S256') return back('invalid_request', 'Only code_challenge_method=S256 is supported.');
    if (!S256_CHALLENGE.test(challenge)) {
      return back(
        'invalid_request',
        'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
      );
    }
    const scope = parseScope(single('scope'));
    if (!scope.ok) return back('invalid_scope', `Unknown scope: ${scope.unknown}.`);
    const nonce = single('nonce');
    if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH) {
      return back('invalid_request', `The nonce has more than ${MAX_NONCE_LENGTH} characters.`);
    }
    // No session outlives a login here, so a login can never be silent (OIDC Core §3.1.2.6).
    if ((single('prompt') ?? '').split(' ').includes('none')) {
      return back('login_required', 'The user must sign in.');
    }

    // 3. The login page of /connect, with the same ticket, CSRF cookie, throttle and CSP.
    const ticket = await deps.flow.issueTicket(reply, {
      keyId: client.key.id,
      environment: deps.environment,
      destination: redirect.url.href,
      state: rawState ?? null,
      oauth: { challenge, nonce: nonce ?? null, scope: grantedScope(scope.scopes, client.key) },
    });
    return sendLoginPage(reply, deps, {
      ticket,
      projectName: redirect.projectName,
      destination: redirect.url,
    });
  }

  await app.register(async (scope) => {
    // RFC 6749 §5.2: every failure of /token, even a body Fastify could not parse, is OAuth JSON.
    scope.setErrorHandler((error, request, reply) => {
      const problem = toProblem(request, error as Error);
      const given = ERRORS[problem.code].status;
      const status = given === 429 ? 429 : given >= 500 ? given : 400;
      const code = status === 400 ? 'invalid_request' : status === 429 ? 'slow_down' : 'server_error';
      return oauthError(reply, status, code, status >= 500 ? 'The server failed.' : problem.detail);
    });

    scope.post('/auth/token', TOKEN_ROUTE, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof request.body !== 'object' || request.body === null) {
        return oauthError(
          reply,
          400,
          'invalid_request',
          'Send the parameters as application/x-www-form-urlencoded.',
        );
      }
      const repeated = Object.keys(body).filter((name) => typeof body[name] !== 'string');
      if (repeated.length > 0) {
        return oauthError(
          reply,
          400,
          'invalid_request',
          `Parameters given more than once: ${repeated.join(', ')}.`,
        );
      }
      const form = body as Record<string, string | undefined>;
      const client = await authenticateClient(request, form, deps);
      if (!client.ok) {
        if (client.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="vitrine"');
        return oauthError(
          reply,
          client.error === 'invalid_client' ? 401 : 400,
          client.error,
          client.description,
        );
      }
      let result: GrantResult;
      switch (form.grant_type) {
        case 'authorization_code': {
          const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
          if (!code || !redirectUri || !verifier) {
            return oauthError(reply, 400, 'invalid_request', 'Send code, redirect_uri and code_verifier.');
          }
          result = await deps.oauth.exchangeCode({ key: client.key, code, redirectUri, verifier });
          break;
        }
        case 'refresh_token': {
          if (!form.refresh_token) return oauthError(reply, 400, 'invalid_request', 'Send refresh_token.');
          result = await deps.oauth.refresh({ key: client.key, refreshToken: form.refresh_token });
          break;
        }
        case undefined:
          return oauthError(reply, 400, 'invalid_request', 'grant_type is missing.');
        default:
          return oauthError(reply, 400, 'unsupported_grant_type', 'Use authorization_code or refresh_token.');
      }
      if (!result.ok) return oauthError(reply, 400, result.error, result.description);
      request.log.info(
        { environment: deps.environment, keyId: client.key.id, grant: form.grant_type, outcome: 'token' },
        'token issued',
      );
      noStore(reply);
      return reply.type('application/json').send(JSON.stringify(result.response));
    });

    const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
      const refused = (error: string | null, description: string) => {
        reply.header(
          'www-authenticate',
          error
            ? `Bearer realm="vitrine", error="${error}", error_description="${description}"`
            : 'Bearer realm="vitrine"',
        );
        return oauthError(reply, 401, error ?? 'invalid_token', description);
      };
      const match = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+) *$/i.exec(
        request.headers.authorization ?? '',
      );
      if (!match?.[1])
        return refused(
          request.headers.authorization ? 'invalid_token' : null,
          'Send the access token as Authorization: Bearer <token>.',
        );
      const raw = match[1];
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

function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  noStore(reply);
  return reply
    .code(status)
    .type('application/json')
    .send(JSON.stringify({ error, error_description: description }));
}
