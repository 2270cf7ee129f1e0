import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerUserRecoveryRoutes } from '../accounts/auth-routes.js';
import type { AccountRecovery } from '../accounts/recovery.js';
import type { SecondFactors } from '../accounts/second-factor.js';
import { createLoginFlow, type LoginDeps } from './login.js';
import { loginRoutes } from './login-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { secondFactorStep } from './second-factor-step.js';
import { tokenRoutes } from './token-routes.js';
import { userVerification } from './user-verification.js';

/** What the login flow needs (login.ts), and what the pages and token endpoints add to it. */
export interface AuthRouteDeps extends LoginDeps {
  signupEnabled: boolean;
  jwks: () => Promise<unknown>;
  guard: onRequestHookHandler;
  /** Issue 27: end users' password reset and email verification. */
  recovery: AccountRecovery;
  emailVerification: 'optional' | 'required';
  factors: SecondFactors;
}

/**
 * `{auth_url}`: the login pages (HTML, login-routes.ts), the token endpoints of
 * `/connect` clients (token-routes.ts) and the OAuth 2.0 / OpenID Connect door (oauth-routes.ts),
 * both doors sharing one login flow (login.ts).
 */
export async function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const flow = createLoginFlow(deps);
  const verification = userVerification({ mode: deps.emailVerification, ...deps });
  const secondStep = secondFactorStep({ ...deps, flow });
  await app.register(async (pages) => loginRoutes(pages, { ...deps, flow, verification, secondStep }));
  await app.register(async (pages) => secondStep.register(pages));
  await app.register(async (pages) => oauthRoutes(pages, { ...deps, flow }));
  await app.register(async (pages) => registerUserRecoveryRoutes(pages, { ...deps, flow }));
  tokenRoutes(app, deps);
}
