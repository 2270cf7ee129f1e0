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
  db: Database;
  /** Connection URL (PostgreSQL) or file (SQLite), for a second process or connection. */
  location: string;
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
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-test-'));
    const file = path.join(dir, 'vitrine.db');
    // Reads go through a worker thread, as in `vitrine serve` (SQLITE_READ_WORKERS).
    const db = openSqlite(file, { readWorkers: 1 });
    await migrate(db, options);
    return {
      db,
      location: file,
      async drop() {
        await db.close().catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available for this run');
  const name = `vitrine_test_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), { poolMax: 5 });
  await migrate(db, options);
  return {
    db,
    location: url.toString(),
    async drop() {
      await db.close().catch(() => undefined);
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      // Only the database this run created, never anything else.
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
