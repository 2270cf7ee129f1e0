import { createHash } from 'node:crypto';
import pg from 'pg';
import { boundedCache, STATEMENT_CACHE_SIZE } from './bounded-cache.js';
import { type Database, DatabaseUnavailableError, type Queryable, type SqlValue } from './database.js';

// BIGINT (epoch milliseconds, counts) as numbers: every value we store fits in 2^53.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connection-level failures: the server is down or restarting, not a bad query. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') {
    const message = (error as Error | null)?.message ?? '';
    return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|encountered a connection error|not queryable/i.test(
      message,
    );
  }
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03'].includes(
      code,
    ) || code.startsWith('08')
  );
}

/** `?` → `$1, $2, …`; our SQL never holds a literal question mark. */
const numbered = boundedCache(STATEMENT_CACHE_SIZE, (sql) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
});
const toPg = (sql: string): string => numbered.get(sql);

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isConnectionError(error) ? new DatabaseUnavailableError(error) : error;
  }
}

/**
 * Reads by key run as prepared statements, named after their text: each connection parses and
 * plans one once, then only binds and executes it (20 rows by id at 1M: 0.26 against 0.44 ms
 * p50). Their texts are a handful of fixed strings (ids travel as one array); past
 * PREPARED_NAMES distinct texts a read goes unnamed, so a text built per call cannot grow every
 * connection's statements without bound.
 */
const PREPARED_NAMES = 64;
const preparedNames = new Map<string, string>();
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < PREPARED_NAMES) {
    name = `vk_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/** `getByKey` and `allByKeys` on the pool: prepared, see preparedName. */
function keyReads(pool: pg.Pool) {
  const query = (sql: string, params: readonly SqlValue[] = []) => {
    const text = toPg(sql);
    return guarded(() => pool.query({ name: preparedName(text), text, values: [...params], types }));
  };
  return {
    getByKey: async <T>(sql: string, params?: readonly SqlValue[]) =>
      (await query(sql, params)).rows[0] as T | undefined,
    allByKeys: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows as T[],
  };
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  const query = (sql: string, params: readonly SqlValue[] = []) =>
    guarded(() => client.query({ text: toPg(sql), values: [...params], types }));
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly SqlValue[]) =>
      (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rowCount ?? 0,
  };
}

export function openPostgres(url: string, options: { poolMax: number }): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // No JIT compilation: PostgreSQL compiles any query its planner costs above jit_above_cost,
    // which a search over 1M offers often is, and spent 70–90 ms compiling each one here: more
    // than the query itself. JIT pays for long analytical queries, not for a search API.
    options: '-c jit=off',
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const base = queryable(pool);
  const safeUrl = new URL(url);
  safeUrl.password = safeUrl.password ? '***' : '';

  return {
    ...base,
    ...keyReads(pool),
    description: safeUrl.toString(),
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>) => {
      const client = await guarded(() => pool.connect());
      // Issue 26: the pool listens for errors on idle clients only; a checked-out client whose
      // connection drops between two queries emits 'error' too, which with no listener ends the
      // process. Listen while it is ours, and hand a broken client back as broken (destroyed).
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      try {
        await guarded(() => client.query('BEGIN'));
        const value = await fn(queryable(client));
        if (broken) throw new DatabaseUnavailableError(broken);
        await guarded(() => client.query('COMMIT'));
        return value;
      } catch (error) {
        if (error instanceof DatabaseUnavailableError) broken ??= error;
        if (!broken) await client.query('ROLLBACK').catch((rollback: Error) => onError(rollback));
        // Whatever failed, a transaction whose connection broke is lost: retry it later.
        throw broken && !(error instanceof DatabaseUnavailableError)
          ? new DatabaseUnavailableError(error)
          : error;
      } finally {
        client.off('error', onError);
        // release(error) destroys the client instead of returning it to the pool.
        client.release(broken);
      }
    },
    exec: async (sql) => {
      await guarded(() => pool.query(sql));
    },
    ping: async () => {
      await guarded(() => pool.query('SELECT 1'));
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
