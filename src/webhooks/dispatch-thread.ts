import type { Logger } from 'pino';
import pino from 'pino';
import { siblingModule, startModuleWorker } from '../platform/module-worker.js';
import type { DeliveryOutcome, Dispatcher } from './dispatcher.js';

/** Where the dispatcher's thread opens its own connection: the process's database. */
export interface DispatchDatabase {
  /** PostgreSQL (its own pool of `poolMax`); absent: the SQLite file `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath: string;
  poolMax: number;
}

/** What the thread is started with (`workerData`). */
export interface DispatchThreadData {
  database: DispatchDatabase;
  masterSecret: Uint8Array;
  retrySchedule: readonly number[];
  allowPrivate: boolean;
  timeoutMs?: number;
}

export type ToDispatchThread =
  | { kind: 'start'; pollMs: number }
  | { kind: 'nudge' }
  | { kind: 'run' | 'stop'; id: number };
type FromDispatchThread =
  | { kind: 'log'; line: string }
  | { kind: 'outcomes'; counts: Record<DeliveryOutcome, number> }
  | { kind: 'done'; id: number; result?: number; error?: string };

/** Pass connections this many at most (the thread's passes run one at a time). */
const THREAD_POOL_MAX = 2;
const WORKER_MODULE = siblingModule('dispatch-worker', import.meta.url);

/**
 * The dispatcher in a worker thread of `serve` (ADR 0051), on a database connection of its own:
 * delivering a burst of alerts (claim, sign, send, record: ~140 µs of CPU each) no longer takes
 * the event loop that imports and commits the percolator's pages. The same `Dispatcher`: the
 * thread runs dispatcher.ts on the system clock; its outcomes reach `onOutcome` (so /metrics),
 * its log lines `logger`. `stop` lets the pass in flight record its outcomes, then ends the thread.
 */
export function createThreadDispatcher(options: {
  database: DispatchDatabase;
  masterSecret: Buffer;
  retrySchedule: readonly number[];
  allowPrivate: boolean;
  logger: Logger;
  onOutcome?: (outcome: DeliveryOutcome, count: number) => void;
  timeoutMs?: number;
}): Dispatcher {
  const { logger } = options;
  const data: DispatchThreadData = {
    database: { ...options.database, poolMax: Math.min(options.database.poolMax, THREAD_POOL_MAX) },
    masterSecret: new Uint8Array(options.masterSecret),
    retrySchedule: options.retrySchedule,
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
  };
  const worker = startModuleWorker(WORKER_MODULE, { workerData: data });
  worker.unref();
  let next = 0;
  let exited = false;
  const waiting = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  worker.on('message', (message: FromDispatchThread) => {
    if (message.kind === 'log') relay(logger, message.line);
    else if (message.kind === 'outcomes') {
      for (const outcome of Object.keys(message.counts) as DeliveryOutcome[])
        if (message.counts[outcome] > 0) options.onOutcome?.(outcome, message.counts[outcome]);
    } else {
      const call = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) call?.reject(new Error(message.error));
      else call?.resolve(message.result ?? 0);
    }
  });
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', (error) => {
    logger.error({ err: error }, 'webhook dispatch thread failed');
    failAll(error);
  });
  worker.on('exit', (code) => {
    exited = true;
    failAll(new Error(`webhook dispatch thread exited (${code})`));
  });
  const call = (kind: 'run' | 'stop') => {
    if (exited) return Promise.reject(new Error('webhook dispatch thread has exited'));
    const id = ++next;
    const done = new Promise<number>((resolve, reject) => waiting.set(id, { resolve, reject }));
    worker.postMessage({ kind, id } satisfies ToDispatchThread);
    return done;
  };
  const post = (message: ToDispatchThread) => {
    if (!exited) worker.postMessage(message);
  };
  let stopping: Promise<void> | null = null;
  return {
    runOnce: () => call('run'),
    start: (pollMs) => post({ kind: 'start', pollMs }),
    nudge: () => post({ kind: 'nudge' }),
    stop() {
      stopping ??= call('stop')
        .catch((error) => logger.warn({ err: error }, 'stopping the webhook dispatch thread failed'))
        .then(async () => {
          await worker.terminate();
          exited = true;
        });
      return stopping;
    },
  };
}

/** A log line of the thread (pino JSON: level, msg, fields), logged by the parent's logger. */
function relay(logger: Logger, line: string) {
  try {
    const { level, msg, ...fields } = JSON.parse(line) as { level: number; msg?: string };
    const name = (pino.levels.labels[level] ?? 'info') as pino.Level;
    logger[name](fields, msg);
  } catch {
    logger.warn('unreadable log line from the webhook dispatch thread');
  }
}
