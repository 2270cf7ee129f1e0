import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { areaAccount, type LoginThrottle, loginSubjects } from '../auth/login-throttle.js';
import type { SessionService } from '../sessions/service.js';
import { flashes } from '../web/flash.js';
import type { SessionArea, Signed } from '../web/session-area.js';
import { type AreaView, accountPage, codeStepPage, enrolPage, recoveryCodesPage } from './account-pages.js';
import type { AccountRef } from './model.js';
import type { SecondFactors } from './second-factor.js';

const FLASHES = {
  'session-ended': 'The session has ended.',
  '2fa-off': 'Two-factor sign-in is off.',
};

/**
 * The account page of the portal and the console (issue 27): two-factor sign-in (enrol with a QR
 * code and a first code, ten recovery codes shown once, turn off with a current code) and the
 * account's live sessions, each of which it can end; and the second step of a sign-in. Codes are
 * throttled and locked out like passwords (login-throttle.ts), per account and address.
 */
export function registerAccountRoutes(
  app: FastifyInstance,
  area: SessionArea,
  deps: {
    area: 'portal' | 'console';
    secure: boolean;
    factors: SecondFactors;
    sessions: SessionService;
    throttle: LoginThrottle;
    nav: readonly { href: string; label: string }[];
  },
): void {
  const name = deps.area;
  const kind = name === 'portal' ? ('developer' as const) : ('operator' as const);
  const flash = flashes(name, deps.secure, FLASHES);
  const ref = (s: Signed): AccountRef => ({ kind, id: s.account.id, email: s.account.email });
  const view = (s: Signed): AreaView => ({
    area: name,
    who: s.account.email,
    csrf: s.session.csrfToken,
    nav: deps.nav,
  });
  const codeOf = (request: FastifyRequest) => (area.form(request).code ?? '').slice(0, 40);
  const home = (reply: FastifyReply, path = '') =>
    reply.code(303).header('location', `/${name}/${path}`).send();

  /** Throttles one code attempt like a password attempt; the wait in ms, or 0 and the outcome's callbacks. */
  function throttled(request: FastifyRequest, s: Signed) {
    const subjects = loginSubjects(`2fa:${areaAccount(name, s.account.email)}`, request.ip);
    return {
      wait: deps.throttle.retryAfter(subjects),
      failed: () => deps.throttle.failure(subjects),
      succeeded: () => deps.throttle.success(subjects),
    };
  }
  const tooMany = (reply: FastifyReply, wait: number) => {
    reply.header('retry-after', String(Math.ceil(wait / 1000)));
    return `Too many wrong codes. Try again in ${Math.ceil(wait / 1000)} seconds.`;
  };

  async function showAccount(request: FastifyRequest, reply: FastifyReply, status = 200, error?: string) {
    const s = area.signed(request);
    const enrolled = await deps.factors.enrolled(ref(s));
    return area.page(
      reply,
      status,
      accountPage(
        view(s),
        {
          email: s.account.email,
          enrolled,
          recoveryCodesLeft: enrolled ? await deps.factors.remainingRecoveryCodes(ref(s)) : 0,
          sessions: await deps.sessions.list(kind, s.account.id),
          current: s.session.id,
        },
        flash.take(request, reply),
        error,
      ),
    );
  }

  app.get(`/${name}/account`, async (request, reply) => showAccount(request, reply));

  app.post(`/${name}/account/sessions/:sessionId/end`, async (request, reply) => {
    const s = area.signed(request);
    const id = String((request.params as { sessionId?: string }).sessionId ?? '').slice(0, 64);
    if (!(await deps.sessions.endOne(kind, s.account.id, id))) {
      return area.fail(reply, 'not_found', 'There is no such session of yours, or it has ended already.');
    }
    return flash.redirect(reply, `/${name}/account`, 'session-ended');
  });

  // The second step of a sign-in.
  app.get(`/${name}/two-factor`, async (request, reply) => {
    const s = area.signed(request);
    if (s.session.pending !== 'code') return home(reply, 'account');
    return area.page(reply, 200, codeStepPage(view(s)));
  });
  app.post(`/${name}/two-factor`, async (request, reply) => {
    const s = area.signed(request);
    if (s.session.pending !== 'code') return home(reply, 'account');
    const throttle = throttled(request, s);
    if (throttle.wait > 0) return area.page(reply, 429, codeStepPage(view(s), tooMany(reply, throttle.wait)));
    const outcome = await deps.factors.check(ref(s), codeOf(request), s.actor);
    if (outcome === 'invalid') {
      throttle.failed();
      request.log.info({ area: name, outcome: 'second_factor_failed' }, 'second factor refused');
      return area.page(reply, 401, codeStepPage(view(s), 'That code is not right, or it was used already.'));
    }
    throttle.succeeded();
    await area.completeSignIn(s);
    return home(reply, outcome === 'recovery_code' ? 'account' : '');
  });

  // Enrolment.
  app.get(`/${name}/two-factor/enrol`, async (request, reply) => {
    const s = area.signed(request);
    if (await deps.factors.enrolled(ref(s))) return home(reply, 'account');
    const enrolment = (await deps.factors.pending(ref(s))) ?? (await deps.factors.begin(ref(s)));
    return area.page(reply, 200, enrolPage(view(s), enrolment, s.session.pending === 'enrol'));
  });
  app.post(`/${name}/two-factor/enrol`, async (request, reply) => {
    const s = area.signed(request);
    if (await deps.factors.enrolled(ref(s))) return home(reply, 'account');
    const enrolment = await deps.factors.begin(ref(s));
    return area.page(reply, 200, enrolPage(view(s), enrolment, s.session.pending === 'enrol'));
  });
  app.post(`/${name}/two-factor/confirm`, async (request, reply) => {
    const s = area.signed(request);
    const pending = await deps.factors.pending(ref(s));
    if (!pending) return home(reply, 'account');
    const forced = s.session.pending === 'enrol';
    const throttle = throttled(request, s);
    if (throttle.wait > 0)
      return area.page(reply, 429, enrolPage(view(s), pending, forced, tooMany(reply, throttle.wait)));
    const codes = await deps.factors.confirm(ref(s), codeOf(request), s.actor);
    if (!codes) {
      throttle.failed();
      return area.page(
        reply,
        400,
        enrolPage(
          view(s),
          pending,
          forced,
          'That code is not right. Check the time on your phone and try the next one.',
        ),
      );
    }
    throttle.succeeded();
    if (forced) await area.completeSignIn(s);
    return area.page(reply, 200, recoveryCodesPage(view(s), codes));
  });
  app.post(`/${name}/two-factor/remove`, async (request, reply) => {
    const s = area.signed(request);
    const throttle = throttled(request, s);
    if (throttle.wait > 0) return showAccount(request, reply, 429, tooMany(reply, throttle.wait));
    if ((await deps.factors.check(ref(s), codeOf(request), s.actor)) === 'invalid') {
      throttle.failed();
      return showAccount(request, reply, 400, 'That code is not right: two-factor sign-in stays on.');
    }
    throttle.succeeded();
    await deps.factors.remove(ref(s), s.actor, 'remove');
    return flash.redirect(reply, `/${name}/account`, '2fa-off');
  });
}
