import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { LOGIN_UNLOCK_TOPIC } from '../auth/login-throttle.js';
import { authRoutes } from '../auth/routes.js';
import type { Config } from '../config/config.js';
import { consoleRoutes } from '../console/routes.js';
import type { Database } from '../db/database.js';
import type { Deps } from '../deps.js';
import type { Metrics } from '../health/metrics.js';
import { metricsRoute } from '../health/metrics-route.js';
import { healthRoutes } from '../health/routes.js';
import { keyRoutes } from '../keys/routes.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { meRoutes } from '../me/routes.js';
import { offerWriteRoutes } from '../offers/import-http-routes.js';
import { offerRoutes } from '../offers/routes.js';
import type { OfferService } from '../offers/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { RedisState } from '../platform/redis.js';
import { portalRoutes } from '../portal/routes.js';
import type { UsageMeter } from '../usage/meter.js';
import { apiKeyGuard } from './api-key-guard.js';
import { bearerGuard } from './bearer-guard.js';
import { registerCors } from './cors.js';
import { createClientErrorHandler, createFrameworkErrors, registerShutdownAnswer } from './edge-errors.js';
import { parseForm, unsafeFormProblem } from './form.js';
import { registerOpenApi } from './openapi.js';
import { registerProblemHandlers } from './problem.js';
import { createRequestLimits, keyPlan } from './rate-limit.js';
import { registerRequestHooks } from './request-hooks.js';
import { createRequestIds } from './request-id.js';
import { trackRoutes } from './route-inventory.js';
import { authUrls, baseUrls, origins } from './urls.js';
import { validatorCompiler } from './validation.js';

export const SERVED_VERSIONS = ['v1'] as const;

export interface AppDeps {
  config: Config;
  environment: Environment;
  db: Database;
  keys: KeyVerifier;
  offers: OfferService;
  logger: Logger;
  /** The auth server and end-user API (SPEC §5, §6). */
  auth: Pick<
    Deps,
    | 'clock'
    | 'keyStore'
    | 'projects'
    | 'users'
    | 'tokens'
    | 'oauth'
    | 'signingKeys'
    | 'tickets'
    | 'loginThrottle'
    | 'offers'
  >;
  /** Issue #6, all optional so an app can be built without them: limits, metering, metrics. */
  clock?: Clock;
  rateLimiter?: RateLimiter | null;
  usageMeter?: UsageMeter | null;
  metrics?: Metrics;
  redisState?: () => RedisState;
  /** Issue 12: false while the in-memory search index is being built (`/readyz` answers 503). */
  searchReady?: () => boolean;
  /** Issue 5: the developer portal and operator console, served on the production listener only. */
  portal?: Pick<
    Deps,
    | 'developers'
    | 'operators'
    | 'projects'
    | 'keys'
    | 'keyStore'
    | 'applications'
    | 'usage'
    | 'sessions'
    | 'audit'
    | 'loginThrottle'
    | 'changeBus'
  >;
}

/**
 * Builds the HTTP application of one environment. Never listens: `serve` does, and tests drive
 * it in process with `app.inject()`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger.child({ env: deps.environment }) as FastifyBaseLogger,
    genReqId: createRequestIds(),
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Issue 13: problem+json before any route too (edge-errors.ts).
    return503OnClosing: false,
    frameworkErrors: createFrameworkErrors(deps.environment),
    clientErrorHandler: createClientErrorHandler(),
  });
  trackRoutes(app);
  registerShutdownAnswer(app);
  app.setValidatorCompiler(validatorCompiler());
  app.decorateRequest('apiKey', null);
  app.decorateRequest('endUser', null);
  // HTML forms (login) and RFC 6749/7009-style token requests send urlencoded bodies.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const fields = parseForm(String(body));
      const unsafe = unsafeFormProblem(fields);
      if (unsafe) done(unsafe, undefined);
      else done(null, fields);
    },
  );
  // Callback style: a synchronous hook on every request should not allocate a promise.
  // Issue 13: served over https, browsers are told to stay on it (RFC 6797); never over http.
  const hsts = origins(deps.config)[deps.environment].startsWith('https:');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000');
    done();
  });
  registerProblemHandlers(app, SERVED_VERSIONS);
  await registerOpenApi(app, deps.environment, origins(deps.config)[deps.environment]);

  const environment = deps.environment;
  registerRequestHooks(app, {
    environment,
    metrics: deps.metrics,
    usage: deps.usageMeter ?? undefined,
    deprecations: deps.config.apiDeprecations,
  });
  const limits =
    deps.rateLimiter && deps.clock
      ? createRequestLimits({
          limiter: deps.rateLimiter,
          config: deps.config,
          clock: deps.clock,
          environment,
          onRejected: (kind) => deps.metrics?.rateLimitRejections.inc({ env: environment, kind }),
        })
      : undefined;
  const guard = apiKeyGuard(deps.keys, environment, baseUrls(deps.config), limits);
  // Issue 16: browsers with publishable keys; preflights answered from the key cache's origins.
  registerCors(app, { allowsOrigin: (origin) => deps.keys.allowsOrigin(environment, origin) });

  healthRoutes(app, { db: deps.db, redisState: deps.redisState, searchReady: deps.searchReady });
  if (deps.metrics) metricsRoute(app, { metrics: deps.metrics, token: deps.config.metricsToken });
  keyRoutes(app, { guard, planOf: (key) => (limits ? keyPlan(deps.config, key) : null) });
  offerRoutes(app, {
    offers: deps.offers,
    environment,
    baseUrl: baseUrls(deps.config)[environment],
    guard,
  });
  offerWriteRoutes(app, {
    offers: deps.offers,
    db: deps.db,
    environment,
    guard,
    maxBytes: deps.config.importMaxBytes,
  });
  await authRoutes(app, {
    environment,
    origin: origins(deps.config)[environment],
    signupEnabled: deps.config.signupEnvironments.includes(environment),
    clock: deps.auth.clock,
    verifier: deps.keys,
    keyStore: deps.auth.keyStore,
    projects: deps.auth.projects,
    users: deps.auth.users,
    tokens: deps.auth.tokens,
    oauth: deps.auth.oauth,
    tickets: deps.auth.tickets[environment],
    throttle: deps.auth.loginThrottle,
    jwks: () => deps.auth.signingKeys.jwks(environment),
    guard,
    limits,
  });
  meRoutes(app, {
    environment,
    apiKeyGuard: guard,
    bearerGuard: bearerGuard(deps.auth.tokens, environment),
    users: deps.auth.users,
    offers: deps.auth.offers,
    db: deps.db,
    clock: deps.auth.clock,
  });
  if (deps.portal && environment === 'production') {
    const shared = {
      ...deps.portal,
      secure: origins(deps.config).production.startsWith('https:'),
      throttle: deps.portal.loginThrottle,
      urls: { base: baseUrls(deps.config), auth: authUrls(deps.config) },
    };
    await app.register(async (scope) => portalRoutes(scope, shared));
    const bus = deps.portal.changeBus;
    await app.register(async (scope) =>
      consoleRoutes(scope, {
        ...shared,
        db: deps.db,
        // Issue 13: an unlock reaches every instance (each keeps its own sign-in counts).
        onUnlock: (account) => bus.publish(LOGIN_UNLOCK_TOPIC, account),
      }),
    );
  }
  return app;
}
