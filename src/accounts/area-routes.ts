import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { areaAccount, type LoginThrottle, loginSubjects } from '../auth/login-throttle.js';
import { MIN_PASSWORD_LENGTH } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { SessionArea, Signed } from '../web/session-area.js';
import {
  doneResetPage,
  forgotPage,
  linkProblemMessage,
  resetPage,
  unverifiedPage,
  verificationSentPage,
  verifiedPage,
} from './area-pages.js';
import type { AccountRecovery } from './recovery.js';

/**
 * "Forgot password?" and the reset link's page of the portal and the console (issue 27), and the
 * portal's email-verification link. Reachable without a session (the session area lets these
 * paths through); the forms carry the pre-session CSRF token of the sign-in form. Asking for a
 * link is throttled like a sign-in, per address and per (account, address) pair.
 */
export function registerRecoveryRoutes(
  app: FastifyInstance,
  area: SessionArea,
  deps: {
    area: 'portal' | 'console';
    recovery: AccountRecovery;
    throttle: LoginThrottle;
    /** Portal: whether the signed-in developer confirmed their address. */
    verifiedAt?: (id: string) => Promise<number | null | undefined>;
  },
): Verification {
  const name = deps.area;
  const target = { kind: name === 'portal' ? ('developer' as const) : ('operator' as const) };
  const tokenOf = (request: FastifyRequest) => {
    const value = (request.query as Record<string, unknown>).token;
    return typeof value === 'string' ? value : '';
  };
  const linkProblem = (reply: FastifyReply, purpose: 'reset' | 'verify') =>
    area.fail(reply, 'link_invalid', linkProblemMessage(purpose));
  const tooMany = (reply: FastifyReply, wait: number) => {
    reply.header('retry-after', String(Math.ceil(wait / 1000)));
    return area.fail(
      reply,
      'rate_limited',
      `Too many attempts. Try again in ${Math.ceil(wait / 1000)} seconds.`,
    );
  };

  app.get(`/${name}/forgot`, async (_request, reply) =>
    area.page(reply, 200, forgotPage({ area: name, csrf: area.preSessionToken(reply) })),
  );
  app.post(`/${name}/forgot`, async (request, reply) => {
    const form = area.form(request);
    const email = (form.email ?? '').trim().toLowerCase().slice(0, 254);
    if (!area.preSessionValid(request)) {
      const csrf = area.preSessionToken(reply);
      return area.page(
        reply,
        403,
        forgotPage({ area: name, csrf, email, error: 'This form expired. Please try again.' }),
      );
    }
    const subjects = loginSubjects(`forgot:${areaAccount(name, email)}`, request.ip);
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) return tooMany(reply, wait);
    // Every request counts: mailing links in bulk is throttled like guessing passwords.
    deps.throttle.failure(subjects);
    await deps.recovery.requestReset(target, email);
    request.log.info({ area: name, outcome: 'reset_requested' }, 'password reset asked for');
    return area.page(reply, 200, forgotPage({ area: name, csrf: '', sent: true }));
  });

  /** The reset link's form (again, with `error`), or the link's problem page. */
  async function resetForm(reply: FastifyReply, token: string, status = 200, error?: string) {
    const checked = await deps.recovery.checkReset(target, token);
    if (!checked.ok) return linkProblem(reply, 'reset');
    const csrf = area.preSessionToken(reply);
    const email = checked.account.email;
    return area.page(
      reply,
      status,
      resetPage({ area: name, csrf, token, email, minPasswordLength: MIN_PASSWORD_LENGTH, error }),
    );
  }
  app.get(`/${name}/reset`, async (request, reply) => resetForm(reply, tokenOf(request)));
  app.post(`/${name}/reset`, async (request, reply) => {
    const form = area.form(request);
    const token = form.token ?? '';
    const subjects = loginSubjects(`reset:${name}`, request.ip);
    const wait = deps.throttle.retryAfter(subjects);
    if (wait > 0) return tooMany(reply, wait);
    if (!area.preSessionValid(request)) {
      return area.fail(reply, 'csrf_rejected', 'This form expired. Open the link from the mail again.');
    }
    try {
      const done = await deps.recovery.completeReset(target, token, form.password ?? '', request.ip);
      if (!done.ok) {
        deps.throttle.failure(subjects);
        return linkProblem(reply, 'reset');
      }
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return resetForm(
        reply,
        token,
        400,
        `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`,
      );
    }
    request.log.info({ area: name, outcome: 'password_reset' }, 'password reset');
    return area.page(reply, 200, doneResetPage(name));
  });

  // The portal's email verification (operators are created by operators, not by sign-up).
  if (name === 'portal') {
    app.get(`/${name}/verify`, async (request, reply) => {
      const verified = await deps.recovery.verify(target, tokenOf(request));
      if (!verified.ok) return linkProblem(reply, 'verify');
      return area.page(reply, 200, verifiedPage(name, verified.account.email));
    });
    app.post(`/${name}/email/resend`, async (request, reply) => {
      const s = area.signed(request);
      const subjects = loginSubjects(`verify:${areaAccount(name, s.account.email)}`, request.ip);
      const wait = deps.throttle.retryAfter(subjects);
      if (wait > 0) return tooMany(reply, wait);
      deps.throttle.failure(subjects);
      await deps.recovery.sendVerification({ kind: target.kind, id: s.account.id, email: s.account.email });
      return area.page(reply, 200, verificationSentPage(name, s.account.email));
    });
  }

  return {
    isVerified: async (s) => (await deps.verifiedAt?.(s.account.id)) != null,
    unverified: (reply, s) =>
      area.page(
        reply,
        403,
        unverifiedPage({ area: name, email: s.account.email, csrf: s.session.csrfToken }),
      ),
  };
}

/** The portal's check before a production application, and the page that explains it. */
export interface Verification {
  isVerified(s: Signed): Promise<boolean>;
  unverified(reply: FastifyReply, s: Signed): FastifyReply;
}
