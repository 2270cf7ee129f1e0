import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import { describeParameters } from '../http/problem.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { OfferInput } from '../offers/offer-input.js';
import { offerIdFor } from '../offers/rows.js';
import { type Offer, OfferSchema, type SearchQuery } from '../offers/schemas.js';
import type { OfferService } from '../offers/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import type { UserService } from '../users/service.js';
import type { User } from '../users/store.js';
import {
  MAX_FAVORITES,
  MAX_OWN_OFFERS,
  MAX_SAVED_SEARCHES,
  MeSchema,
  type OwnOfferInput,
  OwnOfferInputSchema,
  OwnOfferPatchSchema,
  SavedSearchInputSchema,
  SavedSearchSchema,
} from './schemas.js';
import { createMeStore } from './store.js';

export interface MeRouteDeps {
  environment: Environment;
  apiKeyGuard: onRequestHookHandler;
  bearerGuard: onRequestHookHandler;
  users: UserService;
  offers: OfferService;
  db: Database;
  clock: Clock;
}

const BEARER_SECURITY = API_KEY_SECURITY.map((scheme) => ({ ...scheme, BearerToken: [] }));
const OfferIdParams = Type.Object({ offerId: Type.String({ maxLength: 64 }) });
const NoQuery = Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The end-user API (SPEC §6): API key + bearer token. Every query is scoped to the token's user,
 * so one user can never read or change another's data (an id of someone else's resource is
 * answered as not found, revealing nothing).
 */
export function registerMeRoutes(app: FastifyInstance, deps: MeRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const store = createMeStore(deps.db);
  const { environment } = deps;
  const onRequest = [deps.apiKeyGuard, deps.bearerGuard];
  const user = (request: { endUser: User | null }): User => {
    if (!request.endUser) throw new Error('bearer guard did not run');
    return request.endUser;
  };
  const offersById = async (ids: string[]): Promise<Offer[]> =>
    (await Promise.all(ids.map((id) => deps.offers.get(environment, id)))).filter(
      (o): o is Offer => o !== undefined,
    );
  const notFound = (id: string) =>
    new ProblemError('offer_not_found', `No offer ${id} in the ${environment} environment.`);

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
    async (request) => ({ data: await offersById(await store.favoriteIds(user(request).id)) }),
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
      const me = user(request);
      const { offerId } = request.params;
      if (!(await deps.offers.get(environment, offerId))) throw notFound(offerId);
      if (
        (await store.countFavorites(me.id)) >= MAX_FAVORITES &&
        !(await store.favoriteIds(me.id)).includes(offerId)
      ) {
        throw new ProblemError('limit_reached', `A user keeps at most ${MAX_FAVORITES} favorites.`);
      }
      await store.addFavorite(me.id, offerId, deps.clock.now());
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
      await store.removeFavorite(user(request).id, request.params.offerId);
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
      data: (await store.savedSearches(user(request).id)).map((s) => ({ ...s, createdAt: iso(s.createdAt) })),
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
      const me = user(request);
      // The same rules as a live search (price range order, relevance needs q, …), run on one row.
      const check = await deps.offers.search(environment, {
        ...(request.body.query as SearchQuery),
        limit: 1,
      });
      if (!check.ok) {
        const errors = check.errors.map((e) => ({ ...e, parameter: `query.${e.parameter}` }));
        throw new ProblemError('invalid_parameter', describeParameters(errors), { errors });
      }
      if ((await store.savedSearches(me.id)).length >= MAX_SAVED_SEARCHES) {
        throw new ProblemError('limit_reached', `A user keeps at most ${MAX_SAVED_SEARCHES} saved searches.`);
      }
      const saved = {
        id: newId('svs'),
        name: request.body.name.trim(),
        query: request.body.query,
        createdAt: deps.clock.now(),
      };
      await store.addSavedSearch(me.id, saved);
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
      if (!(await store.removeSavedSearch(user(request).id, request.params.id))) {
        throw new ProblemError('saved_search_not_found', `You have no saved search ${request.params.id}.`);
      }
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
      data: await offersById((await store.ownOffers(user(request).id)).map((o) => o.offerId)),
    }),
  );

  const toInput = (
    me: User,
    externalId: string,
    body: OwnOfferInput,
    status: OfferInput['status'],
    publishedAt: number,
  ): OfferInput => ({
    externalId,
    title: body.title.trim(),
    description: body.description,
    category: body.category,
    tags: body.tags ?? [],
    location: { ...body.location, region: body.location.region ?? null },
    price: body.price,
    publisher: { id: me.id, name: me.name || 'Private seller' },
    url: body.url ?? null,
    attributes: body.attributes ?? {},
    status,
    publishedAt,
    expiresAt: body.expiresAt ? Date.parse(body.expiresAt) : null,
  });
  const expiryProblem = (expiresAt: string | null | undefined) => {
    if (expiresAt && Date.parse(expiresAt) <= deps.clock.now()) {
      const errors = [{ parameter: 'expiresAt', message: 'must be in the future' }];
      return new ProblemError('invalid_parameter', describeParameters(errors), { errors });
    }
    return null;
  };

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
      const me = user(request);
      const expiry = expiryProblem(request.body.expiresAt);
      if (expiry) throw expiry;
      if ((await store.ownOffers(me.id)).length >= MAX_OWN_OFFERS) {
        throw new ProblemError('limit_reached', `A user publishes at most ${MAX_OWN_OFFERS} offers.`);
      }
      const externalId = `user:${me.id}:${randomUUID()}`;
      const now = deps.clock.now();
      await deps.offers.upsertMany(environment, [toInput(me, externalId, request.body, 'active', now)]);
      const offerId = offerIdFor(environment, externalId);
      await store.addOwnOffer(me.id, offerId, externalId, now);
      const offer = await deps.offers.get(environment, offerId);
      reply.code(201).header('location', `/v1/offers/${offerId}`);
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
    async (request) => {
      const me = user(request);
      const { offerId } = request.params;
      const own = await store.ownOffer(me.id, offerId);
      const current = own && (await deps.offers.get(environment, offerId));
      if (!own || !current) throw notFound(offerId);
      const expiry = expiryProblem(request.body.expiresAt);
      if (expiry) throw expiry;
      const merged: OwnOfferInput = {
        title: current.title,
        description: current.description,
        category: current.category,
        tags: current.tags,
        location: current.location,
        price: current.price,
        url: current.url,
        attributes: current.attributes,
        expiresAt: current.expiresAt,
        ...request.body,
      };
      const stored = current.status === 'withdrawn' ? 'withdrawn' : 'active';
      await deps.offers.upsertMany(environment, [
        toInput(me, own.externalId, merged, stored, Date.parse(current.publishedAt)),
      ]);
      return deps.offers.get(environment, offerId);
    },
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
      const me = user(request);
      const { offerId } = request.params;
      const own = await store.ownOffer(me.id, offerId);
      const current = own && (await deps.offers.get(environment, offerId));
      if (!own || !current) throw notFound(offerId);
      if (current.status !== 'withdrawn') {
        const { id: _id, publisher: _p, status: _s, publishedAt, updatedAt: _u, ...fields } = current;
        await deps.offers.upsertMany(environment, [
          toInput(me, own.externalId, fields, 'withdrawn', Date.parse(publishedAt)),
        ]);
      }
      return reply.code(204).send(null);
    },
  );
}
