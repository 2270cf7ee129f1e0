import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { FORM } from '../support/auth.js';

/** The OAuth door driven through `app.inject()`, as a browser and a confidential client would. */
export const REDIRECT = 'https://app.example.com/callback';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(params: Record<string, string>): string {
  return `/auth/authorize?${new URLSearchParams(params).toString()}`;
}

/** Opens /authorize and signs in on its login page; returns the 303 of the login form. */
export async function authorizeAndLogin(
  app: FastifyInstance,
  params: Record<string, string>,
  credentials: { email: string; password: string },
  /** The browser's headers (e.g. its user agent) on both requests. */
  headers: Record<string, string> = {},
) {
  const page = await app.inject({ url: authorizeUrl(params), headers });
  if (page.statusCode !== 200)
    throw new Error(`authorize answered ${page.statusCode}: ${page.body.slice(0, 300)}`);
  const ticket = /name="ticket" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  const login = await app.inject({
    method: 'POST',
    url: '/auth/connect',
    headers: { ...headers, ...FORM, cookie },
    payload: new URLSearchParams({ ticket, ...credentials }).toString(),
  });
  if (login.statusCode !== 303)
    throw new Error(`login answered ${login.statusCode}: ${login.body.slice(0, 300)}`);
  return { page, login, location: new URL(String(login.headers.location)) };
}

/** A code for `client` (key id), with its PKCE verifier. */
export async function codeFor(
  app: FastifyInstance,
  clientId: string,
  credentials: { email: string; password: string },
  extra: Record<string, string> = {},
) {
  const { verifier, challenge } = pkce();
  const { location } = await authorizeAndLogin(
    app,
    {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'openid profile email offline_access',
      state: 'st-1',
      nonce: 'n-1',
      ...extra,
    },
    credentials,
  );
  return { code: location.searchParams.get('code') ?? '', verifier, location };
}

export function tokenRequest(
  app: FastifyInstance,
  client: { id: string; key: string },
  params: Record<string, string>,
  how: 'basic' | 'post' = 'post',
) {
  const auth =
    how === 'basic'
      ? { authorization: `Basic ${Buffer.from(`${client.id}:${client.key}`).toString('base64')}` }
      : {};
  const body = how === 'post' ? { client_id: client.id, client_secret: client.key, ...params } : params;
  return app.inject({
    method: 'POST',
    url: '/auth/token',
    headers: { ...FORM, ...auth },
    payload: new URLSearchParams(body).toString(),
  });
}
