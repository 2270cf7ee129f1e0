import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/audit/service.js';
import { loadConfig } from '../../src/config/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createDeps } from '../../src/deps.js';
import { systemClock } from '../../src/platform/clock.js';
import { createThreadDispatcher, type DispatchDatabase } from '../../src/webhooks/dispatch-thread.js';
import type { DeliveryOutcome } from '../../src/webhooks/dispatcher.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { eventually } from '../support/processes.js';
import { Receiver } from './receiver.js';

/**
 * ADR 0051: `serve` delivers webhooks from a worker thread with a database connection of its
 * own. The thread takes the same deliveries as the event loop's dispatcher (signed, SSRF-checked
 * at the attempt), its outcomes reach the parent (for /metrics) and its log lines the parent's
 * logger; `stop` ends it. A real receiver on loopback; the thread runs on the system clock.
 */
const ACTOR: Actor = { kind: 'cli', id: 'test', email: null, ip: null };
const MASTER = randomBytes(32);

function capture() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
  );
  return { lines, logger };
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`the dispatcher's thread on ${dialect}`, () => {
    let t: TestContext;
    let receiver: Receiver;
    let secret: string;
    let endpointId: string;
    let database: DispatchDatabase;
    const scope = () => ({ projectId: t.fixtures.projectId, environment: 'testing' as const });
    const state = async (id: string) =>
      t.deps.db.get<{ state: string; last_error: string | null }>(
        'SELECT state, last_error FROM webhook_deliveries WHERE id = ?',
        [id],
      );

    beforeAll(async () => {
      t = await createTestContext(dialect, {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        MASTER_SECRET: MASTER.toString('base64'),
      });
      t.clock.set(Date.now()); // the thread reads the system clock
      receiver = new Receiver();
      await receiver.start();
      ({
        endpoint: { id: endpointId },
        secret,
      } = await t.deps.webhooks.service.add(ACTOR, scope(), {
        url: receiver.url,
      }));
      database =
        dialect === 'sqlite'
          ? { sqlitePath: t.database.location, poolMax: 2 }
          : { databaseUrl: t.database.location, sqlitePath: '', poolMax: 2 };
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.close();
    });

    it('delivers a signed event, reports its outcome, and stops', async () => {
      const outcomes: [DeliveryOutcome, number][] = [];
      const { logger } = capture();
      const thread = createThreadDispatcher({
        database,
        masterSecret: MASTER,
        retrySchedule: [1_000],
        allowPrivate: true,
        logger,
        onOutcome: (outcome, count) => outcomes.push([outcome, count]),
      });
      const messageId = await t.deps.webhooks.service.test(ACTOR, scope(), endpointId);
      expect(await thread.runOnce()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(got?.headers['webhook-id']).toBe(messageId);
      new Webhook(secret).verify(got?.body ?? '', got?.headers as Record<string, string>);
      expect((await state(messageId))?.state).toBe('delivered');
      await eventually(async () => outcomes.length > 0, 10_000, 'the outcome reported');
      expect(outcomes).toEqual([['delivered', 1]]);
      await thread.stop();
      await expect(thread.runOnce()).rejects.toThrow(/exited/);
    });

    it('checks the URL at the attempt: a private address is refused unless allowed', async () => {
      receiver.received.length = 0;
      const outcomes: DeliveryOutcome[] = [];
      const thread = createThreadDispatcher({
        database,
        masterSecret: MASTER,
        retrySchedule: [1_000],
        allowPrivate: false,
        logger: capture().logger,
        onOutcome: (outcome) => outcomes.push(outcome),
      });
      try {
        const messageId = await t.deps.webhooks.service.test(ACTOR, scope(), endpointId);
        expect(await thread.runOnce()).toBe(1);
        expect(receiver.received).toHaveLength(0);
        const row = await state(messageId);
        expect(row?.state).toBe('pending');
        expect(row?.last_error).toMatch(/URL refused/);
        await eventually(async () => outcomes.length > 0, 10_000, 'the outcome reported');
        expect(outcomes).toEqual(['retry']);
      } finally {
        await thread.stop();
      }
    });

    it("relays the thread's log lines to the parent's logger", async () => {
      // A database without the webhook tables: every pass fails and says so.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-dispatch-'));
      const { lines, logger } = capture();
      const thread = createThreadDispatcher({
        database: { sqlitePath: path.join(dir, 'empty.db'), poolMax: 1 },
        masterSecret: MASTER,
        retrySchedule: [],
        allowPrivate: false,
        logger,
      });
      try {
        thread.start(20);
        await eventually(
          async () => lines.some((l) => l.includes('webhook dispatch pass failed')),
          20_000,
          'the failed pass logged by the parent',
        );
        const line = JSON.parse(lines.find((l) => l.includes('pass failed')) ?? '{}');
        expect(line.level).toBe(40); // warn, as the thread logged it
        expect(line.err?.message).toMatch(/no such table/);
        expect(lines.join('\n')).not.toContain(MASTER.toString('base64'));
      } finally {
        await thread.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe('serve delivers from the thread (SQLite, the database opened from the configuration)', () => {
  it('counts the outcomes on /metrics and stops the thread with the webhooks', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-dispatch-serve-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      MASTER_SECRET: MASTER.toString('base64'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SEARCH_SNAPSHOT: 'false',
    });
    const deps = createDeps(config, { clock: systemClock, logger: capture().logger });
    const receiver = new Receiver();
    try {
      await migrate(deps.db);
      await receiver.start();
      await deps.developers.add({ email: 'thread@example.com' });
      const project = await deps.projects.add({ name: 'Thread', ownerEmail: 'thread@example.com' });
      const scope = { projectId: project.id, environment: 'testing' as const };
      const { endpoint } = await deps.webhooks.service.add(ACTOR, scope, { url: receiver.url });
      deps.webhooks.start(50);
      await deps.webhooks.service.test(ACTOR, scope, endpoint.id); // nudges the thread
      await eventually(async () => receiver.received.length === 1, 20_000, 'delivered by the thread');
      const delivered = async () =>
        (await deps.metrics.registry.metrics()).includes(
          'vitrine_webhook_deliveries_total{outcome="delivered"} 1',
        );
      await eventually(delivered, 10_000, 'the delivery counted on /metrics');
      await deps.webhooks.stop();
      await expect(deps.webhooks.dispatcher.runOnce()).rejects.toThrow(/exited/);
    } finally {
      await receiver.close();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
