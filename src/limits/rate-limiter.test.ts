import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { redisUrl, testRedisPrefix } from '../../test/support/redis.js';
import { ManualClock } from '../platform/clock.js';
import { connectRedis, type RedisConnection } from '../platform/redis.js';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.js';
import { createRedisRateLimiter, createSharedRateLimiter } from './redis-rate-limiter.js';

/** One table, run on the in-memory limiter and on the Redis (Lua) one: the two must agree. */
const url = redisUrl();
const redisPrefix = url ? testRedisPrefix(url) : null;
const connections: RedisConnection[] = [];
const silent = pino({ level: 'silent' });

async function redisLimiter(clock: ManualClock): Promise<RateLimiter> {
  if (!url || !redisPrefix) throw new Error('no Redis');
  const redis = connectRedis(url, { prefix: redisPrefix.prefix, logger: silent });
  connections.push(redis);
  await redis.whenReady(2000);
  return createRedisRateLimiter(redis, clock);
}

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await redisPrefix?.cleanup();
});

const variants = [
  { name: 'memory', available: true, make: async (clock: ManualClock) => createMemoryRateLimiter(clock) },
  { name: 'redis', available: url !== null, make: redisLimiter },
];

for (const variant of variants) {
  describe.skipIf(!variant.available)(`rate limiter (${variant.name})`, () => {
    const plan = { limit: 10, periodMs: 1000 };
    let n = 0;
    const bucket = () => {
      n += 1;
      return `key:test_${variant.name}_${n}`;
    };

    it('allows a burst of the whole plan, then refuses with the time to the next token', async () => {
      const clock = new ManualClock();
      const limiter = await variant.make(clock);
      const b = bucket();
      const remaining: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const d = await limiter.take(b, plan);
        expect(d.allowed).toBe(true);
        remaining.push(d.remaining);
      }
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      const refused = await limiter.take(b, plan);
      expect(refused).toEqual({ allowed: false, limit: 10, remaining: 0, resetMs: 1000, retryAfterMs: 100 });
    });

    it('refills one token per interval and is full again after one period', async () => {
      const clock = new ManualClock();
      const limiter = await variant.make(clock);
      const b = bucket();
      for (let i = 0; i < 10; i += 1) await limiter.take(b, plan);
      clock.advance(99);
      expect((await limiter.take(b, plan)).allowed).toBe(false);
      clock.advance(1);
      expect(await limiter.take(b, plan)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await limiter.take(b, plan)).allowed).toBe(false);
      clock.advance(1000);
      expect(await limiter.take(b, plan)).toMatchObject({ allowed: true, remaining: 9, resetMs: 100 });
    });

    it('counts refused requests as nothing, and a dry run takes no token', async () => {
      const clock = new ManualClock();
      const limiter = await variant.make(clock);
      const b = bucket();
      for (let i = 0; i < 20; i += 1) await limiter.take(b, { limit: 2, periodMs: 1000 });
      clock.advance(500);
      expect(await limiter.take(b, { limit: 2, periodMs: 1000 }, { dryRun: true })).toMatchObject({
        allowed: true,
        remaining: 0,
      });
      expect((await limiter.take(b, { limit: 2, periodMs: 1000 })).allowed).toBe(true);
      expect((await limiter.take(b, { limit: 2, periodMs: 1000 })).allowed).toBe(false);
    });

    it('keeps buckets apart', async () => {
      const clock = new ManualClock();
      const limiter = await variant.make(clock);
      const [a, b] = [bucket(), bucket()];
      expect((await limiter.take(a, { limit: 1, periodMs: 1000 })).allowed).toBe(true);
      expect((await limiter.take(a, { limit: 1, periodMs: 1000 })).allowed).toBe(false);
      expect((await limiter.take(b, { limit: 1, periodMs: 1000 })).allowed).toBe(true);
    });

    it('handles plans whose interval is not a whole number of ms (3 per second)', async () => {
      const clock = new ManualClock();
      const limiter = await variant.make(clock);
      const b = bucket();
      const p = { limit: 3, periodMs: 1000 };
      for (let i = 0; i < 3; i += 1) expect((await limiter.take(b, p)).allowed).toBe(true);
      const refused = await limiter.take(b, p);
      expect(refused.retryAfterMs).toBe(334);
      clock.advance(334);
      expect((await limiter.take(b, p)).allowed).toBe(true);
    });
  });
}

describe('shared rate limiter', () => {
  it('falls back to the local limiter while Redis is unreachable', async () => {
    const clock = new ManualClock();
    // Nothing listens on port 1: the connection is down from the start.
    const redis = connectRedis('redis://127.0.0.1:1', { prefix: 'unused:', logger: silent });
    let fallbacks = 0;
    const limiter = createSharedRateLimiter({
      redis,
      shared: createRedisRateLimiter(redis, clock),
      local: createMemoryRateLimiter(clock),
      clock,
      onFallback: () => {
        fallbacks += 1;
      },
    });
    try {
      expect((await limiter.take('key:x', { limit: 1, periodMs: 1000 })).allowed).toBe(true);
      expect((await limiter.take('key:x', { limit: 1, periodMs: 1000 })).allowed).toBe(false);
      expect(redis.state).not.toBe('ready');
      expect(fallbacks).toBe(0); // not even tried: the connection is known to be down
    } finally {
      await redis.close();
    }
  });
});

describe('shared rate limiter with a failing Redis call', () => {
  it('uses local counters after a failure, and asks Redis again once the back-off has passed', async () => {
    const clock = new ManualClock();
    let calls = 0;
    let failing = true;
    const shared: RateLimiter = {
      async take() {
        calls += 1;
        if (failing) throw new Error('Command timed out');
        return { allowed: true, limit: 1, remaining: 0, resetMs: 1000, retryAfterMs: 0 };
      },
    };
    const redis = { state: 'ready' } as RedisConnection;
    const limiter = createSharedRateLimiter({ redis, shared, local: createMemoryRateLimiter(clock), clock });
    const plan = { limit: 5, periodMs: 1000 };
    for (let i = 0; i < 3; i += 1) expect((await limiter.take('key:y', plan)).allowed).toBe(true);
    expect(calls).toBe(1);
    failing = false;
    clock.advance(1000);
    await limiter.take('key:y', plan);
    expect(calls).toBe(2);
  });
});
