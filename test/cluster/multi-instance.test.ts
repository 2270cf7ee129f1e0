import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { type ClusterFixture, clusterFixture } from '../support/cluster.js';
import {
  eventually,
  type Instance,
  startInstance,
  startRedisServer,
  tcpProxy,
  vitrineArgv,
} from '../support/processes.js';
import { redisUrl, testRedisPrefix } from '../support/redis.js';

/**
 * Issue #6, done-when: several real `vitrine serve --env testing` processes on one fresh
 * PostgreSQL database and one Redis (a key prefix of this run's own). Real time is used here
 * (separate processes cannot share a ManualClock); the only timed promise checked is SPEC §3's
 * "revoked everywhere within 1 s". Skipped without PostgreSQL or Redis on a laptop; under
 * CI=true the global setup fails instead.
 */
const adminUrl = inject('postgresAdminUrl');
const sharedRedis = redisUrl();
const available = adminUrl !== null && sharedRedis !== null;
const root = path.resolve(import.meta.dirname, '../..');
/** Issue 14: what the Redis broadcast meets and a 1 s key-cache poll only by chance (25 % per instance). */
const BROADCAST_BOUND_MS = 250;
const REVOCATION_ROUNDS = 5;

type Fixture = ClusterFixture;
const fixture = (extraEnv: NodeJS.ProcessEnv) => clusterFixture('postgres', extraEnv);

async function issue(f: Fixture, rps: number | null = null) {
  const issued = await f.admin.keys.issue({ projectId: f.projectId, environment: 'testing' });
  if (rps !== null) await f.admin.keys.setPlan(issued.record.id, rps);
  return { id: issued.record.id, key: issued.key };
}

const get = (instance: Instance, key: string, query = 'limit=1') =>
  fetch(`${instance.origin}/v1/offers/?${query}`, { headers: { 'x-api-key': key } });

const statusOf = async (instance: Instance, key: string) => {
  const res = await get(instance, key);
  await res.arrayBuffer();
  return res.status;
};

const readyz = async (instance: Instance) => {
  const res = await fetch(`${instance.origin}/readyz`);
  return { status: res.status, body: (await res.json()) as { checks?: { redis: string }; detail?: string } };
};

describe.skipIf(!available)('several instances on PostgreSQL + Redis', () => {
  let f: Fixture;
  let a: Instance;
  let b: Instance;
  const redisPrefix = testRedisPrefix(sharedRedis ?? '');

  beforeAll(async () => {
    f = await fixture({
      REDIS_URL: sharedRedis as string,
      REDIS_KEY_PREFIX: redisPrefix.prefix,
      // Only the flush on SIGTERM writes usage in this suite: a restart must not lose counts.
      USAGE_FLUSH_MS: '600000',
      // Issue 14: the key-cache poll at its slowest (1 s), so only the Redis broadcast can meet
      // BROADCAST_BOUND_MS below; without it the revocations are seen at a poll, up to 1 s later.
      KEY_CACHE_REFRESH_MS: '1000',
    });
    [a, b] = await Promise.all([startInstance(f.env), startInstance(f.env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await f?.close();
    await redisPrefix.cleanup();
  });

  it('a key revoked through one process (service or CLI) is refused by the others within 1 s', async () => {
    // Several revocations, each seen by both instances well before their next poll. Without the
    // change bus, both 1 s polls land within the bound for one round 1/16 of the time, so four
    // rounds of five about once in 13 000 runs: this fails when the change bus is not wired. One
    // slow round is allowed, so a loaded CI machine's pause does not fail the broadcast path.
    const fast: boolean[] = [];
    for (let round = 0; round < REVOCATION_ROUNDS; round += 1) {
      const key = await issue(f);
      expect([await statusOf(a, key.key), await statusOf(b, key.key)]).toEqual([200, 200]);
      await f.admin.keys.revoke(key.id);
      const seen = await Promise.all(
        [a, b].map((instance) =>
          eventually(async () => (await statusOf(instance, key.key)) === 401, 1000, 'revoked'),
        ),
      );
      fast.push(Math.max(...seen) <= BROADCAST_BOUND_MS);
    }
    expect(fast.filter(Boolean).length).toBeGreaterThanOrEqual(REVOCATION_ROUNDS - 1);

    const other = await issue(f);
    expect([await statusOf(a, other.key), await statusOf(b, other.key)]).toEqual([200, 200]);
    const cli = spawnSync(process.execPath, vitrineArgv('keys', 'revoke', other.id, '--json'), {
      cwd: root,
      env: { PATH: process.env.PATH, ...f.env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(cli.status).toBe(0);
    await eventually(async () => (await statusOf(a, other.key)) === 401, 1000, 'CLI revocation on A');
    await eventually(async () => (await statusOf(b, other.key)) === 401, 1000, 'CLI revocation on B');
  }, 60_000);

  it('a rolled secret (H0) cached by both instances is refused by both within 1 s of a revocation', async () => {
    // Issue 26: the caches are keyed by secret hash, and a change evicted only the hashes the
    // row holds now: H0, rolled twice, stayed cached (60 s) after the revocation.
    const key = await issue(f);
    const h0 = key.key;
    expect([await statusOf(a, h0), await statusOf(b, h0)]).toEqual([200, 200]);
    const h1 = (await f.admin.keys.roll(key.id, 3_600_000)).key;
    // Within the overlap, H0 still works: both instances now cache H0 with the rolled record.
    await Promise.all(
      [a, b].map((instance) =>
        eventually(async () => (await statusOf(instance, h0)) === 200, 1000, 'H0 in overlap'),
      ),
    );
    expect([await statusOf(a, h1), await statusOf(b, h1)]).toEqual([200, 200]);
    const h2 = (await f.admin.keys.roll(key.id, 0)).key;
    await f.admin.keys.revoke(key.id);
    for (const secret of [h0, h1, h2]) {
      await Promise.all(
        [a, b].map((instance) =>
          eventually(
            async () => (await statusOf(instance, secret)) === 401,
            1000,
            'a revoked secret refused',
          ),
        ),
      );
    }
  }, 60_000);

  it("holds a key's plan across both instances, with correct RateLimit headers", async () => {
    // Plan 1 rps: a token every second, so a slow machine cannot refill one between requests.
    const key = await issue(f, 1);
    const started = Date.now();
    const first = await get(a, key.key);
    const second = await get(b, key.key);
    expect([first.status, second.status]).toEqual([200, 429]);
    expect(first.headers.get('ratelimit-limit')).toBe('1');
    expect(first.headers.get('ratelimit-remaining')).toBe('0');
    expect(first.headers.get('ratelimit-reset')).toBe('1');
    expect(second.headers.get('ratelimit-limit')).toBe('1');
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { code: string }).code).toBe('rate_limited');
    let accepted = 1;
    for (let i = 0; i < 20; i += 1) if ((await statusOf(i % 2 ? a : b, key.key)) === 200) accepted += 1;
    // GCRA: at most the burst plus one request per second that passed; two separate
    // per-instance buckets would have let through two at once.
    const elapsed = Date.now() - started;
    expect(accepted).toBeLessThanOrEqual(1 + Math.floor(elapsed / 1000));
  }, 60_000);

  it('a restart loses no usage counts (flushed on SIGTERM, added up across instances)', async () => {
    const key = await issue(f, 1000);
    for (let i = 0; i < 15; i += 1) expect(await statusOf(a, key.key)).toBe(200);
    for (let i = 0; i < 10; i += 1) expect(await statusOf(b, key.key)).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await get(a, key.key, 'limit=1000')).status).toBe(400);
    expect(await a.stop()).toBe(0);
    a = await startInstance(f.env);
    for (let i = 0; i < 5; i += 1) expect(await statusOf(a, key.key)).toBe(200);
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    const [today] = await f.admin.usage.forKey(key.id, { days: 1 });
    expect(today).toMatchObject({ requests: 33, errors: 3, byStatusClass: { '2xx': 30, '4xx': 3 } });
  }, 60_000);
});

describe.skipIf(!available)('Redis going away and coming back', () => {
  let f: Fixture;
  let a: Instance;
  let b: Instance;
  let redis: Awaited<ReturnType<typeof startRedisServer>>;

  beforeAll(async () => {
    redis = await startRedisServer();
    f = await fixture({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'vitrine-test:' });
    [a, b] = await Promise.all([startInstance(f.env), startInstance(f.env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await f?.close();
    await redis?.kill();
  });

  it('keeps answering with per-instance limits while Redis is down, and shares them again after', async () => {
    const key = await issue(f, 1);
    expect([await statusOf(a, key.key), await statusOf(b, key.key)]).toEqual([200, 429]);
    expect((await readyz(a)).body.checks?.redis).toBe('ok');

    await redis.kill();
    await eventually(
      async () => (await readyz(a)).body.checks?.redis === 'degraded',
      5000,
      'A sees Redis down',
    );
    await eventually(
      async () => (await readyz(b)).body.checks?.redis === 'degraded',
      5000,
      'B sees Redis down',
    );
    expect((await readyz(a)).status).toBe(200);
    // Each instance now enforces the plan alone: one request each, then 429 on each.
    expect([await statusOf(a, key.key), await statusOf(b, key.key)]).toEqual([200, 200]);
    expect([await statusOf(a, key.key), await statusOf(b, key.key)]).toEqual([429, 429]);
    const metrics = await (await fetch(`${a.origin}/metrics`)).text();
    expect(metrics).toContain('vitrine_redis_up 0');
    expect(a.output()).toContain('Redis unreachable: using per-instance rate limits');

    redis = await startRedisServer(redis.port);
    await eventually(async () => (await readyz(a)).body.checks?.redis === 'ok', 10_000, 'A sees Redis back');
    await eventually(async () => (await readyz(b)).body.checks?.redis === 'ok', 10_000, 'B sees Redis back');
    const fresh = await issue(f, 1);
    expect([await statusOf(a, fresh.key), await statusOf(b, fresh.key)]).toEqual([200, 429]);
    expect(await (await fetch(`${b.origin}/metrics`)).text()).toContain('vitrine_redis_up 1');
  }, 60_000);
});

describe.skipIf(!available)('PostgreSQL going away and coming back', () => {
  let f: Fixture;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let c: Instance;

  beforeAll(async () => {
    f = await fixture({});
    const target = new URL(f.database.location);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(f.database.location);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    c = await startInstance({ DATABASE_URL: viaProxy.toString() });
  });
  afterAll(async () => {
    await c?.stop();
    await proxy?.cut();
    await f?.close();
  });

  it('answers 503 unavailable and fails /readyz while the database is cut off, and recovers by itself', async () => {
    // A plan far above the polling below (the limiter is not what this test is about).
    const key = await issue(f, 1_000_000);
    // Issue 12: searches are answered from memory, and the page's rows from the database; an
    // offer to find makes the search read a row.
    const [offer] = [...generateOffers({ count: 1, seed: 2 })];
    if (!offer) throw new Error('no offer');
    await f.admin.offers.upsertMany('testing', [{ ...offer, status: 'active', expiresAt: null }]);
    await eventually(
      async () => {
        const res = await get(c, key.key);
        return res.status === 200 && ((await res.json()) as { data: unknown[] }).data.length === 1;
      },
      10_000,
      'the offer found',
    );
    await proxy.cut();
    // A search not asked before: a repeated one may still come from the search cache for up to a
    // second (ADR 0025), until the index is no longer known to be current.
    const down = await get(c, key.key, 'limit=2');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(((await down.json()) as { code: string }).code).toBe('unavailable');
    const ready = await readyz(c);
    expect(ready.status).toBe(503);
    expect(ready.body.detail).toContain('database does not answer');
    // The search answered before the cut too, once the index can no longer check the database.
    await eventually(
      async () => (await statusOf(c, key.key)) === 503,
      10_000,
      'no cached answer while cut off',
    );
    await proxy.restore();
    await eventually(async () => (await readyz(c)).status === 200, 10_000, 'ready again');
    expect(await statusOf(c, key.key)).toBe(200);
  }, 60_000);
});

describe.skipIf(!available)('SIGTERM under load', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture({ USAGE_FLUSH_MS: '600000' });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('completes every request it accepted, writes their usage, and exits 0', async () => {
    const key = await issue(f, 1_000_000);
    const d = await startInstance(f.env);
    const statuses: number[] = [];
    const worker = async () => {
      // Until the server refuses connections (it has closed its listener).
      while (statuses.length < 200_000) {
        try {
          statuses.push(await statusOf(d, key.key));
        } catch {
          return; // refused: the listener is closed
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await eventually(async () => statuses.length >= 200, 10_000, 'load running');
    const exit = d.stop();
    await Promise.all(workers);
    const code = await exit;
    if (code !== 0) console.error(d.output(), statuses.length, statuses.filter((x) => x !== 200).length);
    expect(code).toBe(0);
    const ok = statuses.filter((s) => s === 200).length;
    // Requests arriving while it closes are turned away with 503 before any work; nothing else.
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // Every request the server accepted was answered in full and counted before exit.
    const [today] = await f.admin.usage.forKey(key.id, { days: 1 });
    expect(today).toMatchObject({ requests: ok, errors: 0 });
  }, 60_000);
});
