import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginFlow } from '../auth/login.js';
import { sendPage, sendRefusal } from '../auth/login-routes.js';
import { connectAccount, type LoginThrottle, loginSubjects } from '../auth/login-throttle.js';
import { formFields } from '../http/form.js';
import { toProblem } from '../http/problem.js';
import type { Environment } from '../platform/environment.js';
import { MIN_PASSWORD_LENGTH } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import { linkProblemMessage } from './area-pages.js';
import { userForgotPage, userResetDonePage, userResetPage, userVerifiedPage } from './auth-pages.js';
import type { AccountRecovery } from './recovery.js';

/**
 * End users' "Forgot password?" on the auth server of one environment (issue 27). The form is
 * reached from the login page of `/connect` or `/authorize` and carries its ticket (its CSRF
 * protection, as on the login form); the mailed link carries the ticket too, so that after the
 * reset the user can go back to the same sign-in and on to the application. The reset form is
 * authorised by the link's token itself.
 */
export function registerUserRecoveryRoutes(
  app: FastifyInstance,
  deps: { environment: Environment; flow: LoginFlow; recovery: AccountRecovery; throttle: LoginThrottle },
): void {
  const { environment, flow } = deps;
  const target = { kind: 'user' as const, environment };
  const query = (request: FastifyRequest, name: string) => {
    const value = (request.query as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : '';
  };
  const loginUrl = (ticket: string) =>
    ticket ? `/auth/login?${new URLSearchParams({ ticket }).toString()}` : null;
  const fail = (
    reply: FastifyReply,
    code: 'link_invalid' | 'rate_limited' | 'csrf_rejected',
    message: string,
  ) => sendRefusal(reply, deps, { ok: false, code, message });
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(request, error as Error);
    return sendRefusal(reply, deps, { ok: false, code: problem.code, message: problem.detail });
  });
  const tooMany = (reply: FastifyReply, wait: number) => {
    reply.header('retry-after', String(Math.ceil(wait / 1000)));
    return fail(reply, 'rate_limited', `Too many attempts. Try again in ${Math.ceil(wait / 1000)} seconds.`);
  };

  app.get('/auth/forgot', { schema: { hide: true } }, async (request, reply) => {
    const ticket = query(request, 'ticket');
    const login = await flow.verifyTicket(request, ticket);
    if (!login.ok) return sendRefusal(reply, deps, login);
    return sendPage(
      reply,
      200,
      userForgotPage({ environment, ticket, loginUrl: loginUrl(ticket) as string }),
    );
  });

  app.post('/auth/forgot', { schema: { hide: true } }, async (request, reply) => {
    const form = formFields(request.body);
    const ticket = form.ticket ?? '';
    const login = await flow.verifyTicket(request, ticket);
    if (!login.ok) return sendRefusal(reply, deps, login);
    const email = (form.email ?? '').trim().toLowerCase().slice(0, 254);
    const subjects = loginSubjects(`forgot:${connectAccount(environment, email)}`, request.ip);
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) return tooMany(reply, wait);
    deps.throttle.failure(subjects);
    await deps.recovery.requestReset(target, email, { ticket });
    request.log.info({ environment, outcome: 'reset_requested' }, 'password reset asked for');
    return sendPage(
      reply,
      200,
      userForgotPage({ environment, ticket, loginUrl: loginUrl(ticket) as string, sent: true }),
    );
  });

  /** The reset link's form (again, with `error`), or the link's problem page. */
  async function resetForm(reply: FastifyReply, token: string, ticket: string, status = 200, error?: string) {
    const checked = await deps.recovery.checkReset(target, token);
    if (!checked.ok) return fail(reply, 'link_invalid', linkProblemMessage('reset'));
    const email = checked.account.email;
    return sendPage(
      reply,
      status,
      userResetPage({ environment, token, ticket, email, minPasswordLength: MIN_PASSWORD_LENGTH, error }),
    );
  }
  app.get('/auth/reset', { schema: { hide: true } }, async (request, reply) =>
    resetForm(reply, query(request, 'token'), query(request, 'ticket').slice(0, 4096)),
  );

  app.post('/auth/reset', { schema: { hide: true } }, async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return fail(reply, 'csrf_rejected', 'This form was not sent from this site.');
    }
    const form = formFields(request.body);
    const token = form.token ?? '';
    const ticket = (form.ticket ?? '').slice(0, 4096);
    const subjects = loginSubjects(`reset:${environment}`, request.ip);
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) return tooMany(reply, wait);
    try {
      const done = await deps.recovery.completeReset(target, token, form.password ?? '', request.ip);
      if (!done.ok) {
        deps.throttle.failure(subjects);
        return fail(reply, 'link_invalid', linkProblemMessage('reset'));
      }
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      const message = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
      return resetForm(reply, token, ticket, 400, message);
    }
    request.log.info({ environment, outcome: 'password_reset' }, 'password reset');
    return sendPage(reply, 200, userResetDonePage(environment, loginUrl(ticket)));
  });

  app.get('/auth/verify', { schema: { hide: true } }, async (request, reply) => {
    const verified = await deps.recovery.verify(target, query(request, 'token'));
    if (!verified.ok) return fail(reply, 'link_invalid', linkProblemMessage('verify'));
    return sendPage(reply, 200, userVerifiedPage(environment, verified.account.email));
  });
}
