import type { Clock } from '../platform/clock.js';
import { type Decision, gcra, type Plan } from './gcra.js';

export type { Decision, Plan } from './gcra.js';

/**
 * The rate-limit port: one bucket per name (`key:<keyId>`, `addr:<hash>`). Bucket names never
 * hold a secret: key ids and hashed addresses only.
 */
export interface RateLimiter {
  /**
   * Takes one token from `bucket` if it has one; `dryRun` only looks. The in-memory limiter
   * decides synchronously (no promise on the hot path, issue #3); Redis answers with a promise.
   */
  take(bucket: string, plan: Plan, options?: { dryRun?: boolean }): Decision | Promise<Decision>;
}

/** Buckets in this process's memory: the single-instance limiter, and the fallback when Redis is down. */
export function createMemoryRateLimiter(clock: Clock, options: { maxBuckets?: number } = {}): RateLimiter {
  const maxBuckets = options.maxBuckets ?? 100_000;
  const tats = new Map<string, number>();

  function prune(now: number): void {
    // A bucket whose TAT has passed is full again: forgetting it changes nothing.
    for (const [name, tat] of tats) if (tat <= now) tats.delete(name);
    // Still too many (a flood of distinct addresses): drop the first inserted.
    while (tats.size >= maxBuckets) {
      const oldest = tats.keys().next();
      if (oldest.done) break;
      tats.delete(oldest.value);
    }
  }

  return {
    take(bucket, plan, options = {}) {
      const now = clock.now();
      const step = gcra(tats.get(bucket) ?? 0, now, plan, options.dryRun);
      if (step.nextTat !== null) {
        if (tats.size >= maxBuckets && !tats.has(bucket)) prune(now);
        tats.set(bucket, step.nextTat);
      }
      return step.decision;
    },
  };
}
