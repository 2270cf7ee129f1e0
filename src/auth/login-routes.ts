import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, type PageErrorCode, pageError } from '../http/errors.js';
import { formFields } from '../http/form.js';
import { toProblem } from '../http/problem.js';
import { MIN_PASSWORD_LENGTH } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { User } from '../users/model.js';
import type { UserService } from '../users/service.js';
import { pageSecurityHeaders } from '../web/security-headers.js';
import type { LoginDeps, LoginFlow, Refusal, VerifiedLogin } from './login.js';
import { ADDRESS_POLICY } from './login-throttle.js';
import { MAX_STATE_LENGTH } from './login-ticket.js';
import { errorPage, loginPage, signupPage } from './pages.js';
import { CONNECT_ROUTE } from './route-docs.js';
import type { SecondFactorStep } from './second-factor-step.js';
import { loginOrigin } from './token-families.js';
import type { UserVerification } from './user-verification.js';

export interface LoginRouteDeps extends LoginDeps {
  signupEnabled: boolean;
  flow: LoginFlow;
  /** Issue 27: the verification mail at sign-up; `required` holds back unverified users. */
  verification: UserVerification;
  /** Issue 27: the code of a user who enrolled a second factor (second-factor-step.ts). */
  secondStep: SecondFactorStep;
}

/** Sends a browser page with the protective headers; `formTargets` widen CSP `form-action`. */
export function sendPage(reply: FastifyReply, status: number, body: string, formTargets: string[] = []) {
  pageSecurityHeaders(reply, formTargets);
  return reply.code(status).send(body);
}

export function sendRefusal(reply: FastifyReply, deps: Pick<LoginDeps, 'environment'>, refusal: Refusal) {
  if (refusal.retryAfter !== undefined) reply.header('retry-after', String(refusal.retryAfter));
  const { status, title } = pageError(refusal.code);
  return sendPage(reply, status, errorPage(deps.environment, title, refusal.message, refusal.code));
}

/** The login page of a ticket: the same page for both doors. */
export function sendLoginPage(
  reply: FastifyReply,
  deps: Pick<LoginRouteDeps, 'environment' | 'signupEnabled'>,
  login: { ticket: string; projectName: string; destination: URL },
  extra: { status?: number; email?: string; error?: string } = {},
) {
  return sendPage(
    reply,
    extra.status ?? 200,
    loginPage({
      environment: deps.environment,
      projectName: login.projectName,
      destinationHost: login.destination.host,
      ticket: login.ticket,
      email: extra.email,
      error: extra.error,
      forgotUrl: `/auth/forgot?${new URLSearchParams({ ticket: login.ticket }).toString()}`,
      signupUrl: deps.signupEnabled
        ? `/auth/signup?${new URLSearchParams({ ticket: login.ticket }).toString()}`
        : null,
    }),
    [login.destination.origin],
  );
}

/** The browser-facing part of `/connect`: every failure is an HTML page, never JSON, never a redirect. */
export async function loginRoutes(app: FastifyInstance, deps: LoginRouteDeps): Promise<void> {
  const { environment, flow } = deps;
  const fail = (reply: FastifyReply, code: PageErrorCode | ErrorCode, message: string) =>
    sendRefusal(reply, deps, { ok: false, code, message });

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(request, error as Error);
    return fail(reply, problem.code, problem.detail);
  });

  const signupClosed = (reply: FastifyReply) =>
    fail(reply, 'signup_disabled', 'Accounts in this environment are created by its operator.');

  async function finishLogin(request: FastifyRequest, reply: FastifyReply, login: VerifiedLogin, user: User) {
    const location = flow.redirectWithTokens(
      login,
      await flow.issueTokens(login, user, loginOrigin(request)),
    );
    flow.clearTicketCookie(reply);
    pageSecurityHeaders(reply);
    return reply.code(303).header('location', location).send();
  }

  app.get('/auth/connect', CONNECT_ROUTE, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const single = (name: string): string | undefined | null => {
      const value = query[name];
      if (value === undefined) return undefined;
      return typeof value === 'string' ? value : null;
    };
    const key = await flow.checkApiKey(request);
    if (!key.ok) return sendRefusal(reply, deps, key);
    const destination = await flow.checkDestination(key.key, single('destination'));
    if (!destination.ok) {
      return fail(reply, 'destination_not_allowed', destination.reason);
    }
    const state = single('state');
    if (state === null || (state !== undefined && state.length > MAX_STATE_LENGTH)) {
      return fail(
        reply,
        'invalid_state',
        `The state must be given once, with at most ${MAX_STATE_LENGTH} characters.`,
      );
    }
    const ticket = await flow.issueTicket(reply, {
      keyId: key.key.id,
      environment,
      destination: destination.url.href,
      state: state ?? null,
      oauth: null,
    });
    return sendLoginPage(reply, deps, {
      ticket,
      projectName: destination.projectName,
      destination: destination.url,
    });
  });

  app.post('/auth/connect', { schema: { hide: true } }, async (request, reply) => {
    const form = formFields(request.body);
    const login = await flow.verifyTicket(request, form.ticket ?? '');
    if (!login.ok) return sendRefusal(reply, deps, login);
    const email = (form.email ?? '').trim().toLowerCase().slice(0, 254);
    const again = (status: number, error: string) =>
      sendLoginPage(
        reply,
        deps,
        { ticket: login.raw, projectName: login.projectName, destination: login.destination },
        { status, email, error },
      );
    const throttle = flow.checkThrottle(email, request.ip);
    if (throttle.wait > 0) {
      reply.header('retry-after', String(Math.ceil(throttle.wait / 1000)));
      return again(429, `Too many attempts. Try again in ${describeWait(throttle.wait)}.`);
    }
    const user = await flow.verifyCredentials(email, form.password ?? '');
    if (!user) {
      throttle.failed();
      request.log.info({ environment, outcome: 'login_failed' }, 'login failed');
      return again(401, 'The email or password is incorrect.');
    }
    throttle.succeeded();
    if (await deps.verification.holdsBack(user, request.ip)) {
      return again(403, deps.verification.message);
    }
    if (await deps.secondStep.due(user)) return deps.secondStep.ask(reply, login, user);
    request.log.info(
      {
        environment,
        userId: user.id,
        keyId: login.key.id,
        outcome: 'login',
        door: login.ticket.oauth ? 'oauth' : 'connect',
      },
      'login',
    );
    return finishLogin(request, reply, login, user);
  });

  const signupForm = (
    reply: FastifyReply,
    login: VerifiedLogin,
    extra: { status?: number; email?: string; name?: string; error?: string } = {},
  ) =>
    sendPage(
      reply,
      extra.status ?? 200,
      signupPage({
        environment,
        projectName: login.projectName,
        ticket: login.raw,
        email: extra.email,
        name: extra.name,
        error: extra.error,
        loginUrl: `/auth/login?${new URLSearchParams({ ticket: login.raw }).toString()}`,
        minPasswordLength: MIN_PASSWORD_LENGTH,
      }),
      [login.destination.origin],
    );

  app.get('/auth/signup', { schema: { hide: true } }, async (request, reply) => {
    if (!deps.signupEnabled) return signupClosed(reply);
    const ticket = String((request.query as Record<string, unknown>).ticket ?? '');
    const login = await flow.verifyTicket(request, ticket);
    if (!login.ok) return sendRefusal(reply, deps, login);
    return signupForm(reply, login);
  });

  app.post('/auth/signup', { schema: { hide: true } }, async (request, reply) => {
    if (!deps.signupEnabled) return signupClosed(reply);
    const form = formFields(request.body);
    const login = await flow.verifyTicket(request, form.ticket ?? '');
    if (!login.ok) return sendRefusal(reply, deps, login);
    const subjects = [{ key: `signup:${request.ip}`, policy: ADDRESS_POLICY }];
    const again = (status: number, error: string) =>
      signupForm(reply, login, { status, email: form.email, name: form.name, error });
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
    request.log.info({ environment, userId: user.id, keyId: login.key.id, outcome: 'signup' }, 'signup');
    if (await deps.verification.signedUp(user)) return again(200, deps.verification.message);
    return finishLogin(request, reply, login, user);
  });

  // Back from the sign-up form to the login form of the same ticket.
  app.get('/auth/login', { schema: { hide: true } }, async (request, reply) => {
    const ticket = String((request.query as Record<string, unknown>).ticket ?? '');
    const login = await flow.verifyTicket(request, ticket);
    if (!login.ok) return sendRefusal(reply, deps, login);
    return sendLoginPage(reply, deps, {
      ticket,
      projectName: login.projectName,
      destination: login.destination,
    });
  });
}

function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function capitalise(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}
