import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import { problemResponses } from '../http/schemas.js';
import type { RedisState } from '../platform/redis.js';
import { VERSION } from '../platform/version.js';

const redisCheck = (state: RedisState | undefined) =>
  state === undefined || state === 'not_configured'
    ? 'not_configured'
    : state === 'ready'
      ? 'ok'
      : 'degraded';

/**
 * `/healthz`: the process answers. `/readyz`: it can serve traffic (database reachable, and the
 * in-memory search index built, issue 12). Redis is reported but does not decide readiness:
 * without it an instance still serves, with per-instance rate limits (`redis: "degraded"`).
 */
export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Database; redisState?: () => RedisState; searchReady?: () => boolean },
): void {
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
      const redis = redisCheck(deps.redisState?.());
      if (deps.searchReady && !deps.searchReady()) {
        throw new ProblemError(
          'unavailable',
          `Not ready: the search index is being built (redis: ${redis}).`,
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
      try {
        await deps.db.ping();
      } catch {
        throw new ProblemError('unavailable', `Not ready: the database does not answer (redis: ${redis}).`, {
          headers: { 'retry-after': '1' },
        });
      }
      return { status: 'ready' as const, checks: { database: 'ok' as const, redis } };
    },
  );
}
