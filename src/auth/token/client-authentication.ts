import type { KeyRecord } from '../../keys/model.js';
import type { KeyVerifier } from '../../keys/verifier.js';
import type { Environment } from '../../platform/environment.js';
import { oauthClientRefusal } from '../client-rules.js';
import { type OAuthRefusal, oauthRefusal, type TokenForm } from '../oauth.js';

/**
 * OAuth client authentication (RFC 6749 §2.3.1): the client id is the key's public
 * id (`key_…`), the client secret is the secret API key itself; `client_secret_basic` (HTTP Basic,
 * each part form-urlencoded) or `client_secret_post` (body fields), never both. `/token` and the
 * client side of `/revoke` both start with it.
 */
export type ClientAuthentication =
  | { ok: true; key: KeyRecord; method: 'client_secret_basic' | 'client_secret_post' }
  | OAuthRefusal;

/**
 * The client address's budget of bad keys, as on the search API (limits/request-limits.ts), bound
 * to the request by the route. Past the budget it throws `rate_limited`, which each route's error
 * handler answers as it answers every address refusal.
 */
export interface AddressBudget {
  check(): Promise<void> | null | undefined;
  failed(): Promise<void> | undefined;
}

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
  input: { authorization: string | undefined; form: TokenForm; budget: AddressBudget },
  deps: { verifier: KeyVerifier; environment: Environment },
): Promise<ClientAuthentication> {
  const { form } = input;
  const invalid = (description: string) => oauthRefusal('invalid_client', description);
  const basic = basicCredentials(input.authorization);
  if (basic === 'malformed') return invalid('The Authorization header is not valid HTTP Basic credentials.');
  const posted = form.client_secret !== undefined;
  if (basic && posted)
    return oauthRefusal('invalid_request', 'Use one client authentication method, not two.');
  const id = basic ? basic.id : form.client_id;
  const secret = basic ? basic.secret : form.client_secret;
  if (!id || !secret)
    return invalid('Authenticate with the key id as client_id and the secret key as client_secret.');
  if (basic && form.client_id !== undefined && form.client_id !== basic.id) {
    return oauthRefusal('invalid_request', 'client_id differs from the authenticated client.');
  }
  // Guessing secrets spends the client address's budget of bad keys, as on the search API.
  await input.budget.check();
  const verified = await deps.verifier.verify(secret, deps.environment);
  if (!verified.ok || verified.key.id !== id) {
    await input.budget.failed();
    return invalid('Client authentication failed.');
  }
  const refusal = oauthClientRefusal(verified.key);
  if (refusal) return invalid(refusal);
  return { ok: true, key: verified.key, method: basic ? 'client_secret_basic' : 'client_secret_post' };
}
