import type { Clock } from '../platform/clock.js';

/**
 * Slows password guessing at `/connect` : failures are counted per account
 * (environment + email) and per client address. After a few free failures every further one
 * doubles a lockout, up to a ceiling; a success clears the account's count. A quiet window
 * forgets old failures. The address limit is looser (many users can share one NAT address).
 *
 * Issue 13: a lockout an attacker cannot aim (Keycloak/Auth0 style). Failures are counted per
 * account *and address pair* (the tight limit: guessing one account from one place), per
 * address (one place guessing many accounts), and per account from everywhere with a much
 * larger allowance (a guess spread over many addresses). When that account-wide cap is hit,
 * an address the account signed in from successfully before (its known-good addresses, kept
 * 30 days) still gets to try the right password: an attacker elsewhere cannot lock the
 * operator out. `unlock` (console and CLI) clears an account's counts at once.
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

/** Account-wide, from every address: generous, since legitimate users never get near it. */
export const ACCOUNT_CAP_POLICY: ThrottlePolicy = {
  freeFailures: 50,
  baseDelayMs: 60_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 60 * 60_000,
};
/** How long an address stays known-good for an account after a successful sign-in. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;
const KNOWN_ADDRESSES_PER_ACCOUNT = 10;

export interface ThrottleSubject {
  key: string;
  policy: ThrottlePolicy;
  /** The account-wide cap: does not hold back an address this account signed in from before. */
  exemptFor?: { account: string; address: string };
}

/**
 * What a sign-in attempt counts against: the (account, address) pair, the address, and the
 * account as a whole. `account` names the account within its area (`connect:testing:a@b.c`,
 * `console:op@example.com`); `address` is `request.ip`.
 */
export function loginSubjects(account: string, address: string): ThrottleSubject[] {
  return [
    { key: `pair:${account}|${address}`, policy: ACCOUNT_POLICY },
    { key: `address:${address}`, policy: ADDRESS_POLICY },
    { key: `account:${account}`, policy: ACCOUNT_CAP_POLICY, exemptFor: { account, address } },
  ];
}

/** The throttle's name of an end-user account (`/auth/connect`). */
export const connectAccount = (environment: string, email: string) =>
  `connect:${environment}:${email.trim().toLowerCase().slice(0, 254)}`;
/** The throttle's name of a portal developer or console operator account. */
export const areaAccount = (area: string, email: string) =>
  `${area}:${email.trim().toLowerCase().slice(0, 254)}`;

/** Topic of the change bus on which unlocks reach every instance; message: the account name. */
export const LOGIN_UNLOCK_TOPIC = 'login_unlock';

/**
 * The throttle's account name for an unlock request (console form, CLI): `kind` is
 * `connect:production`, `connect:testing`, `portal` or `console`. `null` when either is unusable.
 */
export function unlockAccount(kind: string, email: string): string | null {
  const normalised = email.trim().toLowerCase();
  if (!normalised.includes('@') || normalised.length > 254) return null;
  if (kind === 'connect:production' || kind === 'connect:testing') {
    return connectAccount(kind.slice('connect:'.length), normalised);
  }
  if (kind === 'portal' || kind === 'console') return areaAccount(kind, normalised);
  return null;
}

interface Entry {
  failures: number;
  last: number;
}

export interface LoginThrottle {
  /** Milliseconds to wait before another attempt is accepted (0: go ahead). */
  retryAfter(subjects: readonly ThrottleSubject[]): number;
  failure(subjects: readonly ThrottleSubject[]): void;
  /**
   * A right password: clears the pair and the account's counts and remembers the address as
   * known-good for the account. A bare key (the older call) clears that one count.
   */
  success(subjects: string | readonly ThrottleSubject[]): void;
  /** Clears every count of an account (`loginSubjects`' `account`): the operator's unlock. */
  unlock(account: string): boolean;
}

export function createLoginThrottle(clock: Clock, maxEntries = 100_000): LoginThrottle {
  const entries = new Map<string, Entry>();
  /** account → address → last successful sign-in (ms). */
  const known = new Map<string, Map<string, number>>();
  const isKnown = (account: string, address: string) => {
    const at = known.get(account)?.get(address);
    return at !== undefined && clock.now() - at <= KNOWN_ADDRESS_MS;
  };
  const remember = (account: string, address: string) => {
    const addresses = known.get(account) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, clock.now());
    while (addresses.size > KNOWN_ADDRESSES_PER_ACCOUNT) {
      const oldest = addresses.keys().next().value;
      if (oldest === undefined) break;
      addresses.delete(oldest);
    }
    known.delete(account);
    known.set(account, addresses);
    while (known.size > maxEntries) {
      const oldest = known.keys().next().value;
      if (oldest === undefined) break;
      known.delete(oldest);
    }
  };
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
      for (const { key, policy, exemptFor } of subjects) {
        if (exemptFor && isKnown(exemptFor.account, exemptFor.address)) continue;
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
    success(subjects) {
      if (typeof subjects === 'string') {
        entries.delete(subjects);
        return;
      }
      for (const { key, exemptFor } of subjects) {
        if (key.startsWith('address:')) continue; // one good password does not clear an address's guessing
        entries.delete(key);
        if (exemptFor) remember(exemptFor.account, exemptFor.address);
      }
    },
    unlock(account) {
      let found = false;
      // Issue 27: the second step of the same account (`2fa:<account>`) is unlocked with it.
      for (const name of [account, `2fa:${account}`]) {
        for (const key of [...entries.keys()]) {
          if (key === `account:${name}` || key.startsWith(`pair:${name}|`)) {
            entries.delete(key);
            found = true;
          }
        }
      }
      return found;
    },
  };
}
