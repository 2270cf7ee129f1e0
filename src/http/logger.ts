import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs with every secret of SPEC §10 kept out: headers are redacted by path,
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
];

const REDACTED = '[REDACTED]';

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
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
      return SECRET_QUERY_PARAMETERS.includes(name.toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
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
