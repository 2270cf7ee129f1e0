import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Environment } from '../platform/environment.js';
import { VERSION } from '../platform/version.js';
import { ERRORS } from './errors.js';
import { refineOpenApi } from './openapi-document.js';

// Our own wordmark in the reference's top bar (plain SVG text, no external font or asset).
const WORDMARK =
  '<svg xmlns="http://www.w3.org/2000/svg" width="140" height="36" viewBox="0 0 140 36"><text x="0" y="27" font-family="system-ui, sans-serif" font-size="26" font-weight="700" fill="#ffffff">Vitrine</text></svg>';

/**
 * OpenAPI 3.1 generated from the route declarations (`/openapi.json`) and the interactive
 * reference (`/docs`, assets served locally: no third-party requests).
 */
export async function registerOpenApi(
  app: FastifyInstance,
  environment: Environment,
  origin: string,
): Promise<void> {
  const errorTable = Object.entries(ERRORS)
    .map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.title} |`)
    .join('\n');
  await app.register(swagger, {
    // Only OpenAPI 3 is generated here (the `openapi` option below), never Swagger 2.
    transformObject: (document) =>
      'openapiObject' in document
        ? refineOpenApi(document.openapiObject as Record<string, unknown>, { environment, origin })
        : {},
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `Vitrine API (${environment})`,
        version: VERSION,
        license: { name: 'Proprietary' },
        description: [
          `The ${environment} environment: \`{base_url}\` = \`${origin}/v1\`, \`{auth_url}\` = \`${origin}/auth\`. "Try it" works with a key of this environment (a key of the other one answers \`403 api_key_wrong_environment\`).`,
          '',
          'Offer search with API-key authentication. Send your key in the `X-Api-Key` header (preferred) or the `apiKey` query parameter.',
          '',
          `Every error is \`application/problem+json\` with a stable \`code\`; its \`type\` URL is its entry in [the error reference](${origin}/docs/errors):`,
          '',
          '| code | status | title |',
          '|---|---|---|',
          errorTable,
        ].join('\n'),
      },
      tags: [
        { name: 'offers', description: 'Search the offers of this environment (API key required).' },
        { name: 'keys', description: 'The API key you call with (API key required).' },
        {
          name: 'auth',
          description:
            'The auth server (`{auth_url}` = `<origin>/auth`): the login redirect (`/connect`), OAuth 2.0 and OpenID Connect (`/authorize`, `/token`, `/userinfo`, discovery), token refresh and revocation, and the public keys that verify access tokens. `/connect` and `/authorize` are opened in a browser, not called from code.',
        },
        {
          name: 'end users',
          description: 'Act for a signed-in end user: API key plus `Authorization: Bearer <access token>`.',
        },
        { name: 'operations', description: 'Health checks for load balancers and orchestrators.' },
      ],
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
          BearerToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'Access token from `{auth_url}/connect` or `/refresh`, valid only with the API key that obtained it.',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    logo: { type: 'image/svg+xml', content: Buffer.from(WORDMARK), href: '/docs', target: '_self' },
    theme: { title: `Vitrine API reference (${environment})` },
    uiConfig: { deepLinking: true, tryItOutEnabled: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
