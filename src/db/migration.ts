/**
 * One schema step, per dialect (migrations/sqlite.ts, migrations/postgres.ts). In a module of its
 * own so the migration lists and the runner (migrate.ts) do not import each other (issue 14).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
