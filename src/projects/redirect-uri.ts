import { UsageError } from '../platform/usage-error.js';

/**
 * Redirect destinations registered on a project. Stored normalised by the WHATWG URL
 * parser (lower-case scheme and host, default port dropped, dot segments resolved), so the
 * auth server can compare a `destination` by exact scheme, host, port and path.
 *
 * Plain `http` is allowed only for loopback hosts (local development); everything else must be
 * `https`, or tokens would cross the network in clear text.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function normaliseRedirectUri(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`redirect URI is not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`redirect URI must use https (or http on localhost): ${raw}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new UsageError(`redirect URI must use https unless its host is localhost: ${raw}`);
  }
  if (url.username || url.password) throw new UsageError(`redirect URI must not contain credentials: ${raw}`);
  if (raw.includes('#')) throw new UsageError(`redirect URI must not contain a fragment: ${raw}`);
  if (url.search) {
    throw new UsageError(
      `register the redirect URI without a query (the query may vary at /connect): ${raw}`,
    );
  }
  return `${url.protocol}//${url.host}${url.pathname}`;
}
