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

  it('is fit for code generators: operation ids, named schemas, real descriptions, headers, enums', async () => {
    const spec = (await t.apps.production.inject('/openapi.json')).json();
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Record<string, unknown>>).map(([method, op]) => ({
        path,
        method,
        op,
      })),
    );
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id as string))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) {
      expect(op.security).toBeDefined();
      for (const response of Object.values(op.responses as Record<string, { description: string }>)) {
        expect(response.description).not.toBe('Default Response');
      }
    }
    expect(spec.paths['/healthz'].get.security).toEqual([]);
    const search = spec.paths['/v1/offers/'].get;
    expect(search.operationId).toBe('searchOffers');
    expect(search.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SearchResponse',
    });
    expect(Object.keys(search.responses['200'].headers).sort()).toEqual([
      'Link',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-Request-Id',
    ]);
    expect(search.responses['429'].headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    // The built-in orders as an enum, beside `attr.NAME` / `-attr.NAME` of declared attributes.
    expect(search.parameters.find((p: { name: string }) => p.name === 'sort').schema.anyOf).toEqual([
      { type: 'string', enum: ['relevance', '-publishedAt', 'publishedAt', 'price', '-price', 'distance'] },
      { type: 'string', pattern: '^-?attr\\.[a-zA-Z][a-zA-Z0-9_]{0,39}$' },
    ]);
    for (const name of ['Offer', 'SearchResponse', 'SearchHit', 'Problem', 'CallingKey', 'Me']) {
      expect(spec.components.schemas[name]).toBeDefined();
    }
    // Problem examples are real problems of their status, not schema-made zeros.
    const examples = search.responses['401'].content['application/problem+json'].examples;
    expect(examples.api_key_missing.value).toMatchObject({ status: 401, code: 'api_key_missing' });
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
