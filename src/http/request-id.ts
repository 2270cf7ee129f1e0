import type { IncomingMessage } from 'node:http';
import { randomBase62 } from '../platform/ids.js';

// A caller's id is adopted only if it is short and plain, so it cannot inject into logs.
const ACCEPTED = /^[A-Za-z0-9._:-]{1,64}$/;

/** Request id: the caller's `X-Request-Id` when sane (tracing across services), else `req_…`. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && ACCEPTED.test(given)) return given;
  return `req_${randomBase62(20)}`;
}
