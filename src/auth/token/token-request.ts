import type { KeyRecord } from '../../keys/model.js';
import type { KeyVerifier } from '../../keys/verifier.js';
import type { Environment } from '../../platform/environment.js';
import type { OAuthRefusal, TokenResponse } from '../oauth.js';
import type { OAuthService } from '../oauth-service.js';
import { type AddressBudget, authenticateClient } from './client-authentication.js';
import { selectGrant } from './grant-type.js';
import { readTokenForm } from './token-form.js';

export type TokenOutcome =
  | { ok: true; key: KeyRecord; grantType: string; response: TokenResponse }
  | OAuthRefusal;

/**
 * `POST /token` as named steps (RFC 6749 §3.2): `readTokenForm → authenticateClient →
 * selectGrant → grant` (authorization-code-grant.ts, refresh-token-grant.ts). Each returns a
 * result; the route answers the first refusal, or the tokens.
 */
export async function tokenRequest(
  input: { body: unknown; authorization: string | undefined; budget: AddressBudget },
  deps: { oauth: Pick<OAuthService, 'grants'>; verifier: KeyVerifier; environment: Environment },
): Promise<TokenOutcome> {
  const form = readTokenForm(input.body);
  if (!form.ok) return form;
  const client = await authenticateClient({ ...input, form: form.form }, deps);
  if (!client.ok) return client;
  const grantType = form.form.grant_type;
  const selected = selectGrant(deps.oauth.grants, grantType);
  if (!selected.ok) return selected;
  const result = await selected.grant(client.key, form.form);
  if (!result.ok) return result;
  return { ok: true, key: client.key, grantType: grantType as string, response: result.response };
}
