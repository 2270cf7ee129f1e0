import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { boundedCache, STATEMENT_CACHE_SIZE } from './bounded-cache.js';
import type { SqlValue } from './database.js';

/**
 * One SQLite read worker (sqlite-readers.ts starts a pool of them): its own read-only connection,
 * answering `all` and `get` requests from the main thread. Under WAL it sees every committed write.
 */
export interface ReaderWorkerData {
  file: string;
  /** Page cache of this connection (SQLITE_CACHE_MB), KiB. */
  cacheKib?: number;
}

export interface ReaderRequest {
  id: number;
  mode: 'all' | 'get';
  sql: string;
  params: readonly SqlValue[];
}

export interface ReaderReply {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

const port = parentPort;
if (!port) throw new Error('sqlite-reader-worker runs in a worker thread (sqlite-readers.ts starts it)');
const { file, cacheKib } = workerData as ReaderWorkerData;
const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
if (cacheKib) db.pragma(`cache_size = -${cacheKib}`);
const statements = boundedCache(STATEMENT_CACHE_SIZE, (sql) => db.prepare(sql));

port.on('message', ({ id, mode, sql, params }: ReaderRequest) => {
  let reply: ReaderReply;
  try {
    const statement = statements.get(sql);
    reply = { id, result: mode === 'all' ? statement.all(...params) : statement.get(...params) };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    reply = { id, error: { message: String(message), code: typeof code === 'string' ? code : undefined } };
  }
  port.postMessage(reply);
});
