import { VitrineError } from './errors.js';
import { join } from './transport.js';

/**
 * Helpers for Vitrine's standard door: OAuth 2.0 authorization code with PKCE and
 * OpenID Connect. Any certified client (openid-client, oauth4webapi, AppAuth) works too; these
 * cover the two steps an app writes by hand. Web Crypto only: Node ≥ 20 and browsers.
 */

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** A PKCE pair (RFC 7636): keep `verifier` in the user's session, send `challenge`. */
export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/**
 * A fresh PKCE verifier (32 random bytes) and its S256 challenge.
 *
 * @example
 * ```ts
 * const pkce = await createPkce();
 * session.codeVerifier = pkce.verifier;
 * ```
 */
export async function createPkce(): Promise<Pkce> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest), method: 'S256' };
}

/** Parameters of {@link authorizationUrl}. */
export interface AuthorizationRequest {
  /** `{auth_url}`, e.g. `https://vitrine.example/auth`. */
  authUrl: string;
  /** The key's public id (`key_…`), never its secret. */
  clientId: string;
  /** One of the project's registered destinations, exactly. */
  redirectUri: string;
  /** From {@link createPkce}. */
  codeChallenge: string;
  /** Unguessable, kept in the session, compared when the user comes back. */
  state: string;
  /** Default `openid profile email offline_access`. */
  scope?: string;
  /** With `openid`: echoed in the id_token; keep and compare it too. */
  nonce?: string;
}

/**
 * The URL to send the user's browser to (`{auth_url}/authorize`, code + PKCE S256).
 *
 * @example
 * ```ts
 * const pkce = await createPkce();
 * res.redirect(authorizationUrl({ authUrl, clientId: 'key_…', redirectUri, codeChallenge: pkce.challenge, state }));
 * ```
 */
export function authorizationUrl(request: AuthorizationRequest): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    state: request.state,
    scope: request.scope ?? 'openid profile email offline_access',
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
  });
  return `${join(request.authUrl, 'authorize')}?${params.toString()}`;
}

/** `{auth_url}/token`'s answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  /** With `offline_access` and the key's refresh permission. */
  refresh_token?: string;
  /** With `openid`; verify it (signature against the JWKS, `iss`, `aud`, `nonce`) before trusting it. */
  id_token?: string;
}

/** Parameters of {@link exchangeCode}. Server-side only: it carries the secret key. */
export interface CodeExchange {
  authUrl: string;
  clientId: string;
  /** The key's secret (`vk_…`): never in a browser. */
  clientSecret: string;
  /** `code` from the redirect, after checking `state` (and `iss`, RFC 9207). */
  code: string;
  redirectUri: string;
  /** The verifier kept since {@link createPkce}. */
  codeVerifier: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * Exchanges the code for tokens at `{auth_url}/token` (client_secret_basic). An OAuth error
 * (`invalid_grant`, `invalid_client`, …) is thrown as a `VitrineError` with that code.
 *
 * @example
 * ```ts
 * const tokens = await exchangeCode({ authUrl, clientId, clientSecret: process.env.VITRINE_KEY!, code, redirectUri, codeVerifier });
 * const user = vitrine.asUser({ authUrl, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
 * ```
 */
export async function exchangeCode(exchange: CodeExchange): Promise<TokenResponse> {
  const platformFetch = exchange.fetch ?? globalThis.fetch;
  // RFC 6749 §2.3.1: the id and secret are form-encoded before Basic encoding.
  const basic = btoa(`${encodeURIComponent(exchange.clientId)}:${encodeURIComponent(exchange.clientSecret)}`);
  let response: Response;
  try {
    response = await platformFetch(join(exchange.authUrl, 'token'), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: exchange.code,
        redirect_uri: exchange.redirectUri,
        code_verifier: exchange.codeVerifier,
      }),
      ...(exchange.signal ? { signal: exchange.signal } : {}),
    });
  } catch (error) {
    throw new VitrineError({
      status: 0,
      code: exchange.signal?.aborted ? 'aborted' : 'network_error',
      detail: error instanceof Error ? error.message : 'The token request failed.',
      cause: error,
    });
  }
  const body = (await response.json().catch(() => null)) as
    | (TokenResponse & { error?: string; error_description?: string })
    | null;
  if (!response.ok || !body || typeof body.access_token !== 'string') {
    throw new VitrineError({
      status: response.status,
      code: (body?.error ?? 'unexpected_response') as VitrineError['code'],
      detail: body?.error_description ?? `The token endpoint answered ${response.status}.`,
      requestId: response.headers.get('x-request-id'),
    });
  }
  return body;
}
