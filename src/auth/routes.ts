import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { KeyService } from '../keys/service.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { ProjectService } from '../projects/service.js';
import type { UserService } from '../users/service.js';
import { createLoginFlow } from './login.js';
import { loginRoutes } from './login-routes.js';
import type { LoginThrottle } from './login-throttle.js';
import type { TicketIssuer } from './login-ticket.js';
import type { OAuthService } from './oauth.js';
import { oauthRoutes } from './oauth-routes.js';
import { tokenRoutes } from './token-routes.js';
import type { TokenService } from './tokens.js';

export interface AuthRouteDeps {
  environment: Environment;
  /** Origin of this environment (`PUBLIC_ORIGIN`); `{auth_url}` is `<origin>/auth`. */
  origin: string;
  signupEnabled: boolean;
  clock: Clock;
  verifier: KeyVerifier;
  keys: Pick<KeyService, 'activeKey'>;
  projects: ProjectService;
  users: UserService;
  tokens: TokenService;
  /** SPEC §5.4: the OAuth 2.0 / OpenID Connect door beside `/connect`. */
  oauth: OAuthService;
  tickets: TicketIssuer;
  throttle: LoginThrottle;
  jwks: () => Promise<unknown>;
  guard: onRequestHookHandler;
  /** The search API's budget of failed keys per client address (SPEC §8), also spent here. */
  limits?: RequestLimits;
}

/**
 * `{auth_url}` (SPEC §5): the login pages (HTML, login-routes.ts), the token endpoints of
 * `/connect` clients (token-routes.ts) and the OAuth 2.0 / OpenID Connect door (oauth-routes.ts),
 * both doors sharing one login flow (login.ts).
 */
export async function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const flow = createLoginFlow(deps);
  await app.register(async (pages) => loginRoutes(pages, { ...deps, flow }));
  await app.register(async (pages) => oauthRoutes(pages, { ...deps, flow }));
  tokenRoutes(app, deps);
}
