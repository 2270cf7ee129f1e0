import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { extractApiKey } from '../http/credentials.js';
import { ProblemError } from '../http/errors.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Environment } from '../platform/environment.js';
import type { KeyRecord } from './model.js';
import { DEFAULT_ROUTE_SCOPE, hasScope, type Scope, scopeRefusal } from './scopes.js';
import type { KeyVerifier, VerifyFailure, VerifyResult } from './verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified API key of this request; set by the API-key guard. */
    apiKey: KeyRecord | null;
  }
  interface FastifyContextConfig {
    /** The scope the route needs (issue 16); a guarded route without one needs `api`. */
    apiKeyScope?: Scope;
  }
}

/**
 * Scope and origin (issue 16): throws `api_key_scope` when the route needs a scope the
 * key lacks, and `origin_not_allowed` when a publishable key is used from an origin it does not
 * list. Requests without `Origin` (servers, curl) are not checked for origin: a browser always
 * sends it on cross-origin requests, which is what the check is for.
 */
function checkScopeAndOrigin(request: FastifyRequest, key: KeyRecord): void {
  const scope = request.routeOptions.config.apiKeyScope ?? DEFAULT_ROUTE_SCOPE;
  if (!hasScope(key, scope)) throw new ProblemError('api_key_scope', scopeRefusal(key, scope));
  if (key.kind !== 'publishable') return;
  const origin = request.headers.origin;
  if (origin !== undefined && !key.allowedOrigins.includes(origin)) {
    throw new ProblemError(
      'origin_not_allowed',
      `This publishable key may not be used from ${origin.slice(0, 200)}; it allows ${key.allowedOrigins.join(', ')}.`,
    );
  }
}

/** The problem answering a refused key. */
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
  /** Rate limits; absent, nothing is limited. */
  limits?: RequestLimits,
): onRequestHookHandler {
  const accept = (request: FastifyRequest, reply: FastifyReply, result: VerifyResult) => {
    if (!result.ok) throw refusal(result, baseUrls);
    request.apiKey = result.key;
    checkScopeAndOrigin(request, result.key);
    return limits?.takeForKey(result.key, reply, request);
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
