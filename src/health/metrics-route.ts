import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/errors.js';
import type { Metrics } from './metrics.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `/metrics` (Prometheus text format). With `METRICS_TOKEN`: bearer token required. Without:
 * answered to loopback callers only, judged by the socket (never `X-Forwarded-For`), so a
 * scraper on the same host works with no setup and nothing leaks through a load balancer.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  deps: { metrics: Metrics; token: string | undefined },
) {
  const allowed = (request: FastifyRequest): boolean => {
    if (deps.token === undefined) return LOOPBACK.has(request.socket.remoteAddress ?? '');
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), deps.token);
  };
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request)) {
      throw new ProblemError(
        'metrics_forbidden',
        deps.token === undefined
          ? 'Metrics are served to loopback callers only (no METRICS_TOKEN is set).'
          : 'Send Authorization: Bearer <METRICS_TOKEN>.',
      );
    }
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}
