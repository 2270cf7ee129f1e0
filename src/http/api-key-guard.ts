import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyRecord } from '../keys/store.js';
import type { KeyVerifier } from '../keys/verifier.js';
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

/**
 * onRequest hook for every search-API route: runs before parameter validation, so a caller
 * without a valid key learns nothing about the endpoint's parameters.
 */
export function apiKeyGuard(
  verifier: KeyVerifier,
  environment: Environment,
  baseUrls: Record<Environment, string>,
  /** Rate limits (SPEC §8); absent, nothing is limited. */
  limits?: RequestLimits,
) {
  const check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const raw = extractApiKey(request);
    if (raw === null) {
      throw new ProblemError('api_key_missing', 'Send your API key in the X-Api-Key header.');
    }
    const result = await verifier.verify(raw, environment);
    if (result.ok) {
      request.apiKey = result.key;
      await limits?.takeForKey(result.key, reply);
      return;
    }
    switch (result.code) {
      case 'api_key_invalid':
        throw new ProblemError(
          'api_key_invalid',
          result.reason === 'unknown'
            ? 'This API key is not known.'
            : 'This is not a well-formed Vitrine API key (wrong format or checksum; was it truncated or mistyped?).',
        );
      case 'api_key_revoked':
        throw new ProblemError('api_key_revoked', 'This API key has been revoked.');
      case 'api_key_expired':
        throw new ProblemError('api_key_expired', 'This API key has expired.');
      case 'api_key_wrong_environment':
        throw new ProblemError(
          'api_key_wrong_environment',
          `This API key belongs to the ${result.keyEnvironment} environment; use it with ${baseUrls[result.keyEnvironment]}.`,
        );
    }
  };
  if (!limits) return check;
  // A bad or missing key spends the client address's failure budget (slows key guessing).
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const addressCheck = limits.checkAddress(request);
    if (addressCheck) await addressCheck;
    try {
      await check(request, reply);
    } catch (error) {
      if (error instanceof ProblemError && request.apiKey === null) await limits.addressFailed(request);
      throw error;
    }
  };
}
