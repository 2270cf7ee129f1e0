import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { Environment } from '../platform/environment.js';
import { formatRankBy } from './model.js';
import type { SearchSettingsService } from './service.js';

export const AttributeSchema = Type.Object(
  {
    name: Type.String({
      description: 'Filter with `attr.NAME`, facet with `facets=attr.NAME`, sort with `sort=attr.NAME`.',
    }),
    type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean')]),
    facet: Type.Boolean({
      description: '`facets=attr.NAME` counts its values (numbers: also `facetStats`).',
    }),
    sort: Type.Boolean({ description: '`sort=attr.NAME` / `sort=-attr.NAME`.' }),
    searchable: Type.Boolean({
      description:
        '`q` matches its words (strings only), ranked between the title and the description; `highlight.attributes` marks them.',
    }),
  },
  { additionalProperties: false, title: 'Attribute' },
);

export const AttributesResponseSchema = Type.Object(
  {
    data: Type.Array(AttributeSchema),
    rankBy: Type.Union([Type.String(), Type.Null()], {
      description:
        'The ranking tie-break: `attr.NAME:desc` or `attr.NAME:asc` orders the matches the text rules leave tied, before the newest; null: the newest first.',
    }),
  },
  { additionalProperties: false, title: 'Attributes' },
);

/** `GET {base_url}/attributes` (any key): the declared attributes, so a UI can build its filters. */
export function registerSearchSettingsRoutes(
  app: FastifyInstance,
  deps: {
    settings: Pick<SearchSettingsService, 'read'>;
    environment: Environment;
    guard: onRequestHookHandler;
  },
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v1/attributes',
    {
      onRequest: deps.guard,
      config: { apiKeyScope: 'search' },
      schema: {
        tags: ['offers'],
        summary: 'The declared attributes',
        operationId: 'listAttributes',
        description:
          "The offer attributes this environment's search knows, with their type and what each allows (filters, facets, sorting, `q`). A change is searchable once the background re-index ends; until then searches answer by the previous declarations.",
        security: API_KEY_SECURITY,
        querystring: Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: AttributesResponseSchema, ...problemResponses(401, 403) },
      },
    },
    async () => {
      const settings = await deps.settings.read(deps.environment);
      return { data: settings.attributes, rankBy: settings.rankBy ? formatRankBy(settings.rankBy) : null };
    },
  );
}
