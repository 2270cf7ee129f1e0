import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { redisUrl, testRedisPrefix } from '../support/redis.js';

/**
 * Issue 13, defect 8 (the parts of it this branch owns): `vitrine_redis_up` read 0 without
 * Redis configured (it is absent now); two different `X-Api-Key` headers answered 401 (now
 * `400 api_key_conflict`); no HSTS when served over https.
 */
describe('without Redis, over https', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', {
      PUBLIC_ORIGIN: 'https://api.example.com',
      TESTING_PUBLIC_ORIGIN: 'http://localhost:8081',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no vitrine_redis_up series at all', async () => {
    const res = await t.apps.production.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('vitrine_http_requests_total');
    expect(res.body).not.toContain('vitrine_redis_up');
  });

  it('answers two different X-Api-Key headers with 400 api_key_conflict; the same key twice is one key', async () => {
    const { production, testing } = t.fixtures.keys;
    const twice = await t.apps.testing.inject({
      url: '/v1/offers/',
      headers: { 'x-api-key': [testing.key, production.key] },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('api_key_conflict');
    expect(twice.body).not.toContain(testing.key);
    const same = await t.apps.testing.inject({
      url: '/v1/offers/',
      headers: { 'x-api-key': [testing.key, testing.key] },
    });
    expect(same.statusCode).toBe(200);
  });

  it('keeps a search answer from its second computation and serves it from the third asking (ADR 0050)', async () => {
    const { testing } = t.fixtures.keys;
    const counters = async () => {
      const body = (await t.apps.testing.inject('/metrics')).body;
      const read = (pattern: RegExp) => Number(pattern.exec(body)?.[1] ?? Number.NaN);
      return {
        hit: read(/^vitrine_search_cache_lookups_total\{result="hit"\} (\S+)$/m),
        declined: read(/^vitrine_search_cache_declined_total (\S+)$/m),
      };
    };
    const before = await counters();
    const ask = () =>
      t.apps.testing.inject({
        url: '/v1/offers/?q=doorkeeper+question',
        headers: { 'x-api-key': testing.key },
      });
    const answers = [await ask(), await ask(), await ask()];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[2]?.json()).toEqual(answers[0]?.json());
    const after = await counters();
    // First: computed, declined. Second: computed again, kept. Third: a hit.
    expect(after.declined - before.declined).toBe(1);
    expect(after.hit - before.hit).toBe(1);
  });

  it('sends Strict-Transport-Security on the https origin only', async () => {
    const secure = await t.apps.production.inject('/healthz');
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await t.apps.testing.inject('/healthz');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // On errors too.
    const missing = await t.apps.production.inject('/nothing');
    expect(missing.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

const url = redisUrl();
describe.skipIf(!url)('with Redis', () => {
  let t: TestContext;
  const prefix = testRedisPrefix(url ?? '');
  beforeAll(async () => {
    t = await createTestContext('sqlite', { REDIS_URL: url ?? '', REDIS_KEY_PREFIX: prefix.prefix });
    await t.deps.redis?.whenReady(5000);
  });
  afterAll(async () => {
    await t.close();
    await prefix.cleanup();
  });

  it('reports vitrine_redis_up 1', async () => {
    const res = await t.apps.production.inject('/metrics');
    expect(res.body).toMatch(/^vitrine_redis_up 1$/m);
  });
});
