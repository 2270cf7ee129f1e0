import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/http/errors.js';
import { SearchQuerySchema } from '../../src/offers/schemas.js';
import { createTestContext, type TestContext } from '../support/context.js';

describe('API reference', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves OpenAPI 3.1 generated from the route declarations', async () => {
    const res = await t.apps.production.inject('/openapi.json');
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.servers).toEqual([{ url: 'http://localhost:8080', description: 'production environment' }]);
    expect(Object.keys(spec.components.securitySchemes).sort()).toEqual([
      'ApiKeyHeader',
      'ApiKeyQuery',
      'BearerToken',
    ]);
    // End-user routes ask for the key and the bearer token together.
    expect(spec.paths['/v1/me'].get.security).toEqual([
      { ApiKeyHeader: [], BearerToken: [] },
      { ApiKeyQuery: [], BearerToken: [] },
    ]);
    for (const path of ['/auth/refresh', '/auth/revoke', '/auth/.well-known/jwks.json']) {
      expect(spec.paths[path]).toBeDefined();
    }
    // The login pages are for browsers, not part of the API reference.
    expect(spec.paths['/auth/connect']).toBeUndefined();
    const search = spec.paths['/v1/offers/'].get;
    const declared = search.parameters.map((p: { name: string }) => p.name).sort();
    // `apiKey` is documented once, as the ApiKeyQuery security scheme, not as a plain parameter.
    expect(declared).toEqual(
      Object.keys(SearchQuerySchema.properties)
        .filter((p) => p !== 'apiKey')
        .sort(),
    );
    expect(Object.keys(search.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    expect(search.responses['401'].content['application/problem+json']).toBeDefined();
    expect(spec.paths['/v1/offers/{id}'].get.responses['404']).toBeDefined();
  });

  it('documents every error code', async () => {
    const spec = (await t.apps.production.inject('/openapi.json')).json();
    for (const code of Object.keys(ERRORS)) expect(spec.info.description).toContain(`\`${code}\``);
  });

  it('serves the interactive reference from local assets only', async () => {
    const res = await t.apps.production.inject('/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const external = [...res.body.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((m) => m[1]);
    expect(external).toEqual([]);
  });
});
