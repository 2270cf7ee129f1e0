import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { BULK_WRITE_CACHE_MB } from '../config/bulk-writes.js';
import { boundedCache, STATEMENT_CACHE_SIZE } from './bounded-cache.js';
import type { Database, Queryable, SqlValue } from './database.js';
import { createReaderPool } from './sqlite-readers.js';

type Connection = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<unknown[]>;

/**
 * SQLite adapter on better-sqlite3. Two connections: writes and transactions go through one
 * connection, serialised by a promise lock (a transaction spans awaits, and nothing else may
 * slip into it); plain reads use a second connection, which under WAL only ever sees committed
 * data and never waits for a writer.
 */
export function openSqlite(
  file: string,
  options: { readWorkers?: number; readCacheMb?: number; writeCacheMb?: number } = {},
): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const writer = connect(file, false);
  // The writer's page cache (KiB, negative by convention; SQLite's default is 2 MiB): the bulk
  // size unless told (serve's is SQLITE_WRITE_CACHE_MB: a filled cache is kept, ADR 0044).
  writer.pragma(`cache_size = -${(options.writeCacheMb ?? BULK_WRITE_CACHE_MB) * 1024}`);
  // Planner statistics: without them SQLite may walk a whole index on `environment` instead of
  // starting from the text index (10× slower searches). Cheap when they are fresh
  // (analysis_limit); refreshed again on close and after bulk writes (seed, import).
  writer.pragma('optimize=0x10002');
  const reader = connect(file, true);
  // A page cache per read connection (SQLite's default is 2 MiB); in KiB, negative by convention.
  const cacheKib = options.readCacheMb ? options.readCacheMb * 1024 : undefined;
  if (cacheKib) reader.pragma(`cache_size = -${cacheKib}`);
  // With read workers, plain reads leave the event loop (sqlite-readers.ts); else the reader.
  const pool = options.readWorkers ? createReaderPool(file, options.readWorkers, cacheKib) : null;
  let lock: Promise<unknown> = Promise.resolve();

  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = lock.then(fn, fn);
    lock = result.catch(() => undefined);
    return result;
  }

  const mainThreadReads = queryable(reader);
  const readSide = pool ?? mainThreadReads;
  const writeSide = queryable(writer);

  return {
    dialect: 'sqlite',
    description: `sqlite:${file}`,
    all: readSide.all,
    get: readSide.get,
    getByKey: mainThreadReads.get,
    allByKeys: mainThreadReads.all,
    allInline: mainThreadReads.all,
    run: (sql, params) => exclusive(() => writeSide.run(sql, params)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      exclusive(async () => {
        // IMMEDIATE takes the write lock up front, so a concurrent writer (another process,
        // such as the CLI) waits on busy_timeout instead of failing half-way through.
        writer.exec('BEGIN IMMEDIATE');
        try {
          const value = await fn(writeSide);
          writer.exec('COMMIT');
          return value;
        } catch (error) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw error;
        }
      }),
    exec: (sql) =>
      exclusive(async () => {
        writer.exec(sql);
      }),
    ping: async () => {
      reader.prepare('SELECT 1').get();
    },
    close: async () => {
      await lock;
      await pool?.close();
      writer.pragma('optimize');
      reader.close();
      writer.close();
    },
  };
}

function connect(file: string, readonly: boolean): Connection {
  // The reader is opened read-only, so a write sent through `get`/`all` by mistake fails loudly
  // instead of slipping past the writer's lock. The writer is opened first and creates the file.
  const db = new BetterSqlite3(file, { readonly });
  db.pragma('busy_timeout = 5000');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before it is acknowledged, also under WAL (durability over speed).
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  return db;
}

function queryable(db: Connection): Omit<Queryable, 'dialect'> & { dialect: 'sqlite' } {
  const statements = boundedCache<Statement>(STATEMENT_CACHE_SIZE, (sql) => db.prepare(sql));
  const prepare = (sql: string): Statement => statements.get(sql);
  return {
    dialect: 'sqlite',
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => prepare(sql).all(...params) as T[],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).get(...params) as T | undefined,
    run: async (sql: string, params: readonly SqlValue[] = []) => prepare(sql).run(...params).changes,
  };
}
