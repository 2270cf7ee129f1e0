import type { Logger } from 'pino';
import { createLoginThrottle, type LoginThrottle } from './auth/login-throttle.js';
import { createTicketIssuer, type TicketIssuer } from './auth/login-ticket.js';
import { createRefreshTokenStore } from './auth/refresh-token-store.js';
import { createSigningKeys, type SigningKeys } from './auth/signing-keys.js';
import { CLOCK_SKEW_SECONDS, createTokenService, type TokenService } from './auth/tokens.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { openPostgres } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import { createDeveloperService, type DeveloperService } from './developers/service.js';
import { createDeveloperStore } from './developers/store.js';
import { authUrls, baseUrls } from './http/urls.js';
import { createKeyService, type KeyService } from './keys/service.js';
import { createKeyStore, type KeyStore } from './keys/store.js';
import { createKeyVerifier, type KeyVerifier } from './keys/verifier.js';
import { createOfferService, type OfferService } from './offers/service.js';
import { createOfferStore } from './offers/store-sql.js';
import type { Clock } from './platform/clock.js';
import type { Environment } from './platform/environment.js';
import { createSecretBox, loadMasterSecret } from './platform/secret-box.js';
import { createProjectService, type ProjectService } from './projects/service.js';
import { createProjectStore } from './projects/store.js';
import { createUserService, type UserService } from './users/service.js';
import { createUserStore } from './users/store.js';

/** Everything a process needs, built once from config (STYLE: one composition root). */
export interface Deps {
  config: Config;
  clock: Clock;
  logger: Logger;
  db: Database;
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  keyStore: KeyStore;
  keyVerifier: KeyVerifier;
  offers: OfferService;
  users: UserService;
  signingKeys: SigningKeys;
  tokens: TokenService;
  tickets: Record<Environment, TicketIssuer>;
  loginThrottle: LoginThrottle;
  close(): Promise<void>;
}

export function openDatabase(config: Config): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolMax: config.databasePoolMax })
    : openSqlite(config.sqlitePath);
}

export function createDeps(
  config: Config,
  options: { clock: Clock; logger: Logger; db?: Database; masterSecret?: Buffer },
): Deps {
  const { clock, logger } = options;
  const db = options.db ?? openDatabase(config);
  const masterSecret = options.masterSecret ?? loadMasterSecret(config.masterSecret, config.dataDir);
  const refreshTokenStore = createRefreshTokenStore(db);
  const userStore = createUserStore(db);
  const signingKeys = createSigningKeys({
    db,
    clock,
    box: createSecretBox(masterSecret, 'signing-keys'),
    accessTokenTtlMs: config.accessTokenTtlMs,
    clockSkewMs: CLOCK_SKEW_SECONDS * 1000,
  });
  const tokens = createTokenService({
    clock,
    signingKeys,
    refreshTokens: refreshTokenStore,
    users: userStore,
    settings: {
      accessTokenTtlMs: config.accessTokenTtlMs,
      refreshTokenTtlMs: config.refreshTokenTtlMs,
      rotation: config.refreshTokenRotation === 'on',
      reuseGraceMs: config.refreshTokenReuseGraceMs,
      authUrls: authUrls(config),
      baseUrls: baseUrls(config),
    },
  });
  const auth = authUrls(config);
  const tickets = {
    production: createTicketIssuer(masterSecret, clock, `${auth.production}/connect`),
    testing: createTicketIssuer(masterSecret, clock, `${auth.testing}/connect`),
  };
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
    refreshTokens: refreshTokenStore,
    onKeyChanged: (hash) => keyVerifier.evict(hash),
  });
  const users = createUserService({ store: userStore, refreshTokens: refreshTokenStore, clock });
  const offers = createOfferService({ store: createOfferStore(db), clock });
  return {
    config,
    clock,
    logger,
    db,
    developers,
    projects,
    keys,
    keyStore,
    keyVerifier,
    offers,
    users,
    signingKeys,
    tokens,
    tickets,
    loginThrottle: createLoginThrottle(clock),
    async close() {
      await keyVerifier.stop();
      await db.close();
    },
  };
}
