import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { problemResponses } from '../http/schemas.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';
import { UserSessionSchema } from './schemas.js';
import type { MeSessions } from './sessions.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `/v1/me/sessions` (issue 27): the end user's logins, listed and ended. Same guards and
 * security as the other end-user routes (registered by them).
 */
export function registerMeSessionRoutes(
  app: FastifyInstance,
  deps: {
    environment: Environment;
    onRequest: onRequestHookHandler[];
    security: Record<string, string[]>[];
    query: ReturnType<typeof Type.Object>;
    sessions: MeSessions;
    user: (request: { endUser: User | null }) => User;
  },
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { environment, onRequest, security, sessions, user } = deps;

  api.get(
    '/v1/me/sessions',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: "The user's active sessions (logins) in this environment, newest first",
        operationId: 'listSessions',
        description:
          'One per sign-in through `/connect` or `/authorize`, until its tokens expire or it is ended; at most 100, the newest. `current` marks the one the access token of this request belongs to.',
        security,
        querystring: deps.query,
        response: {
          200: Type.Object({ data: Type.Array(UserSessionSchema) }),
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      data: (await sessions.sessions(user(request), environment, request.endUserSession)).map((s) => ({
        id: s.id,
        createdAt: iso(s.createdAt),
        lastUsedAt: iso(s.lastUsedAt),
        client: { keyId: s.keyId, projectName: s.projectName },
        ip: s.ip,
        userAgent: s.userAgent,
        current: s.current,
      })),
    }),
  );

  api.delete(
    '/v1/me/sessions/:id',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'End a session (sign that login out)',
        operationId: 'endSession',
        description:
          "Revokes the session's refresh tokens; its access tokens are refused within a second. Ending the current session signs this client out.",
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: deps.query,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await sessions.endSession(user(request), environment, request.params.id);
      request.log.info({ environment, outcome: 'session_ended' }, 'end user ended a session');
      return reply.code(204).send(null);
    },
  );
}
