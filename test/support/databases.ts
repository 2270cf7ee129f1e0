import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database, Dialect } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { openSqlite } from '../../src/db/sqlite.js';
import { randomBase62 } from '../../src/platform/ids.js';

export interface TestDatabase {
  /** The open database (PostgreSQL: `copy()` closes it and opens another: read it again after). */
  readonly db: Database;
  /** Connection URL (PostgreSQL) or file (SQLite), for a second process or connection. */
  location: string;
  /**
   * A copy of the database as it is now, as a backup holds it (SQLite `VACUUM INTO`, PostgreSQL
   * `CREATE DATABASE … TEMPLATE`): a database of its own, its identity included, with its own drop.
   */
  copy(): Promise<TestDatabase>;
  drop(): Promise<void>;
}

/** Backends of the contract suite; PostgreSQL only when the global setup found one. */
export function backends(): { dialect: Dialect; available: boolean }[] {
  return [
    { dialect: 'sqlite', available: true },
    { dialect: 'postgres', available: inject('postgresAdminUrl') !== null },
  ];
}

/** A fresh, migrated database of its own: a temp file, or a PostgreSQL database we create and drop. */
export async function createTestDatabase(
  dialect: Dialect,
  options: { upTo?: number } = {},
): Promise<TestDatabase> {
  // PostgreSQL: a copy of the run's migrated template (test/support/postgres-run.ts), unless the
  // test wants an older version. Migrating it again then only checks that it is up to date.
  const template =
    dialect === 'postgres' && options.upTo === undefined ? inject('postgresRun')?.template : undefined;
  const created = dialect === 'sqlite' ? await sqliteTestDatabase() : await postgresTestDatabase(template);
  // A fresh database has an identity of its own (migration 80), which a copy keeps: a new one.
  if (template) await created.db.run('UPDATE database_identity SET id = gen_random_uuid()::text');
  await migrate(created.db, options);
  return created;
}

/** A temp file; `fill` writes it first (a copy). */
async function sqliteTestDatabase(fill?: (file: string) => Promise<void>): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-test-'));
  const file = path.join(dir, 'vitrine.db');
  await fill?.(file);
  // Reads go through a worker thread, as in `vitrine serve` (SQLITE_READ_WORKERS).
  const db = openSqlite(file, { readWorkers: 1 });
  return {
    db,
    location: file,
    copy: () => sqliteTestDatabase((into) => db.exec(`VACUUM INTO '${into.replaceAll("'", "''")}'`)),
    async drop() {
      await db.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function asAdmin(sql: string): Promise<void> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available for this run');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A database this run creates (empty, or a copy of `template`, one this run created too), named
 * with the run's prefix: the global teardown drops it (`drop()` disconnects).
 */
async function postgresTestDatabase(template?: string): Promise<TestDatabase> {
  const run = inject('postgresRun');
  if (!run) throw new Error('PostgreSQL is not available for this run');
  const name = `${run.prefix}${randomBase62(10).toLowerCase()}`;
  await asAdmin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(inject('postgresAdminUrl') as string);
  url.pathname = `/${name}`;
  const open = () => openPostgres(url.toString(), { poolMax: 5 });
  let db = open();
  return {
    get db() {
      return db;
    },
    location: url.toString(),
    async copy() {
      // A template database must have no other connection while it is copied.
      await db.close();
      try {
        return await postgresTestDatabase(name);
      } finally {
        db = open();
      }
    },
    async drop() {
      // The global teardown drops it, with the run's other databases (dropping one waits for a
      // checkpoint: concurrent drops share theirs).
      await db.close().catch(() => undefined);
    },
  };
}
