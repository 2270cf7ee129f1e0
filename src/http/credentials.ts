import type { FastifyRequest } from 'fastify';
import { ProblemError } from './errors.js';

/** The key from the `X-Api-Key` header or the `apiKey` query parameter. */
export function extractApiKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  // Issue 13: Node joins a repeated header with ", " (keys never hold a comma or a space).
  const fromHeader = (Array.isArray(header) ? header : [header])
    .flatMap((h) => (typeof h === 'string' ? h.split(',') : []))
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const raw = (request.query as Record<string, unknown> | undefined)?.apiKey;
  const values = (Array.isArray(raw) ? raw : [raw]).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  const distinct = new Set([...fromHeader, ...values]);
  if (distinct.size > 1) {
    throw new ProblemError(
      'api_key_conflict',
      'Different API keys were sent (X-Api-Key header and apiKey query parameter, or either repeated). Send one key, preferably in the header.',
    );
  }
  return [...distinct][0] ?? null;
}
