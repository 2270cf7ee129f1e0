import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/keys/key-format.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * `GET /v1/key` (issue #3): the public facts of the calling key, from the verified key record.
 * The bad-key cases every API route shares are in api-keys.security.test.ts (its ROUTES).
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`GET /v1/key on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
    });
    afterAll(async () => {
      await t.close();
    });

    const call = (
      url: string,
      headers: Record<string, string> = {},
      env: 'production' | 'testing' = 'testing',
    ) => t.apps[env].inject({ method: 'GET', url, headers });

    it('answers the calling key: id, environment, project, hint, refresh permission, plan, expiry', async () => {
      const { id, key } = t.fixtures.keys.testing;
      const res = await call('/v1/key', { 'x-api-key': key });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        id,
        environment: 'testing',
        projectId: t.fixtures.projectId,
        hint: `vk_test_…${key.split('_')[2]?.slice(-4)}`,
        kind: 'secret',
        scopes: ['search', 'auth', 'api'],
        refreshAllowed: false,
        // RATE_LIMITING=false in this context: nothing limits the key.
        rateLimit: null,
        expiresAt: null,
        createdAt: new Date(t.clock.now()).toISOString(),
      });
      const prod = await call('/v1/key', { 'x-api-key': t.fixtures.keys.production.key }, 'production');
      expect(prod.json()).toMatchObject({ id: t.fixtures.keys.production.id, environment: 'production' });
    });

    it('takes the key from the apiKey query parameter too', async () => {
      const { id, key } = t.fixtures.keys.testing;
      const res = await call(`/v1/key?apiKey=${key}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(id);
    });

    it('never answers the key, its secret part or its hash', async () => {
      const { key } = t.fixtures.keys.testing;
      for (const res of [await call('/v1/key', { 'x-api-key': key }), await call(`/v1/key?apiKey=${key}`)]) {
        expect(res.statusCode).toBe(200);
        const everything = `${JSON.stringify(res.headers)}${res.body}`;
        expect(everything).not.toContain(key);
        expect(everything).not.toContain(key.split('_')[2]);
        expect(everything).not.toContain(hashApiKey(key));
        expect(Object.keys(res.json()).sort()).toEqual(
          [
            'createdAt',
            'environment',
            'expiresAt',
            'hint',
            'id',
            'kind',
            'projectId',
            'rateLimit',
            'refreshAllowed',
            'scopes',
          ].sort(),
        );
      }
    });

    it('shows an expiry and a granted refresh permission', async () => {
      const expiresAt = t.clock.now() + 86_400_000;
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        expiresAt,
      });
      await t.deps.keys.grantRefresh(issued.record.id);
      const res = await call('/v1/key', { 'x-api-key': issued.key });
      expect(res.json()).toMatchObject({
        id: issued.record.id,
        refreshAllowed: true,
        expiresAt: new Date(expiresAt).toISOString(),
      });
    });

    it('refuses a revoked key, also one that was cached: 401 api_key_revoked', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      expect((await call('/v1/key', { 'x-api-key': issued.key })).statusCode).toBe(200);
      await t.deps.keys.revoke(issued.record.id);
      const res = await call('/v1/key', { 'x-api-key': issued.key });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json()).toEqual({
        type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#api_key_revoked$/),
        title: 'API key revoked',
        status: 401,
        detail: 'This API key has been revoked.',
        instance: '/v1/key',
        code: 'api_key_revoked',
        requestId: res.headers['x-request-id'],
      });
    });

    it('refuses unknown parameters with 400 invalid_parameter, after the key check', async () => {
      const res = await call('/v1/key?verbose=1', { 'x-api-key': t.fixtures.keys.testing.key });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_parameter', errors: [{ parameter: 'verbose' }] });
      expect((await call('/v1/key?verbose=1')).json().code).toBe('api_key_missing');
    });

    it('is in the API reference with its response schema and problem responses', async () => {
      const spec = (await call('/openapi.json')).json();
      const op = spec.paths['/key'].get;
      expect(op.security).toEqual([{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }]);
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
      // The response is the named component schema CallingKey (issue 15: codegen-grade OpenAPI).
      expect(op.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/CallingKey',
      });
      expect(Object.keys(spec.components.schemas.CallingKey.properties)).toContain('refreshAllowed');
    });
  });

  describe.skipIf(!available)(`GET /v1/key with rate limits and metering on ${dialect}`, () => {
    let t: TestContext;
    afterEach(async () => {
      await t?.close();
    });

    it('reports the plan, spends the key budget like any call, and is metered', async () => {
      t = await createTestContext(dialect, { RATE_LIMITING: 'true', RATE_LIMIT_TESTING: '3' });
      const { id, key } = t.fixtures.keys.testing;
      const call = () => t.apps.testing.inject({ url: '/v1/key', headers: { 'x-api-key': key } });
      const first = await call();
      expect(first.json().rateLimit).toEqual({ requestsPerSecond: 3, burst: 3, source: 'environment' });
      expect(first.headers['ratelimit-limit']).toBe('3');
      expect(first.headers['ratelimit-remaining']).toBe('2');
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      await t.deps.usageMeter?.flush();
      const [today] = await t.deps.usage.forKey(id, { days: 1 });
      expect(today).toMatchObject({ requests: 4, errors: 1, byStatusClass: { '2xx': 3, '4xx': 1 } });

      await t.deps.keys.setPlan(id, 500);
      t.clock.advance(1000);
      expect((await call()).json().rateLimit).toEqual({ requestsPerSecond: 500, burst: 500, source: 'key' });
    });
  });
}
