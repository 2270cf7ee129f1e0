import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { openPostgres } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import { createDeveloperService, type DeveloperService } from './developers/service.js';
import { createDeveloperStore } from './developers/store.js';
import { createKeyService, type KeyService } from './keys/service.js';
import { createKeyStore } from './keys/store.js';
import { createKeyVerifier, type KeyVerifier } from './keys/verifier.js';
import { createOfferService, type OfferService } from './offers/service.js';
import { createOfferStore } from './offers/store-sql.js';
import type { Clock } from './platform/clock.js';
import { createProjectService, type ProjectService } from './projects/service.js';
import { createProjectStore } from './projects/store.js';

/** Everything a process needs, built once from config (STYLE: one composition root). */
export interface Deps {
  config: Config;
  clock: Clock;
  logger: Logger;
  db: Database;
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  keyVerifier: KeyVerifier;
  offers: OfferService;
  close(): Promise<void>;
}

export function openDatabase(config: Config): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolMax: config.databasePoolMax })
    : openSqlite(config.sqlitePath, { readWorkers: config.sqliteReadWorkers });
}

export function createDeps(config: Config, options: { clock: Clock; logger: Logger; db?: Database }): Deps {
  const { clock, logger } = options;
  const db = options.db ?? openDatabase(config);
  const developers = createDeveloperService({ store: createDeveloperStore(db), clock });
  const projectStore = createProjectStore(db);
  const projects = createProjectService({ store: projectStore, developers, clock });
  const keyStore = createKeyStore(db);
  const keyVerifier = createKeyVerifier({
    store: keyStore,
    clock,
    refreshMs: config.keyCacheRefreshMs,
    onError: (error) => logger.warn({ err: error }, 'API key cache refresh failed'),
  });
  const keys = createKeyService({
    store: keyStore,
    projects: projectStore,
    clock,
    onKeyChanged: (hash) => keyVerifier.evict(hash),
  });
  const offers = createOfferService({ store: createOfferStore(db), clock });
  return {
    config,
    clock,
    logger,
    db,
    developers,
    projects,
    keys,
    keyVerifier,
    offers,
    async close() {
      await keyVerifier.stop();
      await db.close();
    },
  };
}
