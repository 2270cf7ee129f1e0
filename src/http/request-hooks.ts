import type { FastifyInstance } from 'fastify';
import type { VersionDeprecation } from '../config/parsers.js';
import { problemResponses } from './schemas.js';

/**
 * Hooks every response passes through: the 429 every key route may answer, and the
 * `Deprecation`/`Sunset` headers of deprecated versions. Nothing here decides an
 * answer. Request metrics and usage metering hook in from their own modules
 * (health/request-metrics.ts, usage/request-usage.ts).
 */
export function registerRequestHooks(
  app: FastifyInstance,
  deps: { deprecations?: Readonly<Record<string, VersionDeprecation>> },
): void {
  // Every API-key route may answer 429: declared here once, so OpenAPI lists it
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
}
