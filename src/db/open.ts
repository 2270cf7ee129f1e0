import type { Config } from '../config/config.js';
import type { Database } from './database.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/** The database of a configuration: PostgreSQL at `DATABASE_URL`, else the SQLite file in `DATA_DIR`. */
export function openDatabase(config: Config): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolMax: config.databasePoolMax })
    : openSqlite(config.sqlitePath, {
        readWorkers: config.sqliteReadWorkers,
        readCacheMb: config.sqliteCacheMb,
        writeCacheMb: config.sqliteWriteCacheMb,
      });
}
