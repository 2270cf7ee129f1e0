import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import { problemResponses } from '../http/schemas.js';

/** `/healthz`: the process answers. `/readyz`: it can serve traffic (database reachable). */
export function healthRoutes(app: FastifyInstance, deps: { db: Database }): void {
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
            checks: Type.Object({ database: Type.Literal('ok') }),
          }),
          ...problemResponses(503),
        },
      },
    },
    async () => {
      try {
        await deps.db.ping();
      } catch {
        throw new ProblemError('unavailable', 'Not ready: the database does not answer.', {
          headers: { 'retry-after': '1' },
        });
      }
      return { status: 'ready' as const, checks: { database: 'ok' as const } };
    },
  );
}
