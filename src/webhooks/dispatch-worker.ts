import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { openPostgres } from '../db/postgres.js';
import { openSqlite } from '../db/sqlite.js';
import { systemClock } from '../platform/clock.js';
import { createSecretBox } from '../platform/secret-box.js';
import type { DispatchThreadData, ToDispatchThread } from './dispatch-thread.js';
import { createDispatcher, type DeliveryOutcome } from './dispatcher.js';
import { createWebhookStore } from './store.js';

/**
 * The dispatcher's thread (dispatch-thread.ts, ADR 0051): the same dispatcher as on the event
 * loop (dispatcher.ts), on a database connection of its own, so that claiming, signing, sending
 * and recording deliveries run beside the import and the percolator. Its outcomes go to the
 * parent for /metrics, its log lines to the parent's logger.
 */
const port = parentPort;
if (port === null) throw new Error('dispatch-worker.ts runs as a worker thread');
const data = workerData as DispatchThreadData;

// Its own connection: SQLite (WAL) takes a second writer, waiting on busy_timeout for the
// other's transaction; PostgreSQL a small pool of its own. Reads stay on this thread.
const db = data.database.databaseUrl
  ? openPostgres(data.database.databaseUrl, { poolMax: data.database.poolMax })
  : openSqlite(data.database.sqlitePath, {
      readWorkers: 0,
      readCacheMb: 2,
      writeCacheMb: 2,
      optimize: false,
    });
// Every line to the parent, which logs it with its own logger (level, fields and message kept).
const logger = pino(
  { level: 'trace', base: null, timestamp: false },
  { write: (line: string) => port.postMessage({ kind: 'log', line }) },
);
const outcomes: Record<DeliveryOutcome, number> = { delivered: 0, retry: 0, failed: 0 };
let flushing = false;
const dispatcher = createDispatcher({
  store: createWebhookStore(db),
  clock: systemClock,
  box: createSecretBox(Buffer.from(data.masterSecret), 'webhook-secret'),
  logger,
  retrySchedule: data.retrySchedule,
  allowPrivate: data.allowPrivate,
  allowHttp: (environment) => environment === 'testing',
  onOutcome: (outcome) => {
    outcomes[outcome] += 1;
    // A pass's outcomes in one message, after its synchronous part.
    if (!flushing) {
      flushing = true;
      queueMicrotask(flushOutcomes);
    }
  },
  timeoutMs: data.timeoutMs,
});

function flushOutcomes() {
  flushing = false;
  port?.postMessage({ kind: 'outcomes', counts: { ...outcomes } });
  outcomes.delivered = 0;
  outcomes.retry = 0;
  outcomes.failed = 0;
}

port.on('message', (message: ToDispatchThread) => {
  switch (message.kind) {
    case 'start':
      dispatcher.start(message.pollMs);
      return;
    case 'nudge':
      dispatcher.nudge();
      return;
    case 'run':
      dispatcher.runOnce().then(
        (result) => port.postMessage({ kind: 'done', id: message.id, result }),
        (error: unknown) => port.postMessage({ kind: 'done', id: message.id, error: String(error) }),
      );
      return;
    case 'stop':
      // The pass in flight finishes and records its outcomes; then the connection closes.
      dispatcher
        .stop()
        .then(() => {
          if (flushing) flushOutcomes();
          return db.close();
        })
        .then(
          () => port.postMessage({ kind: 'done', id: message.id, result: 0 }),
          (error: unknown) => port.postMessage({ kind: 'done', id: message.id, error: String(error) }),
        );
      return;
  }
});
