import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * SPEC §8 through `app.inject()` with the ManualClock: plans, headers, 429, the per-address
 * budget of bad-key requests, usage metering and `/metrics`. Time moves by hand, never by sleeping.
 */
const ROUTE = '/v1/offers/?limit=1';

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`rate limits and usage on ${dialect}`, () => {
    let t: TestContext;
    afterEach(async () => {
      await t?.close();
    });

    const start = (env: NodeJS.ProcessEnv = {}) =>
      createTestContext(dialect, { RATE_LIMITING: 'true', ...env });
    const call = (key: string, env: 'production' | 'testing' = 'testing', url = ROUTE) =>
      t.apps[env].inject({ method: 'GET', url, headers: { 'x-api-key': key } });

    it('sends RateLimit headers, allows the burst of the plan, then 429 rate_limited with Retry-After', async () => {
      t = await start();
      const key = t.fixtures.keys.testing.key;
      for (let i = 0; i < 10; i += 1) {
        const res = await call(key);
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('10');
        expect(res.headers['ratelimit-remaining']).toBe(String(9 - i));
        expect(res.headers['ratelimit-reset']).toBe('1');
      }
      const refused = await call(key);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(refused.json()).toEqual({
        type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#rate_limited$/),
        title: 'Rate limit exceeded',
        status: 429,
        detail: 'This key allows 10 requests per second (bursts of up to 10). Retry after 1 s.',
        instance: '/v1/offers/',
        code: 'rate_limited',
        requestId: refused.headers['x-request-id'],
      });
      t.clock.advance(100);
      expect((await call(key)).statusCode).toBe(200);
      expect((await call(key)).statusCode).toBe(429);
    });

    it('applies the default plan of each environment, and a key plan overrides it until cleared', async () => {
      t = await start({ RATE_LIMIT_PRODUCTION: '7' });
      expect((await call(t.fixtures.keys.production.key, 'production')).headers['ratelimit-limit']).toBe('7');
      await t.deps.keys.setPlan(t.fixtures.keys.testing.id, 2);
      const key = t.fixtures.keys.testing.key;
      expect((await call(key)).headers['ratelimit-limit']).toBe('2');
      expect((await call(key)).statusCode).toBe(200);
      expect((await call(key)).statusCode).toBe(429);
      await t.deps.keys.setPlan(t.fixtures.keys.testing.id, null);
      t.clock.advance(1000);
      expect((await call(key)).headers['ratelimit-limit']).toBe('10');
    });

    it('limits bad-key requests per client address, then refuses that address until the budget refills', async () => {
      t = await start({ RATE_LIMIT_AUTH_FAILURES: '3' });
      const bad = 'vk_test_notakey';
      for (let i = 0; i < 3; i += 1) expect((await call(bad)).statusCode).toBe(401);
      const refused = await call(bad);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBe(20);
      // A guesser learns nothing more: even a valid key is refused from this address for now.
      expect((await call(t.fixtures.keys.testing.key)).statusCode).toBe(429);
      expect(
        (
          await t.apps.testing.inject({
            url: ROUTE,
            remoteAddress: '10.0.0.9',
            headers: { 'x-api-key': bad },
          })
        ).statusCode,
      ).toBe(401);
      t.clock.advance(20_000);
      expect((await call(t.fixtures.keys.testing.key)).statusCode).toBe(200);
    });

    it('meters requests per key, day and status class; 429s count as errors', async () => {
      t = await start({ RATE_LIMIT_TESTING: '3' });
      const key = t.fixtures.keys.testing.key;
      for (let i = 0; i < 5; i += 1) await call(key);
      await call(key, 'testing', '/v1/offers/?limit=1000');
      await call(t.fixtures.keys.production.key, 'production');
      await t.deps.usageMeter?.flush();
      const days = await t.deps.usage.forKey(t.fixtures.keys.testing.id, { days: 2 });
      expect(days).toEqual([
        { day: '2026-10-31', requests: 0, errors: 0, byStatusClass: {} },
        { day: '2026-11-01', requests: 6, errors: 3, byStatusClass: { '2xx': 3, '4xx': 3 } },
      ]);
      // A second flush adds, it never overwrites (several instances add up).
      t.clock.advance(1000);
      await call(key);
      await t.deps.usageMeter?.flush();
      const [, today] = await t.deps.usage.forKey(t.fixtures.keys.testing.id, { days: 2 });
      expect(today).toMatchObject({ requests: 7, errors: 3 });
    });

    it('exposes Prometheus metrics to loopback callers, or with METRICS_TOKEN to bearers only', async () => {
      t = await start({ METRICS_TOKEN: 's3cret-metrics-token', RATE_LIMIT_TESTING: '1' });
      await call(t.fixtures.keys.testing.key);
      await call(t.fixtures.keys.testing.key);
      expect((await t.apps.testing.inject('/metrics')).statusCode).toBe(403);
      const wrong = await t.apps.testing.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.json().code).toBe('metrics_forbidden');
      const res = await t.apps.testing.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer s3cret-metrics-token' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toContain(
        'vitrine_http_requests_total{env="testing",method="GET",route="/v1/offers/",status="429"} 1',
      );
      expect(res.body).toContain('vitrine_rate_limit_rejections_total{env="testing",kind="key"} 1');
      expect(res.body).toContain('vitrine_http_request_duration_seconds_bucket');
      expect(res.body).toMatch(/vitrine_key_cache_lookups_total\{result="hit"\} \d+/);
      if (dialect === 'postgres') expect(res.body).toContain('vitrine_db_pool_connections{state="total"}');
      expect(res.body).not.toContain(t.fixtures.keys.testing.key);
    });

    it('answers /metrics on loopback only when no METRICS_TOKEN is set', async () => {
      t = await start();
      expect((await t.apps.testing.inject('/metrics')).statusCode).toBe(200);
      const remote = await t.apps.testing.inject({ url: '/metrics', remoteAddress: '203.0.113.5' });
      expect(remote.statusCode).toBe(403);
    });
  });
}

describe('versions (SPEC §9)', () => {
  let t: TestContext;
  afterEach(async () => {
    await t?.close();
  });

  it('sends Deprecation and Sunset for a deprecated version; other versions answer 404 version_not_found', async () => {
    t = await createTestContext('sqlite', {
      API_DEPRECATIONS: 'v1=2026-12-01T00:00:00Z/2027-06-30T00:00:00Z',
    });
    const res = await t.apps.testing.inject({
      url: '/v1/offers/',
      headers: { 'x-api-key': t.fixtures.keys.testing.key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    const v2 = await t.apps.testing.inject('/v2/offers/');
    expect(v2.statusCode).toBe(404);
    expect(v2.json()).toMatchObject({
      code: 'version_not_found',
      detail: 'API version v2 is not served. Served versions: v1.',
    });
    expect(v2.headers.deprecation).toBeUndefined();
    expect((await t.apps.testing.inject('/healthz')).headers.deprecation).toBeUndefined();
  });

  it('sends no deprecation headers when none is configured', async () => {
    t = await createTestContext('sqlite');
    const res = await t.apps.testing.inject({
      url: '/v1/offers/',
      headers: { 'x-api-key': t.fixtures.keys.testing.key },
    });
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });
});
