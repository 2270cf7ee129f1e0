import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { randomBase62 } from '../../src/platform/ids.js';

/**
 * Issue 26: the PostgreSQL databases of one test run. Migrating a database costs about a second
 * of round trips, and dropping one waits for a checkpoint (about as long), so the global setup
 * migrates one template per run, every test database is a copy of it (`CREATE DATABASE …
 * TEMPLATE`, a file copy), and a test file's `drop()` only disconnects: the global teardown drops
 * every database of the run at once (concurrent drops share their checkpoints). The names carry
 * the run's own prefix, so the teardown drops what this run created and nothing else (the server is
 * shared with other engineers' runs), including what a crashed test file left behind.
 */
export interface PostgresRun {
  /** Every database of this run is named `${prefix}…`. */
  prefix: string;
  /** A database migrated to the latest version, to copy (no connection stays open on it). */
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's PostgreSQL names, or null (no PostgreSQL). */
    postgresRun: PostgresRun | null;
  }
}

/** How many databases the teardown drops at once. */
const DROP_CONCURRENCY = 8;

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates and migrates the run's template; `finish()` drops every database of the run. */
export async function preparePostgresRun(
  adminUrl: string,
): Promise<{ run: PostgresRun; finish(): Promise<void> }> {
  const prefix = `vitrine_test_${randomBase62(8).toLowerCase()}_`;
  const template = `${prefix}template`;
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${template}`));
  const db = openPostgres(databaseUrl(adminUrl, template), { poolMax: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return {
    run: { prefix, template },
    async finish() {
      const started = performance.now();
      const names = await asAdmin(adminUrl, async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
          [prefix],
        );
        return rows.map((r) => r.datname);
      });
      const queue = [...names];
      await Promise.all(
        Array.from({ length: Math.min(DROP_CONCURRENCY, queue.length) }, () =>
          asAdmin(adminUrl, async (client) => {
            for (let name = queue.shift(); name; name = queue.shift()) {
              await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            }
          }),
        ),
      );
      // VITRINE_TEST_TIMINGS=1: how many databases the run made, and the time their drop took.
      if (process.env.VITRINE_TEST_TIMINGS === '1') {
        process.stderr.write(
          `dropped ${names.length} test databases in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        );
      }
    },
  };
}
