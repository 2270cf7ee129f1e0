import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, AuditLog } from '../audit/service.js';
import { areaAccount, type LoginThrottle, loginSubjects } from '../auth/login-throttle.js';
import { type ErrorCode, type PageErrorCode, pageError } from '../http/errors.js';
import { formFields } from '../http/form.js';
import { toProblem } from '../http/problem.js';
import { UsageError } from '../platform/usage-error.js';
import type { SessionKind, WebSession } from '../sessions/model.js';
import type { SessionService } from '../sessions/service.js';
import { cookieJar } from './cookies.js';
import { appErrorPage } from './layout.js';
import { pageSecurityHeaders } from './security-headers.js';
import { signinPage } from './signin-page.js';

/**
 * What the portal and the console share (issue 5): a signed-in area under `/<area>/` with
 * server-side sessions, a CSRF token on every state-changing form, throttled sign-in, and HTML
 * (never JSON) for every failure. Each area registers its own pages on top.
 */
export interface Account {
  id: string;
  email: string;
  name: string;
}

export interface SessionAreaOptions {
  area: 'portal' | 'console';
  kind: SessionKind;
  /** `https:` origin: Secure cookies with the `__Host-` prefix. */
  secure: boolean;
  sessions: SessionService;
  throttle: LoginThrottle;
  audit: AuditLog;
  authenticate(email: string, password: string): Promise<Account | null>;
  load(id: string): Promise<Account | undefined>;
  /** Portal only: link to the sign-up page under the sign-in form. */
  signupUrl?: string;
  /**
   * Issue 27: what the account still owes after its password: `code` (it enrolled a second
   * factor), `enrol` (it must: `CONSOLE_REQUIRE_2FA`), or nothing. Such a session reaches only
   * the second step's pages (`/<area>/two-factor…`) until that is done.
   */
  secondFactor?(account: Account): Promise<'code' | 'enrol' | null>;
}

/** Issue 27: the only pages a session with its second factor pending may reach. */
const PENDING_ROUTES = {
  code: ['two-factor', 'signout'],
  enrol: ['two-factor/enrol', 'two-factor/confirm', 'signout'],
};

export interface Signed {
  session: WebSession;
  account: Account;
  actor: Actor;
}

export interface SessionArea {
  page(reply: FastifyReply, status: number, body: string): FastifyReply;
  /** An error page; its status and title come from the error table (http/errors.ts). */
  fail(reply: FastifyReply, code: PageErrorCode | ErrorCode, message: string): FastifyReply;
  /** The signed-in account of a request that passed the area's guard. */
  signed(request: FastifyRequest): Signed;
  /** Form fields, one string each (a repeated field keeps its first value). */
  form(request: FastifyRequest): Record<string, string>;
  /** Starts a session after a successful sign-in or sign-up and redirects to the area's home. */
  signIn(request: FastifyRequest, reply: FastifyReply, account: Account): Promise<FastifyReply>;
  signedIn(request: FastifyRequest): Promise<boolean>;
  /** Pre-session CSRF token for the sign-in and sign-up forms (set as a cookie, echoed by the form). */
  preSessionToken(reply: FastifyReply): string;
  preSessionValid(request: FastifyRequest): boolean;
  actorOf(request: FastifyRequest, account: Account | null): Actor;
  /** Issue 27: the second step is done: the session becomes a full one, the sign-in is audited. */
  completeSignIn(signed: Signed): Promise<void>;
}

/** Pages reachable without a session. */
// Issue 27: asking for a reset link, the link's page and the email-verification link too.
const PUBLIC_PATHS = new Set(['signin', 'signup', 'forgot', 'reset', 'verify']);

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function sessionArea(app: FastifyInstance, o: SessionAreaOptions): SessionArea {
  const sessionCookie = cookieJar(`vitrine_${o.area}`, o.secure);
  const preCookie = cookieJar(`vitrine_${o.area}_pre`, o.secure);
  const signedByRequest = new WeakMap<FastifyRequest, Signed>();
  const kindName = o.kind === 'operator' ? 'operator' : 'developer';

  const page = (reply: FastifyReply, status: number, body: string) => {
    pageSecurityHeaders(reply);
    return reply.code(status).send(body);
  };
  const fail = (reply: FastifyReply, code: PageErrorCode | ErrorCode, message: string) => {
    const { status, title } = pageError(code);
    return page(reply, status, appErrorPage(o.area, title, message, code));
  };
  const actorOf = (request: FastifyRequest, account: Account | null): Actor => ({
    kind: o.kind,
    id: account?.id ?? null,
    email: account?.email ?? null,
    ip: request.ip,
  });

  // HTML pages, not API: kept out of /openapi.json like the auth server's pages.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof UsageError) {
      return fail(reply, error.kind, capitalise(error.message));
    }
    const problem = toProblem(request, error as Error);
    return fail(reply, problem.code, problem.detail);
  });
  // The root context answers unknown paths with problem+json; under /<area>/ it is an HTML page.
  void app.register(
    async (scope) => {
      scope.setNotFoundHandler((_request, reply) =>
        fail(reply, 'not_found', 'There is no page at this address, or it is not yours to see.'),
      );
    },
    { prefix: `/${o.area}` },
  );

  // The guard of the whole area: a session for every page but sign-in and sign-up, and on
  // every POST a same-origin request carrying the session's CSRF token.
  app.addHook('preHandler', async (request, reply) => {
    const path = (request.routeOptions.url ?? '').replace(`/${o.area}/`, '').split('/')[0] ?? '';
    const site = request.headers['sec-fetch-site'];
    if (request.method === 'POST' && site !== undefined && site !== 'same-origin' && site !== 'none') {
      return fail(reply, 'csrf_rejected', 'This form was not sent from this site.');
    }
    if (PUBLIC_PATHS.has(path)) return undefined;
    const session = await o.sessions.resume(o.kind, sessionCookie.read(request));
    const account = session ? await o.load(session.accountId) : undefined;
    if (!session || !account) {
      if (request.method === 'GET') return reply.code(303).header('location', `/${o.area}/signin`).send();
      return fail(
        reply,
        'session_expired',
        'Your session has ended. Sign in again, then repeat what you were doing.',
      );
    }
    const route = (request.routeOptions.url ?? '').replace(`/${o.area}/`, '');
    if (session.pending && !PENDING_ROUTES[session.pending].includes(route)) {
      const next = session.pending === 'code' ? 'two-factor' : 'two-factor/enrol';
      if (request.method === 'GET') return reply.code(303).header('location', `/${o.area}/${next}`).send();
      return fail(reply, 'session_expired', 'Finish signing in (the second step) first.');
    }
    if (request.method === 'POST' && !o.sessions.csrfMatches(session, formFields(request.body).csrf)) {
      return fail(reply, 'csrf_rejected', 'This form could not be verified. Reload the page and try again.');
    }
    signedByRequest.set(request, { session, account, actor: actorOf(request, account) });
    return undefined;
  });

  const signinForm = (reply: FastifyReply, status: number, extra: { email?: string; error?: string } = {}) =>
    page(
      reply,
      status,
      signinPage({ area: o.area, csrf: preSessionToken(reply), signupUrl: o.signupUrl, ...extra }),
    );

  app.get(`/${o.area}/signin`, async (request, reply) =>
    (await signedIn(request))
      ? reply.code(303).header('location', `/${o.area}/`).send()
      : signinForm(reply, 200),
  );
  app.post(`/${o.area}/signin`, async (request, reply) => {
    const form = formFields(request.body);
    const email = (form.email ?? '').trim().toLowerCase().slice(0, 254);
    if (!preSessionValid(request)) {
      return signinForm(reply, 403, { email, error: 'This form expired. Please sign in again.' });
    }
    const wait = o.throttle.retryAfter(subjects(request, email));
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      return signinForm(reply, 429, {
        email,
        error: `Too many attempts. Try again in ${Math.ceil(wait / 1000)} seconds.`,
      });
    }
    const account = await o.authenticate(email, form.password ?? '');
    if (!account) {
      o.throttle.failure(subjects(request, email));
      request.log.info({ area: o.area, outcome: 'signin_failed' }, 'sign-in failed');
      // Who tried which account from where: the typed email, never the password.
      await o.audit.record(
        { kind: o.kind, id: null, email: email || null, ip: request.ip },
        `${kindName}.signin_failed`,
        null,
      );
      return signinForm(reply, 401, { email, error: 'The email or password is incorrect.' });
    }
    return signIn(request, reply, account);
  });

  app.post(`/${o.area}/signout`, async (request, reply) => {
    const { session, actor } = signedByRequest.get(request) as Signed;
    await o.sessions.end(session);
    await o.audit.record(actor, `${kindName}.signout`, null);
    sessionCookie.clear(reply);
    return reply.code(303).header('location', `/${o.area}/signin`).send();
  });

  return {
    page,
    fail,
    signed(request) {
      const signed = signedByRequest.get(request);
      if (!signed) throw new Error('no session on a guarded route');
      return signed;
    },
    form: (request) => formFields(request.body),
    signIn,
    signedIn,
    preSessionToken,
    preSessionValid,
    actorOf,
    async completeSignIn(signed) {
      await o.sessions.complete(signed.session);
      await o.audit.record(signed.actor, `${kindName}.signin`, { type: kindName, id: signed.account.id });
    },
  };

  async function signIn(request: FastifyRequest, reply: FastifyReply, account: Account) {
    // A session already in this browser ends: one sign-in, one live session per cookie.
    const previous = await o.sessions.resume(o.kind, sessionCookie.read(request));
    if (previous) await o.sessions.end(previous);
    const pending = (await o.secondFactor?.(account)) ?? null;
    const { token } = await o.sessions.start(o.kind, account.id, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      pending,
    });
    sessionCookie.set(reply, token);
    preCookie.clear(reply);
    o.throttle.success(subjects(request, account.email));
    pageSecurityHeaders(reply);
    if (pending) {
      // The password was right; the sign-in is audited when the second step is done.
      return reply
        .code(303)
        .header('location', `/${o.area}/${pending === 'code' ? 'two-factor' : 'two-factor/enrol'}`)
        .send();
    }
    await o.audit.record(actorOf(request, account), `${kindName}.signin`, { type: kindName, id: account.id });
    return reply.code(303).header('location', `/${o.area}/`).send();
  }
  /** Whether the request already carries a live session of this area (sign-in pages send it home). */
  async function signedIn(request: FastifyRequest): Promise<boolean> {
    return (await o.sessions.resume(o.kind, sessionCookie.read(request))) !== null;
  }
  function preSessionToken(reply: FastifyReply) {
    const nonce = randomBytes(32).toString('base64url');
    preCookie.set(reply, nonce, 3600);
    return sha256(nonce);
  }
  function preSessionValid(request: FastifyRequest) {
    const nonce = preCookie.read(request);
    const given = Buffer.from(formFields(request.body).csrf ?? '');
    const expected = Buffer.from(nonce ? sha256(nonce) : '');
    return expected.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
  }

  function subjects(request: FastifyRequest, email: string) {
    // Issue 13: per account+address pair, per address, and an account-wide cap (login-throttle.ts).
    return loginSubjects(areaAccount(o.area, email), request.ip);
  }
}

function capitalise(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}
