import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * CORS for the search API (issue 16), for publishable keys used from browsers.
 *
 * - A preflight (`OPTIONS {base_url}/…`) carries no key, so it is answered from the union of
 *   the allowed origins of this environment's active publishable keys, which the key cache
 *   keeps in memory (`allowsOrigin`): no database call. An origin in it gets
 *   `Access-Control-Allow-Origin: <that origin>` (never `*`), the methods and headers the API
 *   accepts and `Access-Control-Max-Age`; any other origin gets no CORS headers, so the
 *   browser stops there.
 * - An actual response gets `Access-Control-Allow-Origin` only when the origin is in that union
 *   and the request's key, once known, is a publishable key listing it: a secret key used from a
 *   page gets no CORS headers, so a page cannot read what a secret key returns. Answers refused
 *   before a key is known (missing or invalid key) are readable by a listed origin, so the page's
 *   developer sees `api_key_invalid` rather than an opaque network error.
 *
 * Hand-written rather than `@fastify/cors`: its origin function sees the origin only, not the
 * key the guard verifies later, and the rule above needs both (ADR 0017).
 */
export const CORS_MAX_AGE_SECONDS = 600;
export const CORS_ALLOW_METHODS = 'GET, POST';
export const CORS_ALLOW_HEADERS = 'X-Api-Key, Authorization, Content-Type';
export const CORS_EXPOSE_HEADERS =
  'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Link, X-Request-Id';

export interface CorsDeps {
  /** Whether some active publishable key of this environment allows the origin (in memory). */
  allowsOrigin(origin: string): boolean;
  /** Path prefix of the API CORS applies to. */
  prefix?: string;
}

export function registerCors(app: FastifyInstance, deps: CorsDeps): void {
  const prefix = deps.prefix ?? '/v1/';

  app.options(`${prefix}*`, { schema: { hide: true } }, (request, reply) => {
    const origin = request.headers.origin;
    reply.header('vary', 'Origin');
    if (typeof origin === 'string' && deps.allowsOrigin(origin)) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', CORS_ALLOW_METHODS)
        .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
        .header('access-control-max-age', String(CORS_MAX_AGE_SECONDS));
    }
    reply.header('cache-control', 'no-store').code(204).send();
  });

  const readableBy = (request: FastifyRequest, origin: string): boolean => {
    if (!deps.allowsOrigin(origin)) return false;
    const key = request.apiKey;
    return key === null || (key.kind === 'publishable' && key.allowedOrigins.includes(origin));
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const origin = request.headers.origin;
    if (typeof origin === 'string' && request.method !== 'OPTIONS' && request.url.startsWith(prefix)) {
      reply.header('vary', 'Origin');
      if (readableBy(request, origin)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
      }
    }
    done(null, payload);
  });
}
