/**
 * The storage port every capability's store is written against. Two adapters implement it:
 * `sqlite.ts` (the embedded default) and `postgres.ts`. SQL is written with `?` placeholders;
 * the PostgreSQL adapter numbers them. Where the dialects truly differ (full-text search,
 * upserts) a store branches on `dialect` in one named place.
 */
export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | null;

export interface Queryable {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a write; resolves to the number of rows changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface Database extends Queryable {
  /**
   * One row by primary key or unique index, nothing else (never a count, scan or search). On
   * SQLite it runs on the event loop's own read connection: a unique-index read takes a few
   * microseconds, less than a round trip to a read worker (issue #3). On PostgreSQL it is a
   * prepared statement, named after its text (a fixed text: see postgres.ts `preparedName`).
   */
  getByKey<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /**
   * A bounded list of rows by primary key (a search page: at most a few hundred ids), nothing
   * else. On SQLite it runs on the event loop's own read connection, like `getByKey`: a page of
   * 20 rows by key takes tens of microseconds, a round trip to a read worker about a millisecond
   * at p50 and five at p99 on a busy 2-core machine (issue 12). On PostgreSQL it is a prepared
   * statement (as `getByKey`): pass a fixed text, with a list of keys as one array parameter.
   */
  allByKeys<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Optional: a bulk read on the event loop's own connection (SQLite), for the search index's
   * start-up read: its pages of thousands of rows would otherwise be copied out of a read worker
   * (structured clone), which costs the main thread more than reading them itself. Absent: `all`.
   */
  allInline?<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs `fn` in one transaction: all of its writes land, or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  /** Resolves when the database answers a trivial query; used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Connection-pool figures for `/metrics`; absent on SQLite (no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** A human-readable location without credentials, for logs and the start banner. */
  readonly description: string;
}

/** The database could not be reached; HTTP answers `503 unavailable`. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('database unavailable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
