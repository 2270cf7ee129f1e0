import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/module-worker.js';
import { DatabaseUnavailableError, type SqlValue } from './database.js';
import type { ReaderReply, ReaderRequest, ReaderWorkerData } from './sqlite-reader-worker.js';

/**
 * Reads off the event loop (issue #3): better-sqlite3 is synchronous, so a slow search on the
 * main thread stalls every other request. A small pool of worker threads
 * (sqlite-reader-worker.ts), each with its own read-only connection, runs `all`/`get`; under WAL
 * each sees the latest committed data.
 */
const WORKER_MODULE = siblingModule('sqlite-reader-worker', import.meta.url);

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface ReaderPool {
  all<T>(sql: string, params: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params: readonly SqlValue[]): Promise<T | undefined>;
  workers(): readonly Worker[];
  close(): Promise<void>;
}

export function createReaderPool(file: string, size: number, cacheKib?: number): ReaderPool {
  let nextId = 0;
  let closing = false;
  const readers: Reader[] = [];
  /**
   * Issue 26: a worker that dies (an uncaught error, an exit) rejects its pending calls with
   * `DatabaseUnavailableError` (HTTP 503, retry) and is replaced by a fresh one in its slot.
   */
  function startReader(slot: number): Reader {
    const workerData: ReaderWorkerData = { file, cacheKib };
    const worker = startModuleWorker(WORKER_MODULE, { workerData });
    const reader: Reader = { worker, pending: new Map() };
    worker.unref(); // referenced only while a query is in flight
    worker.on('message', (message: ReaderReply) => {
      const pending = reader.pending.get(message.id);
      if (!pending) return;
      reader.pending.delete(message.id);
      if (reader.pending.size === 0) worker.unref();
      if (message.error) {
        pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      } else {
        pending.resolve(message.result);
      }
    });
    let dead = false;
    const die = (cause: unknown) => {
      if (dead) return;
      dead = true;
      for (const p of reader.pending.values()) p.reject(new DatabaseUnavailableError(cause));
      reader.pending.clear();
      if (!closing && readers[slot] === reader) readers[slot] = startReader(slot);
    };
    worker.on('error', die);
    worker.on('exit', (code) => die(new Error(`SQLite read worker exited with code ${code}`)));
    return reader;
  }
  for (let slot = 0; slot < size; slot += 1) readers.push(startReader(slot));

  function send(mode: 'all' | 'get', sql: string, params: readonly SqlValue[]): Promise<unknown> {
    // The least busy reader; ties go to the first, so a quiet server keeps using one thread.
    let reader = readers[0] as Reader;
    for (const r of readers) if (r.pending.size < reader.pending.size) reader = r;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage({ id, mode, sql, params } satisfies ReaderRequest);
    });
  }

  return {
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await send('all', sql, params)) as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await send('get', sql, params)) as T | undefined,
    /** The worker threads now serving (a test kills one and sees it replaced). */
    workers: () => readers.map((r) => r.worker),
    async close() {
      closing = true;
      await Promise.all(readers.map((r) => r.worker.terminate()));
    },
  };
}
