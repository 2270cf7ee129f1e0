import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { randomBase62 } from '../../src/platform/ids.js';

/**
 * Issue #6: several instances start at once on one fresh PostgreSQL database. Their migrations
 * must not collide: one applies everything, the others find nothing to do, none fails.
 */
const adminUrl = inject('postgresAdminUrl');

describe.skipIf(!adminUrl)('concurrent migrations on PostgreSQL', () => {
  it('four processes migrating one fresh database at once: applied once, no error', async () => {
    const name = `vitrine_test_${randomBase62(10).toLowerCase()}`;
    const admin = new pg.Client({ connectionString: adminUrl as string });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl as string);
    url.pathname = `/${name}`;
    const dbs = Array.from({ length: 4 }, () => openPostgres(url.toString(), { poolMax: 2 }));
    try {
      const results = await Promise.all(dbs.map((db) => migrate(db)));
      const applied = results.map((r) => r.applied.length).sort((a, b) => b - a);
      expect(applied.slice(1)).toEqual([0, 0, 0]);
      expect(applied[0]).toBeGreaterThan(0);
      const rows = await dbs[0]?.all<{ version: number }>('SELECT version FROM schema_migrations');
      expect(rows?.length).toBe(applied[0]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
