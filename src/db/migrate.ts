import type { Database } from './database.js';
import type { Migration } from './migration.js';
import { postgresMigrations } from './migrations/postgres.js';
import { sqliteMigrations } from './migrations/sqlite.js';

export interface MigrationResult {
  applied: Migration[];
  current: number;
}

// Any constant will do; it only has to be the same in every Vitrine process.
const POSTGRES_MIGRATION_LOCK = 7_469_026_821;

/**
 * Applies pending migrations in one transaction, holding a lock so two instances starting at
 * once cannot both apply them (PostgreSQL: an advisory lock; SQLite: the write lock taken by
 * BEGIN IMMEDIATE). A database newer than this build is refused rather than used.
 */
export async function migrate(db: Database, options: { upTo?: number } = {}): Promise<MigrationResult> {
  // `upTo` stops at an older version: upgrade tests build old data, then migrate the rest.
  const migrations = (db.dialect === 'sqlite' ? sqliteMigrations : postgresMigrations).filter(
    (m) => options.upTo === undefined || m.version <= options.upTo,
  );
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?)', [POSTGRES_MIGRATION_LOCK]);
    // Under the lock: two concurrent CREATE TABLE IF NOT EXISTS collide on PostgreSQL
    // (duplicate key in pg_type), as the concurrent-migration test showed.
    await tx.run(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${
        db.dialect === 'sqlite' ? 'INTEGER' : 'BIGINT'
      } NOT NULL)`,
    );
    const rows = await tx.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    const done = new Set(rows.map((r) => Number(r.version)));
    const latest = Math.max(0, ...migrations.map((m) => m.version));
    const newest = Math.max(0, ...done);
    if (newest > latest) {
      throw new Error(
        `database schema is at version ${newest}, newer than this build (${latest}); upgrade Vitrine`,
      );
    }
    const applied: Migration[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      applied.push(migration);
    }
    return { applied, current: latest };
  });
}

/** Statements are separated by `;` at the end of a line; our migrations keep to that. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
