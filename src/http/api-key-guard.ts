import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { KeyRecord } from '../keys/store.js';
import type { KeyVerifier, VerifyFailure, VerifyResult } from '../keys/verifier.js';
import type { Environment } from '../platform/environment.js';
import { ProblemError } from './errors.js';
import type { RequestLimits } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified API key of this request; set by the API-key guard. */
    apiKey: KeyRecord | null;
  }
}

/** The key from the `X-Api-Key` header or the `apiKey` query parameter (SPEC §3). */
export function extractApiKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  const fromHeader = typeof header === 'string' && header !== '' ? header : null;
  const raw = (request.query as Record<string, unknown> | undefined)?.apiKey;
  const values = (Array.isArray(raw) ? raw : [raw]).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  const distinct = new Set(fromHeader ? [fromHeader, ...values] : values);
  if (distinct.size > 1) {
    throw new ProblemError(
      'api_key_conflict',
      'Different API keys were sent (X-Api-Key header and apiKey query parameter, or apiKey repeated). Send one key, preferably in the header.',
    );
  }
  return [...distinct][0] ?? null;
}

/** The problem answering a refused key (SPEC §3, §7). */
function refusal(result: VerifyFailure, baseUrls: Record<Environment, string>): ProblemError {
  switch (result.code) {
    case 'api_key_invalid':
      return new ProblemError(
        'api_key_invalid',
        result.reason === 'unknown'
          ? 'This API key is not known.'
          : 'This is not a well-formed Vitrine API key (wrong format or checksum; was it truncated or mistyped?).',
      );
    case 'api_key_revoked':
      return new ProblemError('api_key_revoked', 'This API key has been revoked.');
    case 'api_key_expired':
      return new ProblemError('api_key_expired', 'This API key has expired.');
    case 'api_key_wrong_environment':
      return new ProblemError(
        'api_key_wrong_environment',
        `This API key belongs to the ${result.keyEnvironment} environment; use it with ${baseUrls[result.keyEnvironment]}.`,
      );
  }
}

/**
 * onRequest hook for every search-API route: runs before parameter validation, so a caller
 * without a valid key learns nothing about the endpoint's parameters.
 *
 * A callback-style hook, synchronous while every answer is in memory (a cached key, the
 * in-memory limiter): the common request allocates no promise here (issue #3). A key the cache
 * does not hold, or Redis-backed limits, continue asynchronously with the same checks.
 */
export function apiKeyGuard(
  verifier: KeyVerifier,
  environment: Environment,
  baseUrls: Record<Environment, string>,
  /** Rate limits (SPEC §8); absent, nothing is limited. */
  limits?: RequestLimits,
): onRequestHookHandler {
  const accept = (request: FastifyRequest, reply: FastifyReply, result: VerifyResult) => {
    if (!result.ok) throw refusal(result, baseUrls);
    request.apiKey = result.key;
    return limits?.takeForKey(result.key, reply);
  };
  /** Throws a ProblemError, or returns a promise of one step that could not be decided at once. */
  const check = (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const raw = extractApiKey(request);
    if (raw === null) {
      throw new ProblemError('api_key_missing', 'Send your API key in the X-Api-Key header.');
    }
    const result = verifier.verify(raw, environment);
    if (result instanceof Promise) return result.then((r) => accept(request, reply, r));
    return accept(request, reply, result);
  };
  /** A bad or missing key spends the client address's failure budget (slows key guessing). */
  const failed = (request: FastifyRequest, error: unknown, done: HookHandlerDoneFunction) => {
    if (limits && error instanceof ProblemError && request.apiKey === null) {
      limits.addressFailed(request).then(
        () => done(error),
        (refused: Error) => done(refused),
      );
    } else {
      done(error as Error);
    }
  };
  // No closure is created per request on the synchronous path: only the rare asynchronous
  // continuations (an uncached key, Redis limits, a suspect address) allocate.
  const run = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let pending: Promise<void> | undefined;
    try {
      pending = check(request, reply);
    } catch (error) {
      failed(request, error, done);
      return;
    }
    if (pending) {
      pending.then(
        () => done(),
        (error: unknown) => failed(request, error, done),
      );
    } else {
      done();
    }
  };
  return function apiKeyGuardHook(request, reply, done) {
    const addressCheck = limits?.checkAddress(request);
    if (addressCheck) {
      addressCheck.then(
        () => run(request, reply, done),
        (refused: Error) => done(refused),
      );
    } else {
      run(request, reply, done);
    }
  };
}
