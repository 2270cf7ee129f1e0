import type { Environment } from '../../platform/environment.js';
import type { LoginFlow, Refusal } from '../login.js';
import type { LoginTicket } from '../login-ticket.js';
import { grantedScope, type OAuthRefusal } from '../oauth.js';
import { readAuthorizeQuery } from './authorize-query.js';
import { checkClient } from './client-check.js';
import { checkNonce } from './nonce-check.js';
import { checkPkce } from './pkce-check.js';
import { checkPrompt } from './prompt-check.js';
import { checkRedirectUri } from './redirect-uri-check.js';
import { checkRepeated } from './repeated-check.js';
import { checkRequestObject } from './request-object-check.js';
import { checkResponseType } from './response-type-check.js';
import { checkScope } from './scope-check.js';
import { checkState, echoedState } from './state-check.js';

/**
 * What `/authorize` decided: the ticket of the login page (the one of `/connect`), an error page
 * (the client or its redirect URI cannot be trusted), or an error for the verified redirect URI.
 */
export type AuthorizeOutcome =
  | { ok: true; ticket: LoginTicket; projectName: string; destination: URL }
  | { ok: false; at: 'page'; refusal: Refusal }
  | (OAuthRefusal & { at: 'redirect'; redirectUri: URL; state: string | null });

/**
 * `GET /authorize` as named steps (RFC 6749 §4.1.1, OIDC Core §3.1.2): `checkClient →
 * checkRedirectUri`, whose refusals are pages, then `checkRepeated → checkState →
 * checkRequestObject → checkResponseType → checkPkce → checkScope → checkNonce → checkPrompt`,
 * whose refusals go back to the redirect URI. Each returns a result; the route answers.
 */
export async function authorizeRequest(
  rawQuery: Record<string, unknown>,
  deps: { flow: Pick<LoginFlow, 'checkClientId' | 'checkDestination'>; environment: Environment },
): Promise<AuthorizeOutcome> {
  const query = readAuthorizeQuery(rawQuery);
  // 1. Who asks and where to: until both are verified, nothing redirects (RFC 6749 §4.1.2.1).
  const client = await checkClient(query, deps.flow);
  if (!client.ok) return { ok: false, at: 'page', refusal: client };
  const redirect = await checkRedirectUri(query, client.key, deps.flow);
  if (!redirect.ok) return { ok: false, at: 'page', refusal: redirect };

  // 2. Everything else answers at the client's redirect URI.
  const back = (refusal: OAuthRefusal): AuthorizeOutcome => ({
    ...refusal,
    at: 'redirect',
    redirectUri: redirect.url,
    state: echoedState(query),
  });
  const repeated = checkRepeated(query);
  if (!repeated.ok) return back(repeated);
  const state = checkState(query);
  if (!state.ok) return back(state);
  const requestObject = checkRequestObject(query);
  if (!requestObject.ok) return back(requestObject);
  const responseType = checkResponseType(query);
  if (!responseType.ok) return back(responseType);
  const pkce = checkPkce(query);
  if (!pkce.ok) return back(pkce);
  const scope = checkScope(query);
  if (!scope.ok) return back(scope);
  const nonce = checkNonce(query);
  if (!nonce.ok) return back(nonce);
  const prompt = checkPrompt(query);
  if (!prompt.ok) return back(prompt);

  // 3. The login page of /connect, with the same ticket, CSRF cookie, throttle and CSP.
  return {
    ok: true,
    projectName: redirect.projectName,
    destination: redirect.url,
    ticket: {
      keyId: client.key.id,
      environment: deps.environment,
      destination: redirect.url.href,
      state: state.state,
      oauth: {
        challenge: pkce.challenge,
        nonce: nonce.nonce,
        scope: grantedScope(scope.scopes, client.key),
      },
    },
  };
}
