import type { KeyRecord } from '../../keys/model.js';
import { oauthClientRefusal } from '../client-rules.js';
import type { LoginFlow, Refusal } from '../login.js';
import type { AuthorizeQuery } from './authorize-query.js';

/**
 * Who asks: `client_id` once, naming a secret key active in this environment. Until the client
 * and its redirect URI are verified, a refusal is a page, never a redirect (RFC 6749 §4.1.2.1).
 */
export async function checkClient(
  query: AuthorizeQuery,
  flow: Pick<LoginFlow, 'checkClientId'>,
): Promise<{ ok: true; key: KeyRecord } | Refusal> {
  if (query.repeated.includes('client_id')) {
    return { ok: false, code: 'invalid_client', message: 'The client_id was given more than once.' };
  }
  const client = await flow.checkClientId(query.single('client_id'));
  if (!client.ok) return client;
  const refusal = oauthClientRefusal(client.key);
  if (refusal) return { ok: false, code: 'invalid_client', message: refusal };
  return client;
}
