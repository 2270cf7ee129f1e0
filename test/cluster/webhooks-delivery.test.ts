import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Actor } from '../../src/audit/service.js';
import { clusterFixture } from '../support/cluster.js';
import { backends } from '../support/databases.js';
import { eventually, freePort, type Instance, startInstance } from '../support/processes.js';
import { Receiver } from '../webhooks/receiver.js';

/**
 * Issue 24, with real `vitrine serve` processes: an event recorded while nothing can deliver it
 * survives a SIGKILL and is delivered after the restart; two processes on one PostgreSQL
 * deliver each event exactly once. Real time (separate processes share no ManualClock); the
 * waits are polls of a real receiver.
 */
const ACTOR: Actor = { kind: 'cli', id: 'test', email: null, ip: null };
const adminUrl = inject('postgresAdminUrl');

const fixture = (dialect: 'sqlite' | 'postgres') =>
  clusterFixture(
    dialect,
    {
      MASTER_SECRET: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '5s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
      WEBHOOK_POLL_MS: '100',
      SEARCH_SNAPSHOT: 'false',
    },
    { email: 'hooks@example.com', project: 'Hooks' },
  );

const instances: Instance[] = [];
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
});
async function start(env: NodeJS.ProcessEnv): Promise<Instance> {
  const instance = await startInstance(env);
  instances.push(instance);
  return instance;
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`webhook delivery across processes on ${dialect}`, { timeout: 240_000 }, () => {
    it('an event recorded before a SIGKILL is delivered after the restart, same webhook-id', async () => {
      const f = await fixture(dialect);
      const receiver = new Receiver();
      try {
        // The receiver's port is chosen now but nothing listens on it yet: attempts fail.
        const port = await freePort();
        const url = `http://127.0.0.1:${port}/hooks`;
        const { endpoint } = await f.admin.webhooks.service.add(
          ACTOR,
          { projectId: f.projectId, environment: 'testing' },
          { url },
        );
        const first = await start(f.env);
        const key = (await f.admin.keys.issue({ projectId: f.projectId, environment: 'testing' })).key;
        // The write, through the serving process: its outbox row commits with the cause.
        const queued = await fetch(`${first.origin}/v1/webhooks/${endpoint.id}/test`, {
          method: 'POST',
          headers: { 'x-api-key': key },
        });
        expect(queued.status).toBe(202);
        const { messageId } = (await queued.json()) as { messageId: string };
        // Killed once its first attempt (refused: nothing listens) is recorded and before the
        // next (the first wait is 5 s). A kill between a claim and its outcome leaves a claim the
        // next process waits out (60 s): test/webhooks/dispatcher-claim.test.ts, with a clock.
        const attempted = () =>
          f.admin.db.get<{ state: string; attempts: number }>(
            'SELECT state, attempts FROM webhook_deliveries WHERE id = ?',
            [messageId],
          );
        await eventually(async () => ((await attempted())?.attempts ?? 0) >= 1, 30_000, 'first attempt');
        first.child.kill('SIGKILL');
        await new Promise((resolve) => first.child.once('exit', resolve));
        expect(await attempted()).toEqual({ state: 'pending', attempts: 1 }); // not delivered

        await receiver.start(port);
        await start(f.env);
        await eventually(async () => receiver.received.length > 0, 90_000, 'delivered after restart');
        expect(receiver.received[0]?.headers['webhook-id']).toBe(messageId);
      } finally {
        await receiver.close().catch(() => undefined);
        await f.close();
      }
    });
  });
}

describe.skipIf(adminUrl === null)('two serving processes on one PostgreSQL', { timeout: 240_000 }, () => {
  it('deliver each event exactly once', async () => {
    const f = await fixture('postgres');
    const receiver = new Receiver();
    try {
      await receiver.start();
      const { endpoint } = await f.admin.webhooks.service.add(
        ACTOR,
        { projectId: f.projectId, environment: 'testing' },
        { url: receiver.url },
      );
      await Promise.all([start(f.env), start(f.env)]);
      const ids: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        ids.push(await f.admin.webhooks.service.test(ACTOR, { projectId: f.projectId }, endpoint.id));
      }
      await eventually(async () => receiver.received.length >= ids.length, 60_000, 'all delivered');
      // A moment more: a second copy of any of them would arrive now.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const got = receiver.received.map((r) => r.headers['webhook-id'] as string);
      expect(got.sort()).toEqual([...ids].sort());
    } finally {
      await receiver.close().catch(() => undefined);
      await f.close();
    }
  });
});
