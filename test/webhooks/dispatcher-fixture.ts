import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { Dialect } from '../../src/db/database.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { createSecretBox } from '../../src/platform/secret-box.js';
import { createDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js';
import { createWebhookStore, type WebhookStore } from '../../src/webhooks/store.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * What the dispatcher tests share: a test context with one webhook endpoint (all event types, the
 * project's testing environment) at `url`, its secret sealed with a key the fixture knows, so that
 * the dispatchers it builds (as `serve` builds one, on the injected clock) can sign; and events to
 * record.
 */
export interface DispatcherFixture {
  t: TestContext;
  store: WebhookStore;
  dispatcher(options?: { retrySchedule?: number[]; timeoutMs?: number }): Dispatcher;
  /** `n` `import.completed` events of the fixture's project. */
  events(n: number): PlatformEvent[];
}

export async function dispatcherFixture(dialect: Dialect, url: string): Promise<DispatcherFixture> {
  const masterSecret = randomBytes(32);
  const t = await createTestContext(dialect, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    MASTER_SECRET: masterSecret.toString('base64'),
  });
  await t.deps.webhooks.service.add(
    { kind: 'cli', id: 'test', email: null, ip: null },
    { projectId: t.fixtures.projectId, environment: 'testing' },
    { url },
  );
  const store = createWebhookStore(t.deps.db);
  return {
    t,
    store,
    dispatcher: (options = {}) =>
      createDispatcher({
        store,
        clock: t.clock,
        box: createSecretBox(masterSecret, 'webhook-secret'),
        logger: pino({ level: 'silent' }),
        retrySchedule: options.retrySchedule ?? [5_000],
        allowPrivate: true,
        allowHttp: () => true,
        timeoutMs: options.timeoutMs,
      }),
    events: (n) =>
      Array.from({ length: n }, (_, i) => ({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        type: 'import.completed',
        data: { created: i, updated: 0, unchanged: 0, failed: 0 },
      })),
  };
}
