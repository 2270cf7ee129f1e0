import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerGuard } from './auth/bearer-guard.js';
import { errorPage } from './auth/pages.js';
import { registerAuthRoutes } from './auth/routes.js';
import { registerConsoleRoutes } from './console/routes.js';
import type { Deps } from './deps.js';
import { registerMetricsRoute } from './health/metrics-route.js';
import { registerRequestMetrics } from './health/request-metrics.js';
import { registerHealthRoutes } from './health/routes.js';
import { registerCors } from './http/cors.js';
import { type ProblemError, pageError } from './http/errors.js';
import { createHttpServer } from './http/server.js';
import { authUrls, baseUrls, origins } from './http/urls.js';
import { apiKeyGuard } from './keys/api-key-guard.js';
import { registerKeyRoutes } from './keys/routes.js';
import { createRequestLimits, keyPlan } from './limits/request-limits.js';
import { registerMeRoutes } from './me/routes.js';
import { registerOfferWriteRoutes } from './offers/import-http-routes.js';
import { registerOfferRoutes } from './offers/routes.js';
import type { Environment } from './platform/environment.js';
import { registerPortalRoutes } from './portal/routes.js';
import { registerSearchSettingsRoutes } from './search-settings/routes.js';
import { registerUsageMetering } from './usage/request-usage.js';
import { registerAssetRoutes } from './web/asset-routes.js';
import { registerLandingRoutes } from './web/landing.js';
import { appErrorPage } from './web/layout.js';
import { pageSecurityHeaders } from './web/security-headers.js';
import { registerWebhookRoutes } from './webhooks/routes.js';

/**
 * Builds the HTTP application of one environment from the services `createDeps` built (issue
 * 14: the one composition root). It only mounts: the HTTP floor (http/), then each capability's
 * routes with the services they call. Never listens: `serve` does, and tests drive it in process
 * with `app.inject()`.
 */
export async function buildApp(deps: Deps, environment: Environment): Promise<FastifyInstance> {
  const { config } = deps;
  const app = await createHttpServer({
    config,
    environment,
    logger: deps.logger,
    pageAnswer: (request, reply, problem) => answerAsPage(environment, request, reply, problem),
  });
  registerRequestMetrics(app, deps.metrics, environment);
  if (deps.usageMeter) registerUsageMetering(app, deps.usageMeter);
  const limits = deps.rateLimiter
    ? createRequestLimits({
        limiter: deps.rateLimiter,
        config,
        clock: deps.clock,
        environment,
        onRejected: (kind) => deps.metrics.rateLimitRejections.inc({ env: environment, kind }),
      })
    : undefined;
  const guard = apiKeyGuard(deps.keyVerifier, environment, baseUrls(config), limits);
  // Issue 16: browsers with publishable keys; preflights answered from the key cache's origins.
  registerCors(app, { allowsOrigin: (origin) => deps.keyVerifier.allowsOrigin(environment, origin) });

  registerHealthRoutes(app, deps.health);
  registerMetricsRoute(app, { metrics: deps.metrics, token: config.metricsToken });
  registerKeyRoutes(app, { guard, planOf: (key) => (limits ? keyPlan(config, key) : null) });
  registerOfferRoutes(app, {
    offers: deps.offers,
    environment,
    baseUrl: baseUrls(config)[environment],
    guard,
  });
  registerSearchSettingsRoutes(app, { settings: deps.searchSettings, environment, guard });
  registerOfferWriteRoutes(app, {
    imports: deps.offerImports,
    environment,
    guard,
  });
  registerWebhookRoutes(app, { guard, webhooks: deps.webhooks.service });
  registerAssetRoutes(app);
  registerLandingRoutes(app, {
    environment,
    origins: origins(config),
    hasPortal: environment === 'production',
  });
  await registerAuthRoutes(app, {
    environment,
    origin: origins(config)[environment],
    signupEnabled: config.signupEnvironments.includes(environment),
    clock: deps.clock,
    verifier: deps.keyVerifier,
    keys: deps.keys,
    projects: deps.projects,
    users: deps.users,
    tokens: deps.tokens,
    oauth: deps.oauth,
    tickets: deps.tickets[environment],
    throttle: deps.loginThrottle,
    jwks: () => deps.signingKeys.jwks(environment),
    recovery: deps.accountRecovery,
    emailVerification: config.userEmailVerification,
    factors: deps.secondFactors,
    guard,
    limits,
  });
  registerMeRoutes(app, {
    environment,
    apiKeyGuard: guard,
    bearerGuard: bearerGuard(deps.tokens, environment),
    me: deps.me,
  });
  // Issue 5: the developer portal and operator console, served on the production listener only.
  if (environment === 'production') {
    const secure = origins(config).production.startsWith('https:');
    const signIn = {
      secure,
      sessions: deps.sessions,
      audit: deps.audit,
      throttle: deps.loginThrottle,
      recovery: deps.accountRecovery,
      factors: deps.secondFactors,
    };
    await app.register(async (scope) =>
      registerPortalRoutes(scope, {
        ...signIn,
        developerActions: deps.developerActions,
        developers: deps.developers,
        urls: { base: baseUrls(config), auth: authUrls(config) },
        search: (env, query) => deps.offers.search(env, query),
        offerCount: (env) => deps.offers.count(env),
        webhooks: deps.webhooks.service,
      }),
    );
    await app.register(async (scope) =>
      registerConsoleRoutes(scope, {
        ...signIn,
        operatorActions: deps.operatorActions,
        require2fa: config.consoleRequire2fa,
        consoleSearch: deps.consoleSearch,
        searchSettings: deps.searchSettings,
        synonyms: deps.synonyms,
        offerCount: (env) => deps.offers.count(env),
        operators: deps.operators,
        developers: deps.developers,
        projects: deps.projects,
        keys: deps.keys,
        applications: deps.applications,
        usage: deps.usage,
      }),
    );
  }
  return app;
}

/**
 * A framework error (an undecodable URL, an over-long id) on a browser page's URL is answered as
 * that area's HTML page: the auth server's pages, the portal, the console.
 */
function answerAsPage(
  environment: Environment,
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ProblemError,
): boolean {
  const area = /^\/(portal|console|auth)\//.exec(request.url)?.[1];
  if (!area) return false;
  const { status, title } = pageError(problem.code);
  const body =
    area === 'auth'
      ? errorPage(environment, title, problem.detail, problem.code)
      : appErrorPage(area as 'portal' | 'console', title, problem.detail, problem.code);
  pageSecurityHeaders(reply);
  reply.code(status).type('text/html; charset=utf-8').send(body);
  return true;
}
