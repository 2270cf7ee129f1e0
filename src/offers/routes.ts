import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { type ParameterError, ProblemError } from '../http/errors.js';
import { type AjvError, describeParameters, parameterErrors } from '../http/problem.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { Environment } from '../platform/environment.js';
import { applyFixedFilters, offerWithinFixedFilters } from './fixed-filters.js';
import {
  FacetValuesQuerySchema,
  FacetValuesResponseSchema,
  MAX_MULTI_QUERIES,
  MultiSearchBodySchema,
  type MultiSearchQuery,
  MultiSearchResponseSchema,
  OfferSchema,
  type SearchQuery,
  SearchQuerySchema,
  SearchResponseSchema,
} from './schemas.js';
import type { OfferService } from './service.js';

export interface OfferRouteDeps {
  offers: OfferService;
  environment: Environment;
  /** `{base_url}` of this environment, for `Link` headers. */
  baseUrl: string;
  guard: onRequestHookHandler;
}

/** `GET {base_url}/offers/` and `GET {base_url}/offers/{id}`. HTTP only: rules live in the service. */
export function registerOfferRoutes(app: FastifyInstance, deps: OfferRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/v1/offers/',
    {
      onRequest: deps.guard,
      // Issue 16: publishable keys may call the search routes (and only those).
      config: { apiKeyScope: 'search' },
      schema: {
        tags: ['offers'],
        summary: 'Search offers',
        operationId: 'searchOffers',
        description:
          'Full-text search and filters over the offers of this environment, newest first unless `q` is given. Page with `nextCursor` (also sent as a `Link: <…>; rel="next"` header, without your key).',
        security: API_KEY_SECURITY,
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const outcome = orInvalid(await deps.offers.search(deps.environment, narrowed(request)));
      if (outcome.nextCursor) reply.header('link', nextLink(deps.baseUrl, request.query, outcome.nextCursor));
      return {
        data: outcome.offers,
        total: outcome.total,
        facets: outcome.facets,
        ...(outcome.facetStats ? { facetStats: outcome.facetStats } : {}),
        nextCursor: outcome.nextCursor,
      };
    },
  );

  api.get(
    '/v1/offers/facet-values',
    {
      onRequest: deps.guard,
      // A search like GET /offers/: publishable keys too, within their fixed filters.
      config: { apiKeyScope: 'search' },
      schema: {
        tags: ['offers'],
        summary: 'Search the values of a facet',
        operationId: 'searchFacetValues',
        description:
          'The values of one facet (`category`, `tag`, `city`, `country` or a declared `--facet` attribute) that start with `prefix` (folded like text), within the result set of the search the other parameters describe (those of `GET /v1/offers/` but `sort`, `cursor`, `facets`, `highlight`): exact counts over the whole result set, most frequent first, then by value; at most `limit` (default 10).',
        security: API_KEY_SECURITY,
        querystring: FacetValuesQuerySchema,
        response: { 200: FacetValuesResponseSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const outcome = orInvalid(await deps.offers.facetValues(deps.environment, narrowed(request)));
      return { facet: outcome.facet, values: outcome.values };
    },
  );

  api.post(
    '/v1/multi-search',
    {
      onRequest: deps.guard,
      // A publishable key may multi-search, within its fixed filters like any search.
      config: { apiKeyScope: 'search' },
      // Errors are named here, with the index of the search they belong to.
      attachValidation: true,
      schema: {
        tags: ['offers'],
        summary: 'Several searches in one request',
        operationId: 'multiSearch',
        description: `Up to ${MAX_MULTI_QUERIES} searches, each with the parameters of \`GET /v1/offers/\` as JSON, answered in order with the response each would get on its own. One invalid search fails the request (\`400 invalid_parameter\` naming \`queries[i].param\`). Counts as one request for rate limits and usage.`,
        security: API_KEY_SECURITY,
        body: MultiSearchBodySchema,
        response: { 200: MultiSearchResponseSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const invalid = request.validationError as { validation?: AjvError[] } | undefined;
      if (invalid) {
        const errors = multiSearchErrors(invalid.validation ?? []);
        throw new ProblemError('invalid_parameter', describeParameters(errors), { errors });
      }
      const errors: ParameterError[] = [];
      const results = [];
      const fixed = request.apiKey?.fixedFilters;
      for (const [i, query] of request.body.queries.entries()) {
        const narrowed = fixed
          ? applyFixedFilters(
              asSearchQuery(query),
              fixed,
              `queries[${i}].`,
              request.apiKey?.kind === 'publishable',
            )
          : { ok: true as const, query: asSearchQuery(query) };
        if (!narrowed.ok) {
          errors.push(...narrowed.errors);
          continue;
        }
        const outcome = await deps.offers.search(deps.environment, narrowed.query);
        if (!outcome.ok) {
          errors.push(...outcome.errors.map((e) => ({ ...e, parameter: `queries[${i}].${e.parameter}` })));
          continue;
        }
        results.push({
          data: outcome.offers,
          total: outcome.total,
          facets: outcome.facets,
          ...(outcome.facetStats ? { facetStats: outcome.facetStats } : {}),
          nextCursor: outcome.nextCursor,
        });
      }
      if (errors.length > 0)
        throw new ProblemError('invalid_parameter', describeParameters(errors), { errors });
      return { results };
    },
  );

  api.get(
    '/v1/offers/:id',
    {
      onRequest: deps.guard,
      config: { apiKeyScope: 'search' },
      schema: {
        tags: ['offers'],
        summary: 'Get one offer',
        operationId: 'getOffer',
        security: API_KEY_SECURITY,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: OfferSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const found = await deps.offers.get(deps.environment, request.params.id);
      // Outside a publishable key's fixed filters, an offer is not there for that key.
      const fixed = request.apiKey?.fixedFilters;
      const publishable = request.apiKey?.kind === 'publishable';
      const offer =
        found && (!fixed || offerWithinFixedFilters(found, fixed, publishable)) ? found : undefined;
      if (!offer)
        throw new ProblemError(
          'offer_not_found',
          `No offer ${request.params.id} in the ${deps.environment} environment.`,
        );
      return offer;
    },
  );
}

type Narrowable = Parameters<typeof applyFixedFilters>[0];

/**
 * A request's query within its key's fixed filters (issue 16), before anything searches: a
 * publishable key's filters narrow it; a value outside them is `400 invalid_parameter`.
 */
function narrowed<Q extends Narrowable>(request: { query: Q; apiKey?: FastifyRequest['apiKey'] }): Q {
  const fixed = request.apiKey?.fixedFilters;
  if (!fixed) return request.query;
  return orInvalid(applyFixedFilters(request.query, fixed, '', request.apiKey?.kind === 'publishable')).query;
}

/** The outcome when it is one, else `400 invalid_parameter` naming each parameter at fault. */
function orInvalid<T>(outcome: T | { ok: false; errors: ParameterError[] }): T {
  const failed = outcome as { ok?: boolean; errors?: ParameterError[] };
  if (failed.ok === false && failed.errors) {
    throw new ProblemError('invalid_parameter', describeParameters(failed.errors), { errors: failed.errors });
  }
  return outcome as T;
}

/** One search of a multi-search as the query-string form (`category` and `tag` as lists). */
function asSearchQuery(query: MultiSearchQuery): SearchQuery {
  const { category, tag, ...rest } = query;
  return {
    ...rest,
    ...(category === undefined ? {} : { category: [category].flat() }),
    ...(tag === undefined ? {} : { tag: [tag].flat() }),
  };
}

/**
 * Schema errors of a multi-search body, each named `queries[i].param`: the errors of
 * one search are named as that search's query parameters would be.
 */
export function multiSearchErrors(validation: readonly AjvError[]): ParameterError[] {
  const outer: AjvError[] = [];
  const perQuery = new Map<number, AjvError[]>();
  for (const error of validation) {
    const match = /^\/queries\/(\d+)(\/.*)?$/.exec(error.instancePath);
    if (!match) {
      outer.push(error);
      continue;
    }
    const i = Number(match[1]);
    perQuery.set(i, [...(perQuery.get(i) ?? []), { ...error, instancePath: match[2] ?? '' }]);
  }
  return [
    ...parameterErrors(outer, 'body'),
    ...[...perQuery].flatMap(([i, errors]) =>
      parameterErrors(errors, 'querystring').map((e) => ({
        ...e,
        parameter: `queries[${i}].${e.parameter}`,
      })),
    ),
  ];
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
