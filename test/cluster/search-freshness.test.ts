import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { toOfferRecord } from '../../src/offers/offer-record.js';
import { generateOffers } from '../../src/offers/seed.js';
import { systemClock } from '../../src/platform/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { eventually, type Instance, startInstance, vitrineArgv } from '../support/processes.js';
import { redisUrl, testRedisPrefix } from '../support/redis.js';

/**
 * Issue 12, done-when: a write through one serving process (`POST /v1/me/offers`) or through
 * the CLI (`vitrine import`, its own process) is found by another process's search within 1 s,
 * with Redis (a change message) and without (the change-counter poll). Two real `serve`
 * processes on one fresh PostgreSQL database; each holds its own in-memory index. Real time
 * (separate processes); the only timed promise checked is the issue's 1 s.
 */
const adminUrl = inject('postgresAdminUrl');
const sharedRedis = redisUrl();
const root = path.resolve(import.meta.dirname, '../..');
const silent = pino({ level: 'silent' });
const DESTINATION = 'https://app.example.com/callback';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-freshness-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Cluster {
  database: TestDatabase;
  admin: Deps;
  env: NodeJS.ProcessEnv;
  key: string;
  a: Instance;
  b: Instance;
  close(): Promise<void>;
}

async function startCluster(extraEnv: NodeJS.ProcessEnv): Promise<Cluster> {
  const database = await createTestDatabase('postgres');
  const env = {
    DATABASE_URL: database.location,
    MASTER_SECRET: Buffer.alloc(32, 3).toString('base64'),
    DATA_DIR: fs.mkdtempSync(path.join(work, 'data-')),
    ...extraEnv,
  };
  const admin = createDeps(loadConfig(env), { clock: systemClock, logger: silent, db: database.db });
  await admin.developers.add({ email: 'ops@example.com' });
  const project = await admin.projects.add({
    name: 'Freshness',
    ownerEmail: 'ops@example.com',
    redirectUris: [DESTINATION],
  });
  const key = (await admin.keys.issue({ projectId: project.id, environment: 'testing' })).key;
  await admin.users.add({ environment: 'testing', email: 'user@example.com', password: 'correct horse 42' });
  await admin.offers.upsertMany('testing', [...generateOffers({ count: 50, seed: 4 })]);
  // One after the other: two cold starts at once on a loaded machine can outlast the start bound.
  const a = await startInstance(env);
  const b = await startInstance(env).catch(async (error: unknown) => {
    await a.stop();
    throw error;
  });
  for (const instance of [a, b]) {
    await eventually(async () => (await fetch(`${instance.origin}/readyz`)).ok, 30_000, 'search index built');
  }
  return {
    database,
    admin,
    env,
    key,
    a,
    b,
    async close() {
      await Promise.all([a.stop(), b.stop()]);
      await admin.changeBus.close();
      await admin.redis?.close();
      await database.drop();
    },
  };
}

/** The /auth/connect login of an end user on `instance`, as a browser would: an access token. */
async function userToken(instance: Instance, key: string): Promise<string> {
  const page = await fetch(
    `${instance.origin}/auth/connect?${new URLSearchParams({ apiKey: key, destination: DESTINATION })}`,
  );
  const html = await page.text();
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = String(page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const login = await fetch(`${instance.origin}/auth/connect`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ticket, email: 'user@example.com', password: 'correct horse 42' }).toString(),
  });
  if (login.status !== 303)
    throw new Error(`login answered ${login.status}: ${(await login.text()).slice(0, 300)}`);
  return new URL(String(login.headers.get('location'))).searchParams.get('jwt') ?? '';
}

async function finds(instance: Instance, key: string, word: string): Promise<boolean> {
  const res = await fetch(`${instance.origin}/v1/offers/?q=${word}`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { total?: { value: number } };
  return res.status === 200 && (body.total?.value ?? 0) > 0;
}

const variants = [
  { name: 'with Redis (change messages)', redis: true },
  { name: 'without Redis (the counter poll)', redis: false },
];

for (const variant of variants) {
  const available = adminUrl !== null && (!variant.redis || sharedRedis !== null);
  describe.skipIf(!available)(`search freshness across two serve processes, ${variant.name}`, () => {
    let c: Cluster;
    const redisPrefix = testRedisPrefix(sharedRedis ?? '');
    beforeAll(async () => {
      c = await startCluster(
        variant.redis ? { REDIS_URL: sharedRedis as string, REDIS_KEY_PREFIX: redisPrefix.prefix } : {},
      );
    }, 120_000);
    afterAll(async () => {
      await c?.close();
      await redisPrefix.cleanup();
    });

    it('an offer published through one process is found by the other within 1 s, and at once by the writer', async () => {
      const token = await userToken(c.a, c.key);
      const word = variant.redis ? 'zorblaxian' : 'quintrelle';
      expect(await finds(c.b, c.key, word)).toBe(false);
      const published = await fetch(`${c.a.origin}/v1/me/offers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-api-key': c.key, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `A ${word} lamp`,
          description: 'Found by every instance.',
          category: 'furniture',
          location: { city: 'Lyon', country: 'FR', lat: 45.76, lon: 4.83 },
          price: { amount: '10.00', currency: 'EUR' },
        }),
      });
      expect(published.status).toBe(201);
      expect(await finds(c.a, c.key, word)).toBe(true);
      const elapsed = await eventually(() => finds(c.b, c.key, word), 1000, `${word} on B`);
      expect(elapsed).toBeLessThanOrEqual(1000);
    }, 60_000);

    it('offers imported by the CLI are found by both processes within 1 s', async () => {
      const word = variant.redis ? 'plonkavore' : 'wimbrelest';
      const [offer] = [...generateOffers({ count: 1, seed: 8, startIndex: 77_000 })];
      if (!offer) throw new Error('no offer');
      const file = path.join(work, `${word}.ndjson`);
      fs.writeFileSync(file, `${JSON.stringify(toOfferRecord({ ...offer, title: `${word} bicycle` }))}\n`);
      expect(await finds(c.a, c.key, word)).toBe(false);
      const cli = spawnSync(process.execPath, vitrineArgv('import', '--env', 'testing', file, '--json'), {
        cwd: root,
        env: { PATH: process.env.PATH, ...c.env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(cli.status, cli.stderr).toBe(0);
      for (const instance of [c.a, c.b]) {
        const elapsed = await eventually(() => finds(instance, c.key, word), 1000, `${word} imported`);
        expect(elapsed).toBeLessThanOrEqual(1000);
      }
    }, 60_000);
  });
}
