import type { FastifyRequest } from 'fastify';
import type { KeyRecord } from '../keys/model.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Environment } from '../platform/environment.js';
import { oauthClientRefusal } from './client-rules.js';

/**
 * OAuth client authentication (RFC 6749 §2.3.1): the client id is the key's public
 * id (`key_…`), the client secret is the secret API key itself; `client_secret_basic` (HTTP Basic,
 * each part form-urlencoded) or `client_secret_post` (body fields), never both.
 */
export type ClientAuthentication =
  | { ok: true; key: KeyRecord; method: 'client_secret_basic' | 'client_secret_post' }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string };

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (header === undefined) return null;
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match?.[1]) return /^Basic\b/i.test(header) ? 'malformed' : null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

export async function authenticateClient(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
  deps: { verifier: KeyVerifier; environment: Environment; limits?: RequestLimits },
): Promise<ClientAuthentication> {
  const invalid = (description: string) => ({ ok: false, error: 'invalid_client', description }) as const;
  const basic = basicCredentials(request.headers.authorization);
  if (basic === 'malformed') return invalid('The Authorization header is not valid HTTP Basic credentials.');
  const posted = body.client_secret !== undefined;
  if (basic && posted) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'Use one client authentication method, not two.',
    };
  }
  const id = basic ? basic.id : body.client_id;
  const secret = basic ? basic.secret : body.client_secret;
  if (!id || !secret)
    return invalid('Authenticate with the key id as client_id and the secret key as client_secret.');
  if (basic && body.client_id !== undefined && body.client_id !== basic.id) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'client_id differs from the authenticated client.',
    };
  }
  // Guessing secrets spends the client address's budget of bad keys, as on the search API.
  await deps.limits?.checkAddress(request);
  const verified = await deps.verifier.verify(secret, deps.environment);
  if (!verified.ok || verified.key.id !== id) {
    await deps.limits?.addressFailed(request);
    return invalid('Client authentication failed.');
  }
  const refusal = oauthClientRefusal(verified.key);
  if (refusal) return invalid(refusal);
  return { ok: true, key: verified.key, method: basic ? 'client_secret_basic' : 'client_secret_post' };
}
