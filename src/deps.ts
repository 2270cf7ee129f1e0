import type { Logger } from 'pino';
import { type AccountDeps, createAccountDeps } from './accounts-deps.js';
import { type ApplicationService, createApplicationService } from './applications/service.js';
import { createApplicationStore } from './applications/store.js';
import { type AuditLog, createAuditLog } from './audit/service.js';
import { createAuditStore } from './audit/store.js';
import { createAuthorizationCodeStore } from './auth/authorization-codes.js';
import { createLoginThrottle, LOGIN_UNLOCK_TOPIC, type LoginThrottle } from './auth/login-throttle.js';
import { createTicketIssuer, type TicketIssuer } from './auth/login-ticket.js';
import { createOAuthService, type OAuthService } from './auth/oauth-service.js';
import { createRefreshTokenStore } from './auth/refresh-token-store.js';
import {
  createRevokedFamilies,
  type RevokedFamilies,
  TOKEN_FAMILIES_TOPIC,
} from './auth/revoked-families.js';
import { createSigningKeys, type SigningKeys } from './auth/signing-keys.js';
import { CLOCK_SKEW_SECONDS, createTokenService, type TokenService } from './auth/tokens.js';
import type { Config } from './config/config.js';
import type { ConsoleSearch } from './console/model.js';
import { createOperatorActions, type OperatorActions } from './console/service.js';
import { createConsoleSearch } from './console/store.js';
import type { Database } from './db/database.js';
import { openDatabase } from './db/open.js';
import { createDeveloperService, type DeveloperService } from './developers/service.js';
import { createDeveloperStore } from './developers/store.js';
import { createMetrics, type Metrics } from './health/metrics.js';
import { createHealthProbes, type HealthProbes } from './health/probes.js';
import { authUrls, baseUrls } from './http/urls.js';
import { createKeyService, type KeyService } from './keys/service.js';
import { createKeyStore } from './keys/store.js';
import { createKeyVerifier, type KeyVerifier } from './keys/verifier.js';
import { createMemoryRateLimiter, type RateLimiter } from './limits/rate-limiter.js';
import { createRedisRateLimiter, createSharedRateLimiter } from './limits/redis-rate-limiter.js';
import { createMeService, type MeService } from './me/service.js';
import { createMeStore } from './me/store.js';
import { cursorKeyFrom } from './offers/cursor.js';
import { createOfferImports, type OfferImports } from './offers/import-http.js';
import { indexStartSources } from './offers/index-sources.js';
import { createLiveIndexes, type LiveIndexes, OFFER_CHANGES_TOPIC } from './offers/live-indexes.js';
import { createSearchCache } from './offers/search-cache.js';
import { answerBytes, createOfferService, type OfferService, type SearchAnswer } from './offers/service.js';
import { createOfferStore } from './offers/store-sql.js';
import { createOperatorService, type OperatorService } from './operators/service.js';
import { createOperatorStore } from './operators/store.js';
import { type ChangeBus, createLocalChangeBus, createRedisChangeBus } from './platform/change-bus.js';
import type { Clock } from './platform/clock.js';
import { type Environment, isEnvironment } from './platform/environment.js';
import { connectRedis, type RedisConnection } from './platform/redis.js';
import { createSecretBox, loadMasterSecret } from './platform/secret-box.js';
import { createDeveloperActions, type DeveloperActions } from './portal/service.js';
import { createProjectService, type ProjectService } from './projects/service.js';
import { createProjectStore } from './projects/store.js';
import type { SearchIndex, SearchSchema } from './search/engine.js';
import { createSearchIndex } from './search/index/search-index.js';
import { SEARCH_SETTINGS_TOPIC } from './search-settings/model.js';
import { createSearchSettingsService, type SearchSettingsService } from './search-settings/service.js';
import { createSearchSettingsStore } from './search-settings/store.js';
import { createSessionService, type SessionService } from './sessions/service.js';
import { createSessionStore } from './sessions/store.js';
import { createBusSynonyms, createSynonymStore, type WithSynonyms } from './synonyms/bus.js';
import { createUsageMeter, type UsageMeter } from './usage/meter.js';
import { createUsageService, type UsageService } from './usage/service.js';
import { createUsageStore } from './usage/store.js';
import { createUserService, type UserService } from './users/service.js';
import { createUserStore } from './users/store.js';
import { createPercolatorStore, createWebhookStore, createWebhooks } from './webhooks/webhooks.js';

/** Everything a process needs, built once from config (one composition root, ADR 0023). */
export interface Deps extends AccountDeps, WithSynonyms {
  config: Config;
  clock: Clock;
  logger: Logger;
  db: Database;
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  keyVerifier: KeyVerifier;
  offers: OfferService;
  offerImports: OfferImports; // `POST /v1/offers/import`: NDJSON through the offer service.
  searchIndexes: LiveIndexes; // Issue 12: the in-memory search index per environment (`serve` builds them).
  users: UserService;
  me: MeService; // The end-user API's favorites, saved searches and own offers.
  signingKeys: SigningKeys;
  tokens: TokenService;
  oauth: OAuthService; // The OAuth 2.0 / OpenID Connect door (codes, grants, ID tokens).
  revokedFamilies: RevokedFamilies; // Revoked token families, whose access tokens the bearer guard refuses.
  tickets: Record<Environment, TicketIssuer>;
  loginThrottle: LoginThrottle;
  /** Issue #6: Redis when `REDIS_URL` is set, the change broadcast, limits, metering, metrics. */
  redis: RedisConnection | null;
  changeBus: ChangeBus;
  rateLimiter: RateLimiter | null; // `null` when `RATE_LIMITING=false`.
  usageMeter: UsageMeter | null; // `null` when `USAGE_METERING=false`.
  usage: UsageService;
  metrics: Metrics;
  health: HealthProbes; // What `/readyz` asks: the database, Redis, the search index.
  operators: OperatorService; // Issue 5: the developer portal and the operator console.
  sessions: SessionService;
  applications: ApplicationService;
  audit: AuditLog;
  /** What a developer does in the portal, ownership-checked and audited in one place. */
  developerActions: DeveloperActions;
  /** What an operator does from the console or the CLI, audited in one place. */
  operatorActions: OperatorActions;
  consoleSearch: ConsoleSearch; // The console's paged lists (developers, keys, projects).
  /** Issue 23: declared search attributes per environment (CLI, console, `GET /v1/attributes`). */
  searchSettings: SearchSettingsService;
  webhooks: ReturnType<typeof createWebhooks>;
  close(): Promise<void>;
}
/** Topic of `changeBus` on which key changes (revocation, plan) are announced; message: the key hash. */
export const KEY_CHANGES_TOPIC = 'api_keys';

/**
 * How often a process checks the `token_families` counter (on demand, at most this often): a
 * revoked family's access tokens end within 1 s even when the change bus is down.
 */
export const REVOKED_FAMILIES_CHECK_MS = 500;

export function createDeps(
  config: Config,
  options: {
    clock: Clock;
    logger: Logger;
    db?: Database;
    masterSecret?: Buffer;
    /** The search engine's index factory (issue 12; default: src/search's). */
    createSearchIndex?: (schema: SearchSchema) => SearchIndex;
    /** With a database handed in (tests): keep search-index snapshots anyway (ADR 0024). */
    searchSnapshots?: boolean;
  },
): Deps {
  const { clock, logger } = options;
  const db = options.db ?? openDatabase(config);
  const masterSecret = options.masterSecret ?? loadMasterSecret(config.masterSecret, config.dataDir);
  const revokedFamilies = createRevokedFamilies({ db, clock, checkMs: REVOKED_FAMILIES_CHECK_MS });
  const refreshTokenStore = createRefreshTokenStore(db, {
    denylistMs: config.accessTokenTtlMs + CLOCK_SKEW_SECONDS * 1000,
    // Runs after the revocation committed; `changeBus` exists by then (it is built below).
    onFamiliesRevoked: async () => {
      revokedFamilies.markStale();
      await changeBus.publish(TOKEN_FAMILIES_TOPIC, 'revoked');
    },
  });
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
    revokedFamilies,
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
  const oauth = createOAuthService({
    clock,
    codes: createAuthorizationCodeStore(db),
    tokens,
    refreshTokens: refreshTokenStore,
    users: userStore,
    signingKeys,
    authUrls: auth,
  });
  const tickets = {
    production: createTicketIssuer(masterSecret, clock, `${auth.production}/connect`),
    testing: createTicketIssuer(masterSecret, clock, `${auth.testing}/connect`),
  };
  const developers = createDeveloperService({ store: createDeveloperStore(db), clock });
  const projectStore = createProjectStore(db);
  const projects = createProjectService({ store: projectStore, developers, clock });
  const keyStore = createKeyStore(db);
  const audit = createAuditLog({ store: createAuditStore(db), clock });
  const offerStore = createOfferStore(db);
  const searchRules = () => ({ synonyms, schemas: searchSettingsStore }); // alerts' rules, as searches' (built below)
  const wh = { store: createWebhookStore(db), percolatorStore: createPercolatorStore(db), searchRules };
  const webhooks = createWebhooks({ ...wh, offerStore, db, clock, logger, audit, config, masterSecret });
  const { recordEvent } = webhooks.service;
  const keyVerifier = createKeyVerifier({
    store: keyStore,
    clock,
    refreshMs: config.keyCacheRefreshMs,
    onError: (error) => logger.warn({ err: error }, 'API key cache refresh failed'),
  });
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, { prefix: config.redisKeyPrefix, logger })
    : null;
  const changeBus = redis
    ? createRedisChangeBus(redis, logger)
    : createLocalChangeBus({ onError: (error) => logger.error({ err: error }, 'change handler failed') });
  // Other processes' changes arrive here at once; the change-counter poll stays the fallback.
  changeBus.subscribe(KEY_CHANGES_TOPIC, (idOrHash) => {
    keyVerifier.evict(idOrHash); // a key id: every cached secret of it (issue 26)
    // A publishable key's origins may have changed (issue 16: CORS answers from memory).
    keyVerifier
      .reloadOrigins()
      .catch((error) => logger.warn({ err: error }, 'allowed origins reload failed'));
  });
  changeBus.subscribe(TOKEN_FAMILIES_TOPIC, () => revokedFamilies.markStale());
  // Issue 13: sign-in counts live in each process; an unlock (console, CLI) reaches them all.
  const loginThrottle = createLoginThrottle(clock);
  changeBus.subscribe(LOGIN_UNLOCK_TOPIC, (account) => {
    loginThrottle.unlock(account);
  });
  const keys = createKeyService({
    store: keyStore,
    projects: projectStore,
    clock,
    refreshTokens: refreshTokenStore,
    recordEvent,
    fixedFilterProblem: (...filters) => searchSettings.fixedFilterProblem(...filters), // issue 23
    onKeyChanged: async (key) => {
      for (const ref of [key.id, key.keyHash]) keyVerifier.evict(ref);
      await keyVerifier.reloadOrigins();
      for (const ref of [key.id, key.keyHash]) await changeBus.publish(KEY_CHANGES_TOPIC, ref);
    },
  });
  const users = createUserService({ store: userStore, refreshTokens: refreshTokenStore, clock });
  const searchSettingsStore = createSearchSettingsStore(db);
  // Issue 12: the search indexes are built by `serve` only (CLI commands write and announce).
  const searchIndexes = createLiveIndexes({
    store: offerStore,
    createIndex: options.createSearchIndex ?? ((schema) => createSearchIndex({}, schema)),
    schemas: searchSettingsStore, // issue 23: a change of the declarations re-indexes (ADR 0029)
    logger,
    // The queries' clock: warmed for another `now`, the first query would rebuild the expiry set.
    now: () => clock.now(),
    // ADR 0022 and 0024: the start-up read in a worker, snapshots on disk (not for tests' databases).
    ...indexStartSources(config, db, logger, {
      db: Boolean(options.db),
      snapshots: Boolean(options.searchSnapshots),
    }),
  });
  changeBus.subscribe(SEARCH_SETTINGS_TOPIC, (e) => void (isEnvironment(e) && searchIndexes.checkSchema(e)));
  changeBus.subscribe(OFFER_CHANGES_TOPIC, (environment) => {
    if (isEnvironment(environment)) void searchIndexes.catchUp(environment);
    webhooks.offersWritten(); // this process's writes as well: the bus delivers them here too
  });
  const synonyms = createBusSynonyms({ store: createSynonymStore(db), audit, clock, changeBus });
  const searchCache = createSearchCache<SearchAnswer>(config.searchCacheMb * 1024 * 1024, answerBytes);
  const offers = createOfferService({
    store: offerStore,
    clock,
    cursorKey: cursorKeyFrom(masterSecret),
    indexes: searchIndexes,
    synonyms,
    // Off (SEARCH_CACHE_MB=0): no key built, no answer measured, nothing counted.
    cache: config.searchCacheMb > 0 ? searchCache : undefined,
    onWritten: async (environment) => {
      await searchIndexes.catchUp(environment);
      await changeBus.publish(OFFER_CHANGES_TOPIC, environment);
    },
  });
  const usageStore = createUsageStore(db);
  const usageMeter = config.usageMetering
    ? createUsageMeter({
        store: usageStore,
        clock,
        flushMs: config.usageFlushMs,
        onError: (error) => {
          metrics.usageFlushFailures.inc();
          logger.warn({ err: error }, 'usage counters not written; kept for the next flush');
        },
      })
    : null;
  const metrics = createMetrics({
    db,
    keyVerifier,
    redisState: () => redis?.state ?? 'not_configured',
    usagePending: () => usageMeter?.pending ?? 0,
    searchCache: () => searchCache.stats(),
  });
  webhooks.registerMetrics(metrics.registry);
  const local = createMemoryRateLimiter(clock);
  const rateLimiter = !config.rateLimiting
    ? null
    : redis
      ? createSharedRateLimiter({
          redis,
          shared: createRedisRateLimiter(redis, clock),
          local,
          clock,
          onFallback: () => metrics.rateLimitLocalFallbacks.inc(),
        })
      : local;
  const operators = createOperatorService({ store: createOperatorStore(db), clock });
  const sessions = createSessionService({
    store: createSessionStore(db),
    clock,
    idleMs: config.portalSessionIdleMs,
    absoluteMs: config.portalSessionMaxMs,
  });
  const applications = createApplicationService({
    store: createApplicationStore(db),
    keys,
    box: createSecretBox(masterSecret, 'api-key-reveal'),
    clock,
    autoApproveTesting: config.autoApproveTesting,
    recordEvent,
  });
  const searchSettings = createSearchSettingsService({
    store: searchSettingsStore,
    audit,
    clock,
    announce: (environment) => {
      void searchIndexes.checkSchema(environment); // in the background: the old index serves meanwhile
      return changeBus.publish(SEARCH_SETTINGS_TOPIC, environment);
    },
  });
  const usage = createUsageService({ store: usageStore, clock });
  const developerActions = createDeveloperActions({ developers, projects, keys, applications, usage, audit });
  const operatorActions = createOperatorActions({
    applications,
    keys,
    audit,
    operators,
    developers,
    sessions,
    projects,
    loginThrottle,
    announceUnlock: (account) => changeBus.publish(LOGIN_UNLOCK_TOPIC, account),
  });
  const accounts = createAccountDeps(
    config,
    { db, clock, logger, masterSecret },
    { developers, operators, users, sessions, audit },
  );
  return {
    ...accounts,
    config,
    clock,
    logger,
    db,
    developers,
    projects,
    keys,
    keyVerifier,
    offers,
    me: createMeService({ store: createMeStore(db), offers, clock, sessions: refreshTokenStore }),
    offerImports: createOfferImports({ offers, db, limits: config, recordEvent }),
    searchIndexes,
    users,
    signingKeys,
    tokens,
    oauth,
    revokedFamilies,
    tickets,
    loginThrottle,
    redis,
    changeBus,
    rateLimiter,
    usageMeter,
    usage,
    metrics,
    health: createHealthProbes({
      db,
      redisState: () => redis?.state ?? 'not_configured',
      searchReady: () => searchIndexes.ready(),
    }),
    operators,
    sessions,
    applications,
    audit,
    operatorActions,
    searchSettings,
    developerActions,
    consoleSearch: createConsoleSearch(db),
    synonyms,
    webhooks,
    async close() {
      // Usage first, while the database is still open; a failure is logged, not fatal.
      await accounts.mailer.stop();
      await usageMeter
        ?.stop()
        .catch((error) => logger.error({ err: error }, 'usage counters lost on shutdown'));
      await keyVerifier.stop();
      // Before the database closes: a snapshot behind the database is written (ADR 0024).
      await searchIndexes.close();
      await changeBus.close();
      await redis?.close();
      await db.close();
    },
  };
}
