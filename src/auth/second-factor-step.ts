import type { FastifyInstance, FastifyReply } from 'fastify';
import { userCodePage } from '../accounts/auth-pages.js';
import type { SecondFactors } from '../accounts/second-factor.js';
import { formFields } from '../http/form.js';
import { toProblem } from '../http/problem.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';
import type { UserService } from '../users/service.js';
import { pageSecurityHeaders } from '../web/security-headers.js';
import type { LoginFlow, VerifiedLogin } from './login.js';
import { sendPage, sendRefusal } from './login-routes.js';
import { connectAccount, type LoginThrottle, loginSubjects } from './login-throttle.js';
import { loginOrigin } from './token-families.js';

/**
 * The second step of the login flow (issue 27), between `verifyCredentials` and `issueTokens`:
 * a user who enrolled a second factor gets a code page instead of the redirect. The page carries
 * the flow's ticket (CSRF, key, destination) and a sealed proof that the password step passed
 * (second-factor.ts `sealStep`); `POST /auth/two-factor` checks both, then the code — throttled
 * and locked out like passwords — and finishes the login exactly as the password step would.
 */
export interface SecondFactorStep {
  /** Whether this user owes a code. */
  due(user: User): Promise<boolean>;
  ask(reply: FastifyReply, login: VerifiedLogin, user: User, status?: number, error?: string): FastifyReply;
  register(app: FastifyInstance): void;
}

export function secondFactorStep(deps: {
  environment: Environment;
  flow: LoginFlow;
  factors: SecondFactors;
  users: Pick<UserService, 'get'>;
  throttle: LoginThrottle;
}): SecondFactorStep {
  const { environment, flow, factors } = deps;
  const ref = (user: User) => ({ kind: 'user' as const, id: user.id, email: user.email, environment });
  const step: SecondFactorStep = {
    due: (user) => factors.enrolled(ref(user)),
    ask(reply, login, user, status = 200, error) {
      return sendPage(
        reply,
        status,
        userCodePage({
          environment,
          projectName: login.projectName,
          ticket: login.raw,
          step: factors.sealStep(user.id, login.raw),
          error,
        }),
        [login.destination.origin],
      );
    },
    register(app) {
      app.setErrorHandler((error, request, reply) => {
        const problem = toProblem(request, error as Error);
        return sendRefusal(reply, deps, { ok: false, code: problem.code, message: problem.detail });
      });
      app.post('/auth/two-factor', { schema: { hide: true } }, async (request, reply) => {
        const form = formFields(request.body);
        const login = await flow.verifyTicket(request, form.ticket ?? '');
        if (!login.ok) return sendRefusal(reply, deps, login);
        const userId = factors.openStep(form.step ?? '', login.raw);
        const user = userId ? await deps.users.get(userId) : undefined;
        if (user?.state !== 'active' || user.environment !== environment) {
          return sendRefusal(reply, deps, {
            ok: false,
            code: 'login_expired',
            message: 'The sign-in took too long. Go back to the application and sign in again.',
          });
        }
        const subjects = loginSubjects(`2fa:${connectAccount(environment, user.email)}`, request.ip);
        const wait = deps.throttle.retryAfter(subjects);
        if (wait > 0) {
          reply.header('retry-after', String(Math.ceil(wait / 1000)));
          return step.ask(
            reply,
            login,
            user,
            429,
            `Too many wrong codes. Try again in ${Math.ceil(wait / 1000)} seconds.`,
          );
        }
        const actor = { kind: 'system' as const, id: user.id, email: user.email, ip: request.ip };
        const outcome = await factors.check(ref(user), (form.code ?? '').slice(0, 40), actor);
        if (outcome === 'invalid') {
          deps.throttle.failure(subjects);
          request.log.info({ environment, outcome: 'second_factor_failed' }, 'second factor refused');
          return step.ask(reply, login, user, 401, 'That code is not right, or it was used already.');
        }
        deps.throttle.success(subjects);
        request.log.info({ environment, userId: user.id, keyId: login.key.id, outcome: 'login' }, 'login');
        const location = flow.redirectWithTokens(
          login,
          await flow.issueTokens(login, user, loginOrigin(request)),
        );
        flow.clearTicketCookie(reply);
        pageSecurityHeaders(reply);
        return reply.code(303).header('location', location).send();
      });
    },
  };
  return step;
}
