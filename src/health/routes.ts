import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../http/errors.js';
import { problemResponses } from '../http/schemas.js';
import type { RedisState } from '../platform/redis.js';
import { VERSION } from '../platform/version.js';
import type { HealthProbes } from './probes.js';

const redisCheck = (state: RedisState) =>
  state === 'not_configured' ? 'not_configured' : state === 'ready' ? 'ok' : 'degraded';

/**
 * `/healthz`: the process answers. `/readyz`: it can serve traffic (database reachable, and the
 * in-memory search index built, issue 12). Redis is reported but does not decide readiness:
 * without it an instance still serves, with per-instance rate limits (`redis: "degraded"`).
 */
export function registerHealthRoutes(app: FastifyInstance, probes: HealthProbes): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness',
        operationId: 'getHealth',
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            version: Type.String({ description: 'The running Vitrine version.', examples: [VERSION] }),
          }),
        },
      },
    },
    async () => ({ status: 'ok' as const, version: VERSION }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers and the search index is built',
        operationId: 'getReadiness',
        response: {
          200: Type.Object({
            status: Type.Literal('ready'),
            checks: Type.Object({
              database: Type.Literal('ok'),
              redis: Type.Union([
                Type.Literal('ok'),
                Type.Literal('degraded'),
                Type.Literal('not_configured'),
              ]),
            }),
          }),
          ...problemResponses(503),
        },
      },
    },
    async () => {
      const redis = redisCheck(probes.redisState());
      if (!probes.searchReady()) {
        throw new ProblemError(
          'unavailable',
          `Not ready: the search index is being built (redis: ${redis}).`,
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
      try {
        await probes.databaseAnswers();
      } catch {
        throw new ProblemError('unavailable', `Not ready: the database does not answer (redis: ${redis}).`, {
          headers: { 'retry-after': '1' },
        });
      }
      return { status: 'ready' as const, checks: { database: 'ok' as const, redis } };
    },
  );
}
