import type { IncomingMessage } from 'node:http';
import { createPooledIds } from '../platform/ids.js';

// A caller's id is adopted only if it is short and plain, so it cannot inject into logs.
const ACCEPTED = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request ids: the caller's `X-Request-Id` when sane (tracing across services), else `req_…`
 * (20 base62 characters from a pooled CSPRNG buffer: one per app, not a module singleton).
 */
export function createRequestIds(): (request: IncomingMessage) => string {
  const nextId = createPooledIds('req');
  return (request) => {
    const given = request.headers['x-request-id'];
    if (typeof given === 'string' && ACCEPTED.test(given)) return given;
    return nextId();
  };
}
