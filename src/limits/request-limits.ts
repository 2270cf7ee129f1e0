import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { ProblemError } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { Decision, Plan, RateLimiter } from './rate-limiter.js';

/** What limits need of an API key (keys/model.ts LimitedKey has it): limits import no capability. */
export interface LimitedKey {
  id: string;
  environment: Environment;
  kind: 'secret' | 'publishable';
  rateLimitRps: number | null;
}

/**
 * The rate limits as the API-key guard applies them: a budget per key (its own plan
 * or its environment's default) and, against key guessing, a budget of failed requests (missing
 * or bad key) per client address.
 */
export interface RequestLimits {
  /**
   * Before a key is verified: refuses an address that has spent its budget of failures.
   * Returns null (no promise to await on the hot path) when the address has not failed lately.
   */
  checkAddress(request: FastifyRequest): Promise<void> | null;
  /** After a failed verification: spends one failure; throws `rate_limited` past the budget. */
  addressFailed(request: FastifyRequest): Promise<void>;
  /**
   * After a successful verification: spends one request of the key, sets the RateLimit headers.
   * Returns undefined (decided synchronously) with the in-memory limiter, a promise with Redis.
   * A publishable key also spends a budget per client address (`request` gives the address),
   * so one visitor cannot exhaust the key's plan (issue 16).
   */
  takeForKey(key: LimitedKey, reply: FastifyReply, request?: FastifyRequest): Promise<void> | undefined;
}

export function keyPlan(config: Config, key: LimitedKey): Plan {
  const fallback = key.environment === 'production' ? config.rateLimitProduction : config.rateLimitTesting;
  return { limit: key.rateLimitRps ?? fallback, periodMs: 1000 };
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/** `RateLimit-*` fields (draft-ietf-httpapi-ratelimit-headers): limit, remaining now, seconds to full. */
export function rateLimitHeaders(decision: Decision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(seconds(decision.resetMs)),
  };
}

export function createRequestLimits(deps: {
  limiter: RateLimiter;
  config: Config;
  clock: Clock;
  environment: Environment;
  onRejected?: (kind: 'key' | 'address') => void;
}): RequestLimits {
  const { limiter, config, clock } = deps;
  const addressPlan: Plan = { limit: config.rateLimitAuthFailures, periodMs: 60_000 };
  // Addresses that failed recently, and until when to check them. Only those pay a limiter
  // call before verification; a client that never fails costs one Map lookup.
  const suspects = new Map<string, number>();

  const bucketOf = (request: FastifyRequest) =>
    `addr:${createHash('sha256').update(request.ip).digest('base64url').slice(0, 22)}`;

  const refuse = (kind: 'key' | 'address', decision: Decision, detail: string) => {
    deps.onRejected?.(kind);
    return new ProblemError('rate_limited', detail, {
      headers: {
        ...(kind === 'key' ? rateLimitHeaders(decision) : {}),
        'retry-after': String(Math.max(1, seconds(decision.retryAfterMs))),
      },
    });
  };
  /** Sets the RateLimit headers of an allowed request, or throws 429 (no closure per request). */
  const applyKeyDecision = (decision: Decision, plan: Plan, reply: FastifyReply): void => {
    if (!decision.allowed) {
      throw refuse(
        'key',
        decision,
        `This key allows ${plan.limit} requests per second (bursts of up to ${plan.limit}). Retry after ${Math.max(1, seconds(decision.retryAfterMs))} s.`,
      );
    }
    reply.header('ratelimit-limit', decision.limit);
    reply.header('ratelimit-remaining', decision.remaining);
    reply.header('ratelimit-reset', seconds(decision.resetMs));
  };
  const publishablePlan: Plan = { limit: config.rateLimitPublishableAddress, periodMs: 1000 };
  const applyVisitorDecision = (decision: Decision): void => {
    if (!decision.allowed) {
      throw refuse(
        'key',
        decision,
        `A publishable key allows ${publishablePlan.limit} requests per second from one client address. Retry after ${Math.max(1, seconds(decision.retryAfterMs))} s.`,
      );
    }
  };
  const takeKey = (key: LimitedKey, reply: FastifyReply): Promise<void> | undefined => {
    const plan = keyPlan(config, key);
    const decision = limiter.take(`key:${key.id}`, plan);
    if (decision instanceof Promise) return decision.then((d) => applyKeyDecision(d, plan, reply));
    applyKeyDecision(decision, plan, reply);
    return undefined;
  };
  const addressDetail =
    'Too many requests with a missing or invalid API key from your address. Wait for Retry-After seconds.';

  return {
    checkAddress(request) {
      if (suspects.size === 0) return null;
      const bucket = bucketOf(request);
      const until = suspects.get(bucket);
      if (until === undefined) return null;
      if (until <= clock.now()) {
        suspects.delete(bucket);
        return null;
      }
      return Promise.resolve(limiter.take(bucket, addressPlan, { dryRun: true })).then((decision) => {
        if (!decision.allowed) throw refuse('address', decision, addressDetail);
      });
    },
    async addressFailed(request) {
      const bucket = bucketOf(request);
      if (suspects.size >= 100_000) suspects.clear(); // a flood of addresses: start over
      suspects.delete(bucket);
      suspects.set(bucket, clock.now() + addressPlan.periodMs);
      const decision = await limiter.take(bucket, addressPlan);
      if (!decision.allowed) throw refuse('address', decision, addressDetail);
    },
    takeForKey(key, reply, request) {
      if (key.kind === 'publishable' && request) {
        // The visitor's own budget first: a visitor over it does not spend the key's.
        const visitor = limiter.take(`pub:${key.id}:${bucketOf(request)}`, publishablePlan);
        if (visitor instanceof Promise) {
          return visitor.then((d) => {
            applyVisitorDecision(d);
            return takeKey(key, reply);
          });
        }
        applyVisitorDecision(visitor);
      }
      return takeKey(key, reply);
    },
  };
}
