import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqlValue } from './database.js';

/**
 * Reads off the event loop (issue #3): better-sqlite3 is synchronous, so a slow search on the
 * main thread stalls every other request. A small pool of worker threads, each with its own
 * read-only connection, runs `all`/`get`; under WAL each sees the latest committed data.
 *
 * The worker is plain CommonJS evaluated from a string, so it runs the same under tsx, vitest
 * and the compiled build; it loads better-sqlite3 from the path this module resolves.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
if (workerData.cacheKib) db.pragma('cache_size = -' + workerData.cacheKib);
const statements = new Map();
parentPort.on('message', ({ id, mode, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 1000) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    const result = mode === 'all' ? statement.all(...params) : statement.get(...params);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

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
  close(): Promise<void>;
}

export function createReaderPool(file: string, size: number, cacheKib?: number): ReaderPool {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let nextId = 0;
  const readers: Reader[] = Array.from({ length: size }, () => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, cacheKib } });
    const reader: Reader = { worker, pending: new Map() };
    worker.unref(); // referenced only while a query is in flight
    worker.on(
      'message',
      (message: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
        const pending = reader.pending.get(message.id);
        if (!pending) return;
        reader.pending.delete(message.id);
        if (reader.pending.size === 0) worker.unref();
        if (message.error) {
          pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        } else {
          pending.resolve(message.result);
        }
      },
    );
    worker.on('error', (error) => {
      for (const p of reader.pending.values()) p.reject(error);
      reader.pending.clear();
    });
    return reader;
  });

  function send(mode: 'all' | 'get', sql: string, params: readonly SqlValue[]): Promise<unknown> {
    // The least busy reader; ties go to the first, so a quiet server keeps using one thread.
    let reader = readers[0] as Reader;
    for (const r of readers) if (r.pending.size < reader.pending.size) reader = r;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage({ id, mode, sql, params });
    });
  }

  return {
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await send('all', sql, params)) as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await send('get', sql, params)) as T | undefined,
    async close() {
      await Promise.all(readers.map((r) => r.worker.terminate()));
    },
  };
}
