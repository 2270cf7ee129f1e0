import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { openPostgres } from '../../src/db/postgres.js';
import { openSqlite } from '../../src/db/sqlite.js';
import { createDeps } from '../../src/deps.js';
import { createLogger } from '../../src/http/logger.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Every search-API route, checked with no key, a malformed key, a bad checksum, an unknown key,
 * a revoked key, an expired key, a key of the other environment and conflicting keys (SPEC §3,
 * §7). Error bodies are pinned exactly.
 */
const ROUTES = ['/v1/offers/', '/v1/offers/off_doesnotexist', '/v1/key'];

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`API keys on ${dialect}`, () => {
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

    for (const route of ROUTES) {
      describe(route, () => {
        it('refuses a request without a key: 401 api_key_missing, problem+json', async () => {
          const res = await call(route);
          expect(res.statusCode).toBe(401);
          expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
          const requestId = res.headers['x-request-id'];
          expect(res.json()).toEqual({
            type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#api_key_missing$/),
            title: 'API key missing',
            status: 401,
            detail: 'Send your API key in the X-Api-Key header.',
            instance: route,
            code: 'api_key_missing',
            requestId,
          });
        });

        it('refuses a malformed key and a key failing its checksum: 401 api_key_invalid', async () => {
          const key = t.fixtures.keys.testing.key;
          const typo = `${key.slice(0, 10)}${key[10] === 'x' ? 'y' : 'x'}${key.slice(11)}`;
          for (const bad of ['nonsense', key.slice(0, -2), typo, `${key}x`]) {
            const res = await call(route, { 'x-api-key': bad });
            expect(res.statusCode).toBe(401);
            expect(res.json()).toMatchObject({ code: 'api_key_invalid', status: 401 });
            expect(res.json().detail).toMatch(/not a well-formed/);
          }
        });

        it('refuses a well-formed key nobody issued: 401 api_key_invalid', async () => {
          const res = await call(route, { 'x-api-key': generateApiKey('testing') });
          expect(res.statusCode).toBe(401);
          expect(res.json()).toMatchObject({ code: 'api_key_invalid', detail: 'This API key is not known.' });
        });

        it('refuses a key of the other environment: 403 naming its environment', async () => {
          const res = await call(route, { 'x-api-key': t.fixtures.keys.production.key }, 'testing');
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ code: 'api_key_wrong_environment' });
          expect(res.json().detail).toContain('production environment');
          const back = await call(route, { 'x-api-key': t.fixtures.keys.testing.key }, 'production');
          expect(back.statusCode).toBe(403);
          expect(back.json().detail).toContain('testing environment');
        });

        it('refuses different keys in header and query: 400 api_key_conflict', async () => {
          const { testing, production } = t.fixtures.keys;
          const sep = route.includes('?') ? '&' : '?';
          const res = await call(`${route}${sep}apiKey=${production.key}`, { 'x-api-key': testing.key });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toMatchObject({ code: 'api_key_conflict' });
        });
      });
    }

    it('accepts the key from the header, the query, or both when equal', async () => {
      const key = t.fixtures.keys.testing.key;
      expect((await call('/v1/offers/', { 'x-api-key': key })).statusCode).toBe(200);
      expect((await call(`/v1/offers/?apiKey=${key}`)).statusCode).toBe(200);
      expect((await call(`/v1/offers/?apiKey=${key}`, { 'x-api-key': key })).statusCode).toBe(200);
    });

    it('checks the key before the parameters, so strangers learn nothing about them', async () => {
      const res = await call('/v1/offers/?bogus=1');
      expect(res.json().code).toBe('api_key_missing');
    });

    it('refuses a key once it expires (moving the injected clock)', async () => {
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        expiresAt: t.clock.now() + 60_000,
      });
      expect((await call('/v1/offers/', { 'x-api-key': issued.key })).statusCode).toBe(200);
      t.clock.advance(60_000);
      const res = await call('/v1/offers/', { 'x-api-key': issued.key });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('api_key_expired');
    });

    it('refuses a key revoked in this process at once, even though it was cached', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      expect((await call('/v1/offers/', { 'x-api-key': issued.key })).statusCode).toBe(200);
      await t.deps.keys.revoke(issued.record.id);
      const res = await call('/v1/offers/', { 'x-api-key': issued.key });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'api_key_revoked', detail: 'This API key has been revoked.' });
    });

    it('refuses a key revoked by another process after one cache poll', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      expect((await call('/v1/offers/', { 'x-api-key': issued.key })).statusCode).toBe(200);
      // The background poll runs on real time; stop it so this test decides when the poll happens
      // (a loaded machine could otherwise poll between the revocation and the "still cached" call).
      await t.deps.keyVerifier.stop();
      // Another process (the CLI, another instance): its own connection and its own services.
      const otherDb =
        dialect === 'sqlite'
          ? openSqlite(t.database.location)
          : openPostgres(t.database.location, { poolMax: 2 });
      const other = createDeps(loadConfig({}), {
        clock: t.clock,
        logger: createLogger({ level: 'silent' }),
        db: otherDb,
      });
      await other.keys.revoke(issued.record.id);
      await other.close();
      // Still cached here until the poll that runs every KEY_CACHE_REFRESH_MS (≤ 1 s) …
      expect((await call('/v1/offers/', { 'x-api-key': issued.key })).statusCode).toBe(200);
      await t.deps.keyVerifier.refresh();
      // … and refused after it.
      expect((await call('/v1/offers/', { 'x-api-key': issued.key })).json().code).toBe('api_key_revoked');
      await t.deps.keyVerifier.start();
    });

    it('serves verified keys from the cache, not the database', async () => {
      const key = t.fixtures.keys.testing.key;
      // Take in every change earlier tests made, so no eviction can land during this one.
      await t.deps.keyVerifier.refresh();
      await call('/v1/offers/', { 'x-api-key': key });
      const before = { ...t.deps.keyVerifier.stats };
      for (let i = 0; i < 5; i += 1) await call('/v1/offers/', { 'x-api-key': key });
      expect(t.deps.keyVerifier.stats.misses).toBe(before.misses);
      expect(t.deps.keyVerifier.stats.hits).toBe(before.hits + 5);
    });

    it('records the last use of a key', async () => {
      const { id, key } = t.fixtures.keys.testing;
      await call('/v1/offers/', { 'x-api-key': key });
      await t.deps.keyVerifier.stop();
      const [record] = (await t.deps.keys.list({ projectId: t.fixtures.projectId })).filter(
        (k) => k.id === id,
      );
      expect(record?.lastUsedAt).toBe(t.clock.now());
      await t.deps.keyVerifier.start();
    });

    it('never writes a key, or any secret query parameter, to the logs', async () => {
      const key = t.fixtures.keys.testing.key;
      await call(`/v1/offers/?apiKey=${key}&jwt=secret-jwt-value&refresh=secret-refresh-value`);
      await call('/v1/offers/', { 'x-api-key': key, authorization: 'Bearer secret-bearer' });
      const all = t.logs.join('');
      expect(all).toContain('apiKey=[REDACTED]');
      for (const secret of [key, 'secret-jwt-value', 'secret-refresh-value', 'secret-bearer']) {
        expect(all).not.toContain(secret);
      }
    });

    it('stores only a hash of each key', async () => {
      const key = t.fixtures.keys.testing.key;
      const rows = await t.database.db.all<Record<string, unknown>>('SELECT * FROM api_keys');
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(JSON.stringify(rows)).not.toContain(key.split('_')[2]);
    });
  });
}
