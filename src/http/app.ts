import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Metrics } from '../health/metrics.js';
import { metricsRoute } from '../health/metrics-route.js';
import { healthRoutes } from '../health/routes.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { offerRoutes } from '../offers/routes.js';
import type { OfferService } from '../offers/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { RedisState } from '../platform/redis.js';
import type { UsageMeter } from '../usage/meter.js';
import { apiKeyGuard } from './api-key-guard.js';
import { registerOpenApi } from './openapi.js';
import { registerProblemHandlers } from './problem.js';
import { createRequestLimits } from './rate-limit.js';
import { registerRequestHooks } from './request-hooks.js';
import { requestId } from './request-id.js';

export const SERVED_VERSIONS = ['v1'] as const;

export interface AppDeps {
  config: Config;
  environment: Environment;
  db: Database;
  keys: KeyVerifier;
  offers: OfferService;
  logger: Logger;
  /** Issue #6, all optional so an app can be built without them: limits, metering, metrics. */
  clock?: Clock;
  rateLimiter?: RateLimiter | null;
  usageMeter?: UsageMeter | null;
  metrics?: Metrics;
  redisState?: () => RedisState;
}

export function origins(config: Config): Record<Environment, string> {
  return { production: config.publicOrigin, testing: config.testingPublicOrigin };
}

export function baseUrls(config: Config): Record<Environment, string> {
  const o = origins(config);
  return { production: `${o.production}/v1`, testing: `${o.testing}/v1` };
}

/**
 * Builds the HTTP application of one environment. Never listens: `serve` does, and tests drive
 * it in process with `app.inject()`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger.child({ env: deps.environment }) as FastifyBaseLogger,
    genReqId: requestId,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: {
      customOptions: {
        // Unknown query parameters are an error (SPEC §6), not silently dropped.
        removeAdditional: false,
        coerceTypes: 'array',
        allErrors: true,
        useDefaults: true,
        // Gives errors their offending value, to tell a repeated parameter from a mistyped one.
        verbose: true,
      },
    },
  });
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerProblemHandlers(app, SERVED_VERSIONS);
  await registerOpenApi(app, deps.environment, origins(deps.config)[deps.environment]);

  registerRequestHooks(app, {
    environment: deps.environment,
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
          environment: deps.environment,
          onRejected: (kind) => deps.metrics?.rateLimitRejections.inc({ env: deps.environment, kind }),
        })
      : undefined;

  healthRoutes(app, { db: deps.db, redisState: deps.redisState });
  if (deps.metrics) metricsRoute(app, { metrics: deps.metrics, token: deps.config.metricsToken });
  offerRoutes(app, {
    offers: deps.offers,
    environment: deps.environment,
    baseUrl: baseUrls(deps.config)[deps.environment],
    guard: apiKeyGuard(deps.keys, deps.environment, baseUrls(deps.config), limits),
  });
  return app;
}
