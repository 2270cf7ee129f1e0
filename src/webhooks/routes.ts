import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Actor } from '../audit/service.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { KeyRecord } from '../keys/model.js';
import type { WebhookEndpoint } from './model.js';
import {
  CreatedWebhookEndpointSchema,
  WebhookEndpointInputSchema,
  WebhookEndpointSchema,
  WebhookTestSchema,
} from './schemas.js';
import type { WebhookService } from './service.js';

export interface WebhookRouteDeps {
  guard: onRequestHookHandler;
  webhooks: WebhookService;
}

const NoQuery = Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false });
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export function describeEndpoint(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    environment: e.environment,
    eventTypes: e.eventTypes.filter((t) => t !== 'webhook.test'),
    state: e.state,
    disabledReason: e.disabledReason,
    createdAt: new Date(e.createdAt).toISOString(),
  };
}

/**
 * `{base_url}/webhooks` (issue 24): the project's endpoints of the key's environment, with a
 * secret key of the project (publishable keys: `403 api_key_scope`, the default `api` scope).
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = deps;
  const scopeOf = (request: FastifyRequest) => {
    const key = keyOf(request);
    return { projectId: key.projectId, environment: key.environment };
  };
  const actorOf = (request: FastifyRequest): Actor => ({
    kind: 'system',
    id: keyOf(request).id,
    email: null,
    ip: request.ip,
  });
  const common = { tags: ['webhooks'], security: API_KEY_SECURITY, querystring: NoQuery };

  api.get(
    '/v1/webhooks',
    {
      onRequest: deps.guard,
      schema: {
        ...common,
        summary: "The project's webhook endpoints (this environment)",
        operationId: 'listWebhooks',
        response: {
          200: Type.Object({ data: Type.Array(WebhookEndpointSchema) }),
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({ data: (await webhooks.list(scopeOf(request))).map(describeEndpoint) }),
  );

  api.post(
    '/v1/webhooks',
    {
      onRequest: deps.guard,
      schema: {
        ...common,
        summary: 'Register a webhook endpoint',
        operationId: 'createWebhook',
        description:
          "Events of the key's project and environment are POSTed to the URL, signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer carries the signing secret, once.",
        body: WebhookEndpointInputSchema,
        response: { 201: CreatedWebhookEndpointSchema, ...problemResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await webhooks.add(actorOf(request), scopeOf(request), request.body);
      reply.code(201).header('location', `/v1/webhooks/${endpoint.id}`).header('cache-control', 'no-store');
      return { ...describeEndpoint(endpoint), secret };
    },
  );

  api.delete(
    '/v1/webhooks/:id',
    {
      onRequest: deps.guard,
      schema: {
        ...common,
        summary: 'Remove a webhook endpoint',
        operationId: 'deleteWebhook',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(actorOf(request), scopeOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );

  api.post(
    '/v1/webhooks/:id/test',
    {
      onRequest: deps.guard,
      schema: {
        ...common,
        summary: 'Send a test event to a webhook endpoint',
        operationId: 'testWebhook',
        description: 'Queues a `webhook.test` event for this endpoint; it is delivered like any event.',
        params: IdParams,
        response: { 202: WebhookTestSchema, ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const messageId = await webhooks.test(actorOf(request), scopeOf(request), request.params.id);
      reply.code(202);
      return { messageId };
    },
  );
}

function keyOf(request: FastifyRequest): KeyRecord {
  const key = request.apiKey;
  if (!key) throw new Error('API-key guard did not run');
  return key;
}
