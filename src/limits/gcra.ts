/**
 * The generic cell rate algorithm (GCRA), a token bucket stored as one number: the theoretical
 * arrival time (TAT) of the next request. A plan allows `limit` requests per `periodMs`, all of
 * them at once as a burst; after that one request per `periodMs / limit`. The same arithmetic
 * runs in memory (this file) and in Redis (`redis-rate-limiter.ts`, a Lua port of it), and one
 * test table checks both.
 */
export interface Plan {
  /** Requests per period, and the largest burst. */
  limit: number;
  periodMs: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed right now, after this one. */
  remaining: number;
  /** Milliseconds until the bucket is full again (`RateLimit-Reset`). */
  resetMs: number;
  /** Milliseconds until one more request is allowed; 0 when allowed. */
  retryAfterMs: number;
}

export interface GcraStep {
  decision: Decision;
  /** The TAT to store; `null` when nothing changes (refused, or a dry run). */
  nextTat: number | null;
}

/**
 * One request at `now` against a bucket whose stored TAT is `tat` (0 for a new bucket).
 * `dryRun` answers whether a request would pass without taking a token.
 */
export function gcra(tat: number, now: number, plan: Plan, dryRun = false): GcraStep {
  const interval = plan.periodMs / plan.limit;
  const burstWindow = plan.periodMs; // limit × interval
  const base = Math.max(tat, now);
  const newTat = base + interval;
  const allowAt = newTat - burstWindow;
  if (now < allowAt) {
    return {
      decision: {
        allowed: false,
        limit: plan.limit,
        remaining: 0,
        resetMs: Math.ceil(base - now),
        retryAfterMs: Math.ceil(allowAt - now),
      },
      nextTat: null,
    };
  }
  return {
    decision: {
      allowed: true,
      limit: plan.limit,
      remaining: Math.max(0, Math.floor((now - allowAt) / interval)),
      resetMs: Math.ceil(newTat - now),
      retryAfterMs: 0,
    },
    nextTat: dryRun ? null : newTat,
  };
}
