import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { openPostgres } from '../../src/db/postgres.js';
import { createDeps } from '../../src/deps.js';
import { createLogger } from '../../src/http/logger.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import { systemClock } from '../../src/platform/clock.js';
import { VERSION } from '../../src/platform/version.js';
import { createTestContext, type TestContext } from '../support/context.js';

describe('HTTP basics', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /healthz and /readyz', async () => {
    expect((await t.apps.production.inject('/healthz')).json()).toEqual({ status: 'ok', version: VERSION });
    const ready = await t.apps.testing.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'not_configured' } });
  });

  it('reports one version (package.json) in /healthz, /openapi.json and vitrine_build_info', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
    expect((await t.apps.testing.inject('/healthz')).json().version).toBe(pkg.version);
    expect((await t.apps.testing.inject('/openapi.json')).json().info.version).toBe(pkg.version);
    const metrics = await t.apps.testing.inject('/metrics');
    expect(metrics.body).toContain(
      `vitrine_build_info{version="${pkg.version}",node_version="${process.versions.node}"} 1`,
    );
  });

  it('gives every response a request id, adopting a sane one from the caller', async () => {
    const own = await t.apps.production.inject('/healthz');
    expect(own.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{20}$/);
    const given = await t.apps.production.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const hostile = await t.apps.production.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'a\nb{"x":1}' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers unknown paths with 404 not_found and unknown versions with version_not_found', async () => {
    const missing = await t.apps.production.inject('/nothing/here?apiKey=secret');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found', instance: '/nothing/here' });
    expect(missing.body).not.toContain('secret');
    for (const path of ['/v2/offers/', '/v0/offers/', '/v12']) {
      const res = await t.apps.production.inject(path);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'version_not_found' });
      expect(res.json().detail).toContain('Served versions: v1');
    }
  });

  it('accepts the collection path with or without its trailing slash', async () => {
    const headers = { 'x-api-key': t.fixtures.keys.testing.key };
    expect((await t.apps.testing.inject({ url: '/v1/offers', headers })).statusCode).toBe(200);
    expect((await t.apps.testing.inject({ url: '/v1/offers/', headers })).statusCode).toBe(200);
  });
});

describe('when the database is unreachable', () => {
  it('answers 503 unavailable (problem+json, no internals) and fails /readyz', async () => {
    const config = loadConfig({});
    // Port 1 on loopback: nothing listens there, so every connection is refused.
    const db = openPostgres('postgres://postgres@127.0.0.1:1/none', { poolMax: 1 });
    const logger = createLogger({ level: 'silent' });
    const deps = createDeps(config, { clock: systemClock, logger, db, masterSecret: randomBytes(32) });
    const app = await buildApp(deps, 'testing');
    try {
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: 'unavailable', status: 503 });
      const search = await app.inject({
        url: '/v1/offers/',
        headers: { 'x-api-key': generateApiKey('testing') },
      });
      expect(search.statusCode).toBe(503);
      expect(search.headers['retry-after']).toBe('1');
      expect(search.json()).toMatchObject({
        code: 'unavailable',
        detail: 'The database cannot be reached right now. Retry shortly.',
      });
      expect(search.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
