import type { FastifyInstance } from 'fastify';
import type { VersionDeprecation } from '../config/parsers.js';
import type { Metrics } from '../health/metrics.js';
import type { Environment } from '../platform/environment.js';
import type { UsageMeter } from '../usage/meter.js';
import { problemResponses } from './schemas.js';

/**
 * Hooks every response passes through: request metrics, usage metering (SPEC §8), and the
 * `Deprecation`/`Sunset` headers of deprecated versions (SPEC §9). Nothing here decides an answer.
 */
export function registerRequestHooks(
  app: FastifyInstance,
  deps: {
    environment: Environment;
    metrics?: Metrics;
    usage?: UsageMeter;
    deprecations?: Readonly<Record<string, VersionDeprecation>>;
  },
): void {
  const { metrics, usage, environment } = deps;
  // Every API-key route may answer 429 (SPEC §8): declared here once, so OpenAPI lists it
  // without each route repeating it.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { security?: unknown[]; response?: Record<string, unknown> } | undefined;
    if (schema?.security && schema.response && !schema.response['429']) {
      schema.response = { ...schema.response, ...problemResponses(429) };
    }
  });
  const deprecations = Object.entries(deps.deprecations ?? {}).map(([version, d]) => ({
    prefix: `/${version}/`,
    // RFC 9745: a structured-field date, `@` + seconds since the epoch.
    deprecation: `@${Math.floor(d.deprecatedAt / 1000)}`,
    // RFC 8594: an HTTP-date.
    sunset: new Date(d.sunsetAt).toUTCString(),
  }));
  if (deprecations.length > 0) {
    app.addHook('onRequest', async (request, reply) => {
      for (const d of deprecations) {
        if (request.url.startsWith(d.prefix)) {
          reply.header('deprecation', d.deprecation);
          reply.header('sunset', d.sunset);
        }
      }
    });
  }
  if (metrics || usage) {
    app.addHook('onResponse', async (request, reply) => {
      const status = reply.statusCode;
      if (usage && request.apiKey) usage.record(request.apiKey.id, status);
      if (metrics) {
        const labels = {
          env: environment,
          method: request.method,
          // The route pattern, never the raw path (ids would make labels unbounded).
          route: request.routeOptions.url ?? 'unmatched',
          status: String(status),
        };
        metrics.httpRequests.inc(labels);
        metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
      }
    });
  }
}
