import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../http/errors.js';
import { describeParameters } from '../http/problem.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { Environment } from '../platform/environment.js';
import { OfferSchema, type SearchQuery, SearchQuerySchema, SearchResponseSchema } from './schemas.js';
import type { OfferService } from './service.js';

export interface OfferRouteDeps {
  offers: OfferService;
  environment: Environment;
  /** `{base_url}` of this environment, for `Link` headers. */
  baseUrl: string;
  guard: onRequestHookHandler;
}

/** `GET {base_url}/offers/` and `GET {base_url}/offers/{id}` (SPEC §6). HTTP only: rules live in the service. */
export function offerRoutes(app: FastifyInstance, deps: OfferRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/v1/offers/',
    {
      onRequest: deps.guard,
      schema: {
        tags: ['offers'],
        summary: 'Search offers',
        description:
          'Full-text search and filters over the offers of this environment, newest first unless `q` is given. Page with `nextCursor` (also sent as a `Link: <…>; rel="next"` header, without your key).',
        security: API_KEY_SECURITY,
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const outcome = await deps.offers.search(deps.environment, request.query);
      if (!outcome.ok) {
        throw new ProblemError('invalid_parameter', describeParameters(outcome.errors), {
          errors: outcome.errors,
        });
      }
      if (outcome.nextCursor) reply.header('link', nextLink(deps.baseUrl, request.query, outcome.nextCursor));
      return {
        data: outcome.offers,
        total: outcome.total,
        facets: outcome.facets,
        nextCursor: outcome.nextCursor,
      };
    },
  );

  api.get(
    '/v1/offers/:id',
    {
      onRequest: deps.guard,
      schema: {
        tags: ['offers'],
        summary: 'Get one offer',
        security: API_KEY_SECURITY,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: OfferSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const offer = await deps.offers.get(deps.environment, request.params.id);
      if (!offer)
        throw new ProblemError(
          'offer_not_found',
          `No offer ${request.params.id} in the ${deps.environment} environment.`,
        );
      return offer;
    },
  );
}

/** The next page's URL with the same parameters, minus the key: a Link header must not leak it. */
function nextLink(baseUrl: string, query: SearchQuery, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (name === 'apiKey' || name === 'cursor' || value === undefined) continue;
    for (const item of [value].flat()) params.append(name, String(item));
  }
  params.set('cursor', cursor);
  return `<${baseUrl}/offers/?${params.toString()}>; rel="next"`;
}
