import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs with every secret kept out: headers are redacted by path,
 * and the request URL is logged with the values of secret-bearing query parameters replaced.
 */
export const SECRET_QUERY_PARAMETERS = [
  'apikey',
  'jwt',
  'refresh',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'ticket',
  // Issue 26: OAuth's credential-bearing names (the secret key as `client_secret`, a code and
  // its PKCE verifier, a Basic `authorization` sent as a parameter), and one-time codes.
  'client_secret',
  'code',
  'authorization',
  'secret',
  'id_token',
  'assertion',
  'otp',
  'totp',
  'recovery',
];

const REDACTED = '[REDACTED]';

/**
 * Issue 13: `apiKey[]=…`, `apiKey[0]=…`, `api_key=…`, ` apiKey=…` are the same secret in another
 * shape (and query parsers may still read them as `apiKey`). Names are compared with brackets,
 * dots, dashes, underscores, spaces and case removed, and any such name that starts with a secret
 * parameter's name is redacted: redacting too much is harmless, too little is a leak.
 */
const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const SECRET_PREFIXES = SECRET_QUERY_PARAMETERS.map(squash);
function isSecretName(name: string): boolean {
  const squashed = squash(name);
  return squashed !== '' && SECRET_PREFIXES.some((secret) => squashed.startsWith(secret));
}

/**
 * The auth server's addresses (`{auth_url}` is `<origin>/auth`): every parameter there names or
 * carries a credential of some flow, so its query is logged as parameter names only.
 */
const AUTH_PATH = /^\/auth(\/|\?|$)/;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  if (AUTH_PATH.test(url)) {
    const names = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq === -1 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
      });
    return `${url.slice(0, q)}?${names.join('&')}`;
  }
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A name that does not decode is logged as sent; it cannot be one of ours.
      }
      return isSecretName(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

export function createLogger(options: { level: string; stream?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          'password',
          '*.password',
          'key',
          'apiKey',
        ],
        censor: REDACTED,
      },
      serializers: {
        req: (req: IncomingMessage & { id?: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ''),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        err: pino.stdSerializers.err,
      },
    },
    options.stream ?? pino.destination({ fd: 1, sync: false }),
  );
}
