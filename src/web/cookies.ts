import type { FastifyReply, FastifyRequest } from 'fastify';

/** The value of one cookie of the request, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * A cookie the browser sends only to this origin's pages and never to scripts: HttpOnly,
 * SameSite=Strict, Path=/; on https also Secure, and the name carries the `__Host-` prefix so a
 * sibling subdomain cannot plant or overwrite it (RFC 6265bis §4.1.3.2).
 */
export interface CookieJar {
  name: string;
  set(reply: FastifyReply, value: string, maxAgeSeconds?: number): void;
  clear(reply: FastifyReply): void;
  read(request: FastifyRequest): string | undefined;
}

export function cookieJar(baseName: string, secure: boolean): CookieJar {
  const name = secure ? `__Host-${baseName}` : baseName;
  const attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  const append = (reply: FastifyReply, cookie: string) => {
    const existing = reply.getHeader('set-cookie');
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    reply.header('set-cookie', [...list, cookie]);
  };
  return {
    name,
    set(reply, value, maxAgeSeconds) {
      append(reply, `${name}=${value}; ${attributes}${maxAgeSeconds ? `; Max-Age=${maxAgeSeconds}` : ''}`);
    },
    clear(reply) {
      append(reply, `${name}=; ${attributes}; Max-Age=0`);
    },
    read: (request) => readCookie(request, name),
  };
}
