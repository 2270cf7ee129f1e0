import type { Clock } from '../platform/clock.js';
import type { RedisConnection } from '../platform/redis.js';
import type { Decision, Plan, RateLimiter } from './rate-limiter.js';

/**
 * `gcra.ts` in Lua, so that read, decide and write happen atomically in Redis and every instance
 * shares one bucket per key. The time is the caller's (`Clock`), so instances need synchronised
 * clocks (NTP); a skew of a few ms only shifts when a token becomes available by that much.
 * The TAT is stored with microsecond precision and expires when the bucket would be full anyway.
 */
const GCRA_LUA = `
local tat = tonumber(redis.call('GET', KEYS[1])) or 0
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local interval = period / limit
local base = math.max(tat, now)
local newTat = base + interval
local allowAt = newTat - period
if now < allowAt then
  return {0, 0, math.ceil(base - now), math.ceil(allowAt - now)}
end
if ARGV[4] ~= '1' then
  redis.call('SET', KEYS[1], string.format('%.3f', newTat), 'PX', math.ceil(newTat - now) + 1000)
end
return {1, math.max(0, math.floor((now - allowAt) / interval)), math.ceil(newTat - now), 0}
`;

type GcraCommand = (
  key: string,
  now: number,
  limit: number,
  periodMs: number,
  dryRun: string,
) => Promise<[number, number, number, number]>;

/** Fails (rejects) whenever Redis does; `createSharedRateLimiter` turns that into a fallback. */
export function createRedisRateLimiter(redis: RedisConnection, clock: Clock): RateLimiter {
  redis.client.defineCommand('vitrineGcra', { numberOfKeys: 1, lua: GCRA_LUA });
  const command = (redis.client as unknown as { vitrineGcra: GcraCommand }).vitrineGcra.bind(redis.client);
  return {
    async take(bucket, plan: Plan, options = {}): Promise<Decision> {
      const [allowed, remaining, resetMs, retryAfterMs] = await command(
        `${redis.prefix}rl:${bucket}`,
        clock.now(),
        plan.limit,
        plan.periodMs,
        options.dryRun ? '1' : '0',
      );
      return { allowed: allowed === 1, limit: plan.limit, remaining, resetMs, retryAfterMs };
    },
  };
}

/**
 * Redis when it answers, this instance's memory when it does not (keeps answering;
 * each instance then enforces the plan on its own). Switches back as soon as Redis is ready.
 */
export function createSharedRateLimiter(deps: {
  redis: RedisConnection;
  shared: RateLimiter;
  local: RateLimiter;
  clock: Clock;
  onFallback?: (error: unknown) => void;
  /** After a failed call, how long to use local counters without asking Redis (ms). */
  backoffMs?: number;
}): RateLimiter {
  const backoffMs = deps.backoffMs ?? 1000;
  // A Redis that hangs (rather than refusing connections) would make every request wait for
  // the command timeout; after one failure, requests skip Redis for `backoffMs`.
  let skipUntil = Number.NEGATIVE_INFINITY;
  return {
    async take(bucket, plan, options) {
      if (deps.redis.state !== 'ready' || deps.clock.now() < skipUntil) {
        return deps.local.take(bucket, plan, options);
      }
      try {
        return await deps.shared.take(bucket, plan, options);
      } catch (error) {
        skipUntil = deps.clock.now() + backoffMs;
        deps.onFallback?.(error);
        return deps.local.take(bucket, plan, options);
      }
    },
  };
}
