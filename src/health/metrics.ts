import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { SearchCacheStats } from '../offers/search-cache.js';
import type { RedisState } from '../platform/redis.js';
import { VERSION } from '../platform/version.js';

/**
 * What `/metrics` shows (Prometheus text format). One registry per process, built by
 * `createDeps` (no module-level singleton: prom-client's global registry is not used).
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'env' | 'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'env' | 'method' | 'route' | 'status'>;
  readonly rateLimitRejections: Counter<'env' | 'kind'>;
  /** Decisions made with local counters because Redis did not answer. */
  readonly rateLimitLocalFallbacks: Counter;
  readonly usageFlushFailures: Counter;
}

export function createMetrics(sources: {
  db: Database;
  keyVerifier: KeyVerifier;
  redisState: () => RedisState;
  usagePending: () => number;
  searchCache?: () => SearchCacheStats;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitrine_' });
  const httpRequests = new Counter({
    name: 'vitrine_http_requests_total',
    help: 'HTTP requests answered, by environment, method, route pattern and status.',
    labelNames: ['env', 'method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'vitrine_http_request_duration_seconds',
    help: 'Time from request received to response sent.',
    labelNames: ['env', 'method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rateLimitRejections = new Counter({
    name: 'vitrine_rate_limit_rejections_total',
    help: 'Requests refused with 429: kind=key (over the key plan) or address (too many bad-key requests).',
    labelNames: ['env', 'kind'] as const,
    registers: [registry],
  });
  const rateLimitLocalFallbacks = new Counter({
    name: 'vitrine_rate_limit_local_fallbacks_total',
    help: 'Rate-limit decisions taken with per-instance counters because a Redis call failed.',
    registers: [registry],
  });
  const usageFlushFailures = new Counter({
    name: 'vitrine_usage_flush_failures_total',
    help: 'Usage-counter flushes that failed (counts are kept for the next flush).',
    registers: [registry],
  });
  const seen = { hits: 0, misses: 0 };
  new Counter({
    name: 'vitrine_key_cache_lookups_total',
    help: 'API-key cache lookups: result=hit (no database read) or miss.',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const { hits, misses } = sources.keyVerifier.stats;
      this.inc({ result: 'hit' }, hits - seen.hits);
      this.inc({ result: 'miss' }, misses - seen.misses);
      seen.hits = hits;
      seen.misses = misses;
    },
  });
  const searchSeen = { hits: 0, misses: 0 };
  new Counter({
    name: 'vitrine_search_cache_lookups_total',
    help: 'Search-answer cache lookups (ADR 0025): result=hit (answered from memory, still exact) or miss.',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const stats = sources.searchCache?.();
      if (!stats) return;
      this.inc({ result: 'hit' }, stats.hits - searchSeen.hits);
      this.inc({ result: 'miss' }, stats.misses - searchSeen.misses);
      searchSeen.hits = stats.hits;
      searchSeen.misses = stats.misses;
    },
  });
  let declinedSeen = 0;
  new Counter({
    name: 'vitrine_search_cache_declined_total',
    help: 'Search answers not kept in the cache: the first computation of their query (ADR 0050).',
    registers: [registry],
    collect() {
      const stats = sources.searchCache?.();
      if (!stats) return;
      this.inc(stats.declined - declinedSeen);
      declinedSeen = stats.declined;
    },
  });
  new Gauge({
    name: 'vitrine_search_cache_bytes',
    help: 'Estimated memory held by cached search answers (SEARCH_CACHE_MB bounds it).',
    registers: [registry],
    collect() {
      const stats = sources.searchCache?.();
      if (stats) this.set(stats.bytes);
    },
  });
  new Gauge({
    name: 'vitrine_build_info',
    help: 'Always 1; the labels say which Vitrine and which Node.js this process runs.',
    labelNames: ['version', 'node_version'] as const,
    registers: [registry],
    collect() {
      this.set({ version: VERSION, node_version: process.versions.node }, 1);
    },
  });
  new Gauge({
    name: 'vitrine_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting = queued requests). Absent on SQLite.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  // Issue 13: absent without REDIS_URL (a gauge that is never set still reads 0, which would
  // page whoever alerts on `vitrine_redis_up == 0`).
  if (sources.redisState() !== 'not_configured') {
    new Gauge({
      name: 'vitrine_redis_up',
      help: '1 when Redis answers (shared limits and broadcasts), 0 when this instance runs on its own; absent without REDIS_URL.',
      registers: [registry],
      collect() {
        this.set(sources.redisState() === 'ready' ? 1 : 0);
      },
    });
  }
  new Gauge({
    name: 'vitrine_usage_pending_requests',
    help: 'Requests counted in memory and not yet written to the usage table.',
    registers: [registry],
    collect() {
      this.set(sources.usagePending());
    },
  });
  return {
    registry,
    httpRequests,
    httpDuration,
    rateLimitRejections,
    rateLimitLocalFallbacks,
    usageFlushFailures,
  };
}
