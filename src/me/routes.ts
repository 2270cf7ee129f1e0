import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import { OfferSchema } from '../offers/schemas.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';
import {
  MeSchema,
  OwnOfferInputSchema,
  OwnOfferPatchSchema,
  SavedSearchInputSchema,
  SavedSearchSchema,
} from './schemas.js';
import type { MeService } from './service.js';
import { registerMeSessionRoutes } from './session-routes.js';

export interface MeRouteDeps {
  environment: Environment;
  apiKeyGuard: onRequestHookHandler;
  bearerGuard: onRequestHookHandler;
  me: MeService;
}

const BEARER_SECURITY = API_KEY_SECURITY.map((scheme) => ({ ...scheme, BearerToken: [] }));
const OfferIdParams = Type.Object({ offerId: Type.String({ maxLength: 64 }) });
const NoQuery = Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The end-user API: API key + bearer token. Every query is scoped to the token's user,
 * so one user can never read or change another's data (an id of someone else's resource is
 * answered as not found, revealing nothing).
 */
export function registerMeRoutes(app: FastifyInstance, deps: MeRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { environment, me: service } = deps;
  const onRequest = [deps.apiKeyGuard, deps.bearerGuard];
  const user = (request: { endUser: User | null }): User => {
    if (!request.endUser) throw new Error('bearer guard did not run');
    return request.endUser;
  };

  api.get(
    '/v1/me',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'The signed-in end user',
        operationId: 'getMe',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        response: { 200: MeSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const me = user(request);
      return {
        id: me.id,
        email: me.email,
        name: me.name,
        environment: me.environment,
        createdAt: iso(me.createdAt),
      };
    },
  );

  api.get(
    '/v1/me/favorites',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: "The user's favorite offers, newest first",
        operationId: 'listFavorites',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Array(OfferSchema) }), ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await service.favorites(user(request), environment) }),
  );

  api.put(
    '/v1/me/favorites/:offerId',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Add an offer to the favorites (idempotent)',
        operationId: 'addFavorite',
        security: BEARER_SECURITY,
        params: OfferIdParams,
        querystring: NoQuery,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.addFavorite(user(request), environment, request.params.offerId);
      return reply.code(204).send(null);
    },
  );

  api.delete(
    '/v1/me/favorites/:offerId',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Remove an offer from the favorites (idempotent)',
        operationId: 'removeFavorite',
        security: BEARER_SECURITY,
        params: OfferIdParams,
        querystring: NoQuery,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await service.removeFavorite(user(request), request.params.offerId);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/v1/me/saved-searches',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: "The user's saved searches, newest first",
        operationId: 'listSavedSearches',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        response: {
          200: Type.Object({ data: Type.Array(SavedSearchSchema) }),
          ...problemResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      data: (await service.savedSearches(user(request))).map((s) => ({ ...s, createdAt: iso(s.createdAt) })),
    }),
  );

  api.post(
    '/v1/me/saved-searches',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Save a search',
        operationId: 'createSavedSearch',
        description:
          'The query holds the parameters of `GET /offers/` (except `apiKey`, `cursor`, `limit`) and is validated exactly like them.',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        body: SavedSearchInputSchema,
        response: { 201: SavedSearchSchema, ...problemResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const projectId = request.apiKey?.projectId;
      if (!projectId) throw new Error('API-key guard did not run');
      const saved = await service.saveSearch(user(request), environment, request.body, projectId);
      reply.code(201).header('location', `/v1/me/saved-searches/${saved.id}`);
      return { ...saved, createdAt: iso(saved.createdAt) };
    },
  );

  api.delete(
    '/v1/me/saved-searches/:id',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Delete a saved search',
        operationId: 'deleteSavedSearch',
        security: BEARER_SECURITY,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: NoQuery,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.removeSavedSearch(user(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/v1/me/offers',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: "The user's own offers, any status, newest first",
        operationId: 'listOwnOffers',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        response: { 200: Type.Object({ data: Type.Array(OfferSchema) }), ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      data: await service.ownOffers(user(request), environment),
    }),
  );

  api.post(
    '/v1/me/offers',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Publish an offer',
        operationId: 'createOwnOffer',
        description: 'The offer appears in searches of this environment at once, with the user as publisher.',
        security: BEARER_SECURITY,
        querystring: NoQuery,
        body: OwnOfferInputSchema,
        response: { 201: OfferSchema, ...problemResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const offer = await service.publish(user(request), environment, request.body);
      reply.code(201).header('location', `/v1/offers/${offer?.id}`);
      return offer;
    },
  );

  api.patch(
    '/v1/me/offers/:offerId',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Edit an own offer',
        operationId: 'updateOwnOffer',
        description: 'Fields given replace the stored ones; `location` and `price` are replaced whole.',
        security: BEARER_SECURITY,
        params: OfferIdParams,
        querystring: NoQuery,
        body: OwnOfferPatchSchema,
        response: { 200: OfferSchema, ...problemResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => service.update(user(request), environment, request.params.offerId, request.body),
  );

  api.delete(
    '/v1/me/offers/:offerId',
    {
      onRequest,
      schema: {
        tags: ['end users'],
        summary: 'Withdraw an own offer',
        operationId: 'deleteOwnOffer',
        description:
          'The offer stays readable by id with status `withdrawn` and leaves default searches at once.',
        security: BEARER_SECURITY,
        params: OfferIdParams,
        querystring: NoQuery,
        response: { 204: Type.Null(), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.withdraw(user(request), environment, request.params.offerId);
      return reply.code(204).send(null);
    },
  );

  registerMeSessionRoutes(app, {
    environment,
    onRequest,
    security: BEARER_SECURITY,
    query: NoQuery,
    sessions: service,
    user,
  });
}
