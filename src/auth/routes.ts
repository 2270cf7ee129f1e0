import fs from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { extractApiKey } from '../http/api-key-guard.js';
import { ERRORS, ProblemError } from '../http/errors.js';
import { formFields } from '../http/form.js';
import { toProblem } from '../http/problem.js';
import type { RequestLimits } from '../http/rate-limit.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { KeyRecord, KeyStore } from '../keys/store.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { MIN_PASSWORD_LENGTH } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { ProjectService } from '../projects/service.js';
import type { UserService } from '../users/service.js';
import { pageSecurityHeaders } from '../web/security-headers.js';
import { checkDestination, redirectWithTokens } from './destination.js';
import { ACCOUNT_POLICY, ADDRESS_POLICY, type LoginThrottle } from './login-throttle.js';
import { type LoginTicket, TICKET_TTL_SECONDS, type TicketIssuer } from './login-ticket.js';
import { errorPage, loginPage, signupPage } from './pages.js';
import type { IssuedTokens, TokenService } from './tokens.js';

export interface AuthRouteDeps {
  environment: Environment;
  /** Origin of this environment (`PUBLIC_ORIGIN`); `{auth_url}` is `<origin>/auth`. */
  origin: string;
  signupEnabled: boolean;
  clock: Clock;
  verifier: KeyVerifier;
  keyStore: KeyStore;
  projects: ProjectService;
  users: UserService;
  tokens: TokenService;
  tickets: TicketIssuer;
  throttle: LoginThrottle;
  jwks: () => Promise<unknown>;
  guard: onRequestHookHandler;
  /** The search API's budget of failed keys per client address (SPEC §8), also spent here. */
  limits?: RequestLimits;
}

const MAX_STATE_LENGTH = 512;
const CSS = fs.readFileSync(new URL('../web/assets/vitrine.css', import.meta.url), 'utf8');
const FAVICON = fs.readFileSync(new URL('../web/assets/favicon.svg', import.meta.url), 'utf8');

const KEY_PROBLEMS: Record<string, string> = {
  api_key_missing: 'The application did not identify itself (no API key).',
  api_key_invalid: 'The application sent an API key that is not valid.',
  api_key_revoked: "The application's API key has been revoked.",
  api_key_expired: "The application's API key has expired.",
  api_key_wrong_environment: "The application's API key belongs to the other environment.",
  api_key_conflict: 'The application sent two different API keys.',
};

/** `{auth_url}`: the login pages (HTML) and the token endpoints (JSON), SPEC §5. */
export async function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  app.get('/assets/vitrine.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CSS),
  );
  for (const path of ['/assets/favicon.svg', '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
    );
  }
  await app.register(async (pages) => loginPages(pages, deps));
  tokenEndpoints(app, deps);
}

/** The browser-facing part: every failure is an HTML page, never JSON, never a redirect. */
async function loginPages(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const { environment } = deps;
  const secure = deps.origin.startsWith('https:');
  const cookieName = secure ? '__Host-vitrine_login' : 'vitrine_login';

  const page = (reply: FastifyReply, status: number, body: string, formTargets: string[] = []) => {
    pageSecurityHeaders(reply, formTargets);
    return reply.code(status).send(body);
  };
  const fail = (reply: FastifyReply, status: number, title: string, message: string, code: string) =>
    page(reply, status, errorPage(environment, title, message, code));

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(request, error as Error);
    return fail(reply, ERRORS[problem.code].status, ERRORS[problem.code].title, problem.detail, problem.code);
  });

  const signupClosed = (reply: FastifyReply) =>
    fail(
      reply,
      404,
      'Sign-up is closed',
      'Accounts in this environment are created by its operator.',
      'signup_disabled',
    );
  const tooMany = (reply: FastifyReply) => {
    reply.header('retry-after', '60');
    return fail(
      reply,
      429,
      'Too many attempts',
      'Too many invalid sign-in links from your address. Try again in a minute.',
      'rate_limited',
    );
  };

  const setNonceCookie = (reply: FastifyReply, nonce: string) =>
    reply.header(
      'set-cookie',
      `${cookieName}=${nonce}; Path=/; Max-Age=${TICKET_TTL_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
    );
  const clearNonceCookie = (reply: FastifyReply) =>
    reply.header(
      'set-cookie',
      `${cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
    );
  const nonceFrom = (request: FastifyRequest): string | undefined => {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === cookieName) return value.join('=');
    }
    return undefined;
  };

  /** The key of a ticket, re-read: it may have been revoked while the user was typing. */
  async function activeKey(keyId: string): Promise<KeyRecord | null> {
    const key = await deps.keyStore.get(keyId);
    if (key?.state !== 'active' || key.environment !== environment) return null;
    if (key.expiresAt !== null && key.expiresAt <= deps.clock.now()) return null;
    return key;
  }

  /** Ticket + CSRF + key + destination of a form or a page link, or null with the error page sent. */
  async function ticketFrom(
    request: FastifyRequest,
    reply: FastifyReply,
    form: Record<string, string>,
  ): Promise<{
    ticket: LoginTicket;
    key: KeyRecord;
    projectName: string;
    destination: URL;
    raw: string;
  } | null> {
    // Fetch metadata: a browser says where the form came from; only this origin may post it.
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      fail(reply, 403, 'Request refused', 'This form was not sent from this site.', 'csrf_rejected');
      return null;
    }
    const verified = await deps.tickets.verify(form.ticket ?? '', nonceFrom(request));
    if ('error' in verified) {
      if (verified.error === 'expired') {
        fail(reply, 400, 'This sign-in page expired', 'The sign-in page was open too long.', 'login_expired');
      } else {
        fail(
          reply,
          403,
          'Request refused',
          'This form could not be verified (is the page open in another browser, or are cookies blocked?).',
          'csrf_rejected',
        );
      }
      return null;
    }
    if (verified.environment !== environment) {
      fail(reply, 403, 'Request refused', 'This form belongs to the other environment.', 'csrf_rejected');
      return null;
    }
    const key = await activeKey(verified.keyId);
    const project = key ? await deps.projects.get(key.projectId) : undefined;
    const destination = project ? checkDestination(verified.destination, project.redirectUris) : undefined;
    if (!key || !project || !destination?.ok) {
      fail(
        reply,
        400,
        'Sign-in is not available',
        'The application can no longer sign users in.',
        'application_unavailable',
      );
      return null;
    }
    return {
      ticket: verified,
      key,
      projectName: project.name,
      destination: destination.url,
      raw: form.ticket ?? '',
    };
  }

  async function finishLogin(
    reply: FastifyReply,
    tokens: IssuedTokens,
    ticket: LoginTicket,
    destination: URL,
  ) {
    clearNonceCookie(reply);
    pageSecurityHeaders(reply);
    const location = redirectWithTokens(destination, {
      jwt: tokens.accessToken,
      refresh: tokens.refreshToken,
      state: ticket.state,
    });
    return reply.code(303).header('location', location).send();
  }

  const signupUrl = (ticket: string) =>
    deps.signupEnabled ? `/auth/signup?${new URLSearchParams({ ticket }).toString()}` : null;

  app.get('/auth/connect', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const single = (name: string): string | undefined | null => {
      const value = query[name];
      if (value === undefined) return undefined;
      return typeof value === 'string' ? value : null;
    };
    let rawKey: string | null;
    try {
      rawKey = extractApiKey(request);
    } catch {
      return fail(
        reply,
        400,
        'Sign-in is not available',
        KEY_PROBLEMS.api_key_conflict as string,
        'api_key_conflict',
      );
    }
    if (rawKey === null) {
      return fail(
        reply,
        400,
        'Sign-in is not available',
        KEY_PROBLEMS.api_key_missing as string,
        'api_key_missing',
      );
    }
    // Guessing keys through the login page spends the same per-address budget as the API.
    try {
      await deps.limits?.checkAddress(request);
    } catch {
      return tooMany(reply);
    }
    const verified = await deps.verifier.verify(rawKey, environment);
    if (!verified.ok) {
      try {
        await deps.limits?.addressFailed(request);
      } catch {
        return tooMany(reply);
      }
      return fail(
        reply,
        400,
        'Sign-in is not available',
        KEY_PROBLEMS[verified.code] as string,
        verified.code,
      );
    }
    const project = await deps.projects.get(verified.key.projectId);
    const destinationRaw = single('destination');
    const state = single('state');
    const destination = checkDestination(destinationRaw ?? undefined, project?.redirectUris ?? []);
    if (!project || destinationRaw === null || !destination.ok) {
      const reason =
        destinationRaw === null
          ? 'The destination was given more than once.'
          : destination.ok
            ? ''
            : destination.reason;
      return fail(reply, 400, 'This sign-in link is not valid', reason, 'destination_not_allowed');
    }
    if (state === null || (state !== undefined && state.length > MAX_STATE_LENGTH)) {
      return fail(
        reply,
        400,
        'This sign-in link is not valid',
        `The state must be given once, with at most ${MAX_STATE_LENGTH} characters.`,
        'invalid_state',
      );
    }
    const { ticket, nonce } = await deps.tickets.issue({
      keyId: verified.key.id,
      environment,
      destination: destination.url.href,
      state: state ?? null,
    });
    setNonceCookie(reply, nonce);
    return page(
      reply,
      200,
      loginPage({
        environment,
        projectName: project.name,
        destinationHost: destination.url.host,
        ticket,
        signupUrl: signupUrl(ticket),
      }),
      [destination.url.origin],
    );
  });

  app.post('/auth/connect', { schema: { hide: true } }, async (request, reply) => {
    const form = formFields(request.body);
    const posted = await ticketFrom(request, reply, form);
    if (!posted) return reply;
    const email = (form.email ?? '').trim().toLowerCase().slice(0, 254);
    const subjects = [
      { key: `account:${environment}:${email}`, policy: ACCOUNT_POLICY },
      { key: `address:${request.ip}`, policy: ADDRESS_POLICY },
    ];
    const again = (status: number, error: string) =>
      page(
        reply,
        status,
        loginPage({
          environment,
          projectName: posted.projectName,
          destinationHost: posted.destination.host,
          ticket: posted.raw,
          email,
          error,
          signupUrl: signupUrl(posted.raw),
        }),
        [posted.destination.origin],
      );
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      return again(429, `Too many attempts. Try again in ${describeWait(wait)}.`);
    }
    const user = await deps.users.authenticate(environment, email, form.password ?? '');
    if (!user) {
      deps.throttle.failure(subjects);
      request.log.info({ environment, outcome: 'login_failed' }, 'login failed');
      return again(401, 'The email or password is incorrect.');
    }
    deps.throttle.success(subjects[0]?.key as string);
    const tokens = await deps.tokens.login(user, posted.key);
    request.log.info({ environment, userId: user.id, keyId: posted.key.id, outcome: 'login' }, 'login');
    return finishLogin(reply, tokens, posted.ticket, posted.destination);
  });

  app.get('/auth/signup', { schema: { hide: true } }, async (request, reply) => {
    if (!deps.signupEnabled) return signupClosed(reply);
    const ticket = String((request.query as Record<string, unknown>).ticket ?? '');
    const posted = await ticketFrom(request, reply, { ticket });
    if (!posted) return reply;
    return page(
      reply,
      200,
      signupPage({
        environment,
        projectName: posted.projectName,
        ticket,
        loginUrl: `/auth/login?${new URLSearchParams({ ticket: posted.raw }).toString()}`,
        minPasswordLength: MIN_PASSWORD_LENGTH,
      }),
      [posted.destination.origin],
    );
  });

  app.post('/auth/signup', { schema: { hide: true } }, async (request, reply) => {
    if (!deps.signupEnabled) return signupClosed(reply);
    const form = formFields(request.body);
    const posted = await ticketFrom(request, reply, form);
    if (!posted) return reply;
    const subjects = [{ key: `signup:${request.ip}`, policy: ADDRESS_POLICY }];
    const again = (status: number, error: string) =>
      page(
        reply,
        status,
        signupPage({
          environment,
          projectName: posted.projectName,
          ticket: posted.raw,
          email: form.email,
          name: form.name,
          error,
          loginUrl: `/auth/login?${new URLSearchParams({ ticket: posted.raw }).toString()}`,
          minPasswordLength: MIN_PASSWORD_LENGTH,
        }),
        [posted.destination.origin],
      );
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      return again(429, `Too many attempts. Try again in ${describeWait(wait)}.`);
    }
    // Every sign-up counts against the address: creating accounts in bulk is throttled too.
    deps.throttle.failure(subjects);
    let user: Awaited<ReturnType<UserService['add']>>;
    try {
      user = await deps.users.add({
        environment,
        email: form.email ?? '',
        password: form.password ?? '',
        name: form.name,
      });
    } catch (error) {
      if (error instanceof UsageError) {
        return again(
          error.kind === 'conflict' ? 409 : 400,
          error.kind === 'conflict'
            ? 'An account with this email already exists. Sign in instead.'
            : capitalise(error.message),
        );
      }
      throw error;
    }
    const tokens = await deps.tokens.login(user, posted.key);
    request.log.info({ environment, userId: user.id, keyId: posted.key.id, outcome: 'signup' }, 'signup');
    return finishLogin(reply, tokens, posted.ticket, posted.destination);
  });

  // Back from the sign-up form to the login form of the same ticket.
  app.get('/auth/login', { schema: { hide: true } }, async (request, reply) => {
    const ticket = String((request.query as Record<string, unknown>).ticket ?? '');
    const found = await ticketFrom(request, reply, { ticket });
    if (!found) return reply;
    return page(
      reply,
      200,
      loginPage({
        environment,
        projectName: found.projectName,
        destinationHost: found.destination.host,
        ticket,
        signupUrl: signupUrl(ticket),
      }),
      [found.destination.origin],
    );
  });
}

/** `/refresh`, `/revoke` and the JWKS: JSON endpoints for clients, errors as problem+json. */
function tokenEndpoints(app: FastifyInstance, deps: AuthRouteDeps): void {
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
      'SPEC §5.2. Needs the key that obtained the refresh token, with the refresh permission. With `REFRESH_TOKEN_ROTATION=on` the answer carries the next refresh token and the one sent is spent.',
    security: API_KEY_SECURITY,
    response: { 200: TokenResponse, ...problemResponses(400, 401, 403) },
  };

  api.get(
    '/auth/refresh',
    {
      onRequest: deps.guard,
      schema: {
        ...refreshSchema,
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
        querystring: Type.Object({ apiKey: apiKeyParam }, { additionalProperties: false }),
        body: Type.Object({ refresh: refreshParam }, { additionalProperties: false }),
        consumes: ['application/x-www-form-urlencoded'],
      },
    },
    async (request, reply) => refresh(request.apiKey as KeyRecord, request.body.refresh, reply),
  );

  api.post(
    '/auth/revoke',
    {
      onRequest: deps.guard,
      schema: {
        tags: ['auth'],
        summary: 'Revoke a refresh token (RFC 7009)',
        description:
          'Revokes the refresh token and every token rotated from the same login. Answers 200 also for unknown tokens or tokens of another key (which it leaves alone), as RFC 7009 asks.',
        security: API_KEY_SECURITY,
        querystring: Type.Object({ apiKey: apiKeyParam }, { additionalProperties: false }),
        body: Type.Object(
          {
            token: Type.String({ minLength: 1, maxLength: 200 }),
            token_type_hint: Type.Optional(Type.String({ maxLength: 50 })),
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
      await deps.tokens.revoke(request.body.token, request.apiKey as KeyRecord);
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

function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function capitalise(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}
