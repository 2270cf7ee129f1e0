import type { FastifyReply } from 'fastify';

/**
 * Headers of every browser-facing page: no framing, no referrer (tokens
 * travel in redirect URLs), no caching, no MIME sniffing, and a Content-Security-Policy that
 * allows only this origin's stylesheet and scripts. `formTargets` adds the origins a form may end up at:
 * Chromium applies `form-action` to the redirect after a POST too.
 */
export function pageSecurityHeaders(reply: FastifyReply, formTargets: readonly string[] = []): void {
  reply
    .header(
      'content-security-policy',
      [
        "default-src 'none'",
        "style-src 'self'",
        // Same-origin scripts only (the reveal page's Copy button); never inline, never eval.
        "script-src 'self'",
        "img-src 'self'",
        `form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}`,
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-opener-policy', 'same-origin')
    .type('text/html; charset=utf-8');
}
