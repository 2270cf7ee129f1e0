import type { Config } from '../config/config.js';
import type { Database } from './database.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/** The configured database: PostgreSQL with `DATABASE_URL`, else the embedded SQLite file. */
export function openDatabase(config: Config): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolMax: config.databasePoolMax })
    : openSqlite(config.sqlitePath, {
        readWorkers: config.sqliteReadWorkers,
        readCacheMb: config.sqliteCacheMb,
      });
}
