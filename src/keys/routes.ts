import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { Plan } from '../limits/rate-limiter.js';
import type { KeyRecord } from './model.js';
import { type CallingKey, CallingKeySchema } from './schemas.js';
import { keyScopes } from './scopes.js';

export interface KeyRouteDeps {
  guard: onRequestHookHandler;
  /** The plan the rate limiter applies to a key (per second), or null when requests are not limited. */
  planOf: (key: KeyRecord) => Plan | null;
}

const NoQuery = Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `GET {base_url}/key` (issue #3): "which key am I calling with?" Answered from the verified key
 * record the guard already holds, with no database read, so it doubles as the cheapest
 * authenticated request (the bench compares it with `/healthz`). Rate-limited and metered like
 * every API call.
 */
export function registerKeyRoutes(app: FastifyInstance, deps: KeyRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // The answer depends only on the record (a change to a key loads a new record object) and on
  // the configured plans: built once per record, not per request.
  const answers = new WeakMap<KeyRecord, CallingKey>();
  const answerFor = (key: KeyRecord): CallingKey => {
    let answer = answers.get(key);
    if (!answer) {
      answer = describe(key, deps.planOf(key));
      answers.set(key, answer);
    }
    return answer;
  };
  api.get(
    '/v1/key',
    {
      onRequest: deps.guard,
      schema: {
        tags: ['keys'],
        summary: 'The calling API key',
        operationId: 'getCallingKey',
        description:
          'The public facts of the key this request is made with: id, environment, project, hint, whether the refresh permission is granted, its rate-limit plan and expiry. Never the key itself or its hash. Useful to check a configured key, and as a cheap authenticated health check.',
        security: API_KEY_SECURITY,
        querystring: NoQuery,
        response: { 200: CallingKeySchema, ...problemResponses(400, 401, 403) },
      },
    },
    // Synchronous: nothing here waits, so no promise per request (issue #3).
    (request, reply): CallingKey => {
      const key = request.apiKey;
      if (!key) throw new Error('API-key guard did not run');
      // The answer is per key and the key may travel in a header a shared cache ignores.
      reply.header('cache-control', 'no-store');
      return answerFor(key);
    },
  );
}

function describe(key: KeyRecord, plan: Plan | null): CallingKey {
  return {
    id: key.id,
    environment: key.environment,
    projectId: key.projectId,
    hint: key.hint,
    kind: key.kind,
    scopes: keyScopes(key),
    refreshAllowed: key.refreshAllowed,
    rateLimit: plan && {
      requestsPerSecond: plan.limit,
      burst: plan.limit,
      source: key.rateLimitRps === null ? 'environment' : 'key',
    },
    expiresAt: key.expiresAt === null ? null : iso(key.expiresAt),
    createdAt: iso(key.createdAt),
  };
}
