import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { openPostgres } from './db/postgres.js';
import { openSqlite } from './db/sqlite.js';
import { createDeveloperService, type DeveloperService } from './developers/service.js';
import { createDeveloperStore } from './developers/store.js';
import { createMetrics, type Metrics } from './health/metrics.js';
import { createKeyService, type KeyService } from './keys/service.js';
import { createKeyStore } from './keys/store.js';
import { createKeyVerifier, type KeyVerifier } from './keys/verifier.js';
import { createMemoryRateLimiter, type RateLimiter } from './limits/rate-limiter.js';
import { createRedisRateLimiter, createSharedRateLimiter } from './limits/redis-rate-limiter.js';
import { createOfferService, type OfferService } from './offers/service.js';
import { createOfferStore } from './offers/store-sql.js';
import { type ChangeBus, createLocalChangeBus, createRedisChangeBus } from './platform/change-bus.js';
import type { Clock } from './platform/clock.js';
import { connectRedis, type RedisConnection } from './platform/redis.js';
import { createProjectService, type ProjectService } from './projects/service.js';
import { createProjectStore } from './projects/store.js';
import { createUsageMeter, type UsageMeter } from './usage/meter.js';
import { createUsageService, type UsageService } from './usage/service.js';
import { createUsageStore } from './usage/store.js';

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
  /** Issue #6: Redis when `REDIS_URL` is set, the change broadcast, limits, metering, metrics. */
  redis: RedisConnection | null;
  changeBus: ChangeBus;
  /** `null` when `RATE_LIMITING=false`. */
  rateLimiter: RateLimiter | null;
  /** `null` when `USAGE_METERING=false`. */
  usageMeter: UsageMeter | null;
  usage: UsageService;
  metrics: Metrics;
  close(): Promise<void>;
}

/** Topic of `changeBus` on which key changes (revocation, plan) are announced; message: the key hash. */
export const KEY_CHANGES_TOPIC = 'api_keys';

export function openDatabase(config: Config): Database {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolMax: config.databasePoolMax })
    : openSqlite(config.sqlitePath);
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
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, { prefix: config.redisKeyPrefix, logger })
    : null;
  const changeBus = redis
    ? createRedisChangeBus(redis, logger)
    : createLocalChangeBus({ onError: (error) => logger.error({ err: error }, 'change handler failed') });
  // Other processes' changes arrive here at once; the change-counter poll stays the fallback.
  changeBus.subscribe(KEY_CHANGES_TOPIC, (hash) => keyVerifier.evict(hash));
  const keys = createKeyService({
    store: keyStore,
    projects: projectStore,
    clock,
    onKeyChanged: async (hash) => {
      keyVerifier.evict(hash);
      await changeBus.publish(KEY_CHANGES_TOPIC, hash);
    },
  });
  const offers = createOfferService({ store: createOfferStore(db), clock });
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
  });
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
    redis,
    changeBus,
    rateLimiter,
    usageMeter,
    usage: createUsageService({ store: usageStore, clock }),
    metrics,
    async close() {
      // Usage first, while the database is still open; a failure is logged, not fatal.
      await usageMeter
        ?.stop()
        .catch((error) => logger.error({ err: error }, 'usage counters lost on shutdown'));
      await keyVerifier.stop();
      await changeBus.close();
      await redis?.close();
      await db.close();
    },
  };
}
