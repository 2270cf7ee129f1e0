import type { Clock } from '../platform/clock.js';

/**
 * Slows password guessing at `/connect` (SPEC §5.1 item 3): failures are counted per account
 * (environment + email) and per client address. After a few free failures every further one
 * doubles a lockout, up to a ceiling; a success clears the account's count. A quiet window
 * forgets old failures. The address limit is looser (many users can share one NAT address).
 *
 * In memory, per process: with several instances each holds its own counts, so an attacker
 * spreading guesses over N instances gets at most N times the budget (docs/auth.md).
 */
export interface ThrottlePolicy {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this (since the last one) are forgotten. */
  windowMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  baseDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};
export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 20,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

interface Entry {
  failures: number;
  last: number;
}

export interface LoginThrottle {
  /** Milliseconds to wait before another attempt is accepted (0: go ahead). */
  retryAfter(subjects: readonly { key: string; policy: ThrottlePolicy }[]): number;
  failure(subjects: readonly { key: string; policy: ThrottlePolicy }[]): void;
  success(key: string): void;
}

export function createLoginThrottle(clock: Clock, maxEntries = 100_000): LoginThrottle {
  const entries = new Map<string, Entry>();
  const lockout = (entry: Entry, policy: ThrottlePolicy) => {
    const over = entry.failures - policy.freeFailures;
    if (over < 0) return 0;
    return Math.min(policy.baseDelayMs * 2 ** Math.min(over, 30), policy.maxDelayMs);
  };
  const live = (key: string, policy: ThrottlePolicy): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && clock.now() - entry.last > policy.windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    retryAfter(subjects) {
      let wait = 0;
      for (const { key, policy } of subjects) {
        const entry = live(key, policy);
        if (entry) wait = Math.max(wait, entry.last + lockout(entry, policy) - clock.now());
      }
      return Math.max(0, wait);
    },
    failure(subjects) {
      for (const { key, policy } of subjects) {
        const entry = live(key, policy) ?? { failures: 0, last: 0 };
        entry.failures += 1;
        entry.last = clock.now();
        entries.delete(key);
        entries.set(key, entry);
      }
      // Bounded memory under a flood of distinct keys: forget the oldest (Map keeps insertion order).
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    success(key) {
      entries.delete(key);
    },
  };
}
