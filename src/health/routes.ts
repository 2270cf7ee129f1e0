import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import { problemResponses } from '../http/schemas.js';
import type { RedisState } from '../platform/redis.js';

const redisCheck = (state: RedisState | undefined) =>
  state === undefined || state === 'not_configured'
    ? 'not_configured'
    : state === 'ready'
      ? 'ok'
      : 'degraded';

/**
 * `/healthz`: the process answers. `/readyz`: it can serve traffic (database reachable). Redis
 * is reported but does not decide readiness: without it an instance still serves, with
 * per-instance rate limits (`redis: "degraded"`).
 */
export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Database; redisState?: () => RedisState },
): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the database answers',
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
