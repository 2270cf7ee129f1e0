import type { FastifyInstance } from 'fastify';
import type { Environment } from '../platform/environment.js';
import type { Metrics } from './metrics.js';

/** Counts and times every response of the app (`/metrics`), labelled by route pattern. */
export function registerRequestMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  environment: Environment,
): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      env: environment,
      method: request.method,
      // The route pattern, never the raw path (ids would make labels unbounded).
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
