#!/usr/bin/env node
// The example integrator app again, through the standard door (docs/auth.md): OAuth 2.0
// authorization code + PKCE and OpenID Connect with an off-the-shelf client (openid-client). No
// token ever travels in a URL: the browser brings back a single-use code, and this server
// exchanges it, authenticated with the key id and the secret key, for the tokens it keeps.
//
//   npm install openid-client      (a devDependency of this repository already)
//   KEY_ID=key_… API_KEY=vk_test_… node examples/destination-app-pkce.mjs
//   then open http://localhost:5173/ (the demo's registered redirect URI is …/callback)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import * as oidc from 'openid-client';

const origin = process.env.VITRINE_ORIGIN ?? 'http://localhost:8081';
const port = Number(process.env.PORT ?? 5173);
const redirectUri = `http://localhost:${port}/callback`;
const { KEY_ID: keyId, API_KEY: secretKey } = process.env;
if (!keyId || !secretKey) {
  process.stderr.write(
    'Set KEY_ID (key_…) and API_KEY (the secret key vk_…) of a key of this environment.\n',
  );
  process.exit(2);
}

// Discovery: {auth_url}/.well-known/openid-configuration. Plain http is for localhost only.
const config = await oidc.discovery(
  new URL(`${origin}/auth`),
  keyId,
  undefined,
  oidc.ClientSecretBasic(secretKey),
  origin.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined,
);

/** Server-side sessions by an HttpOnly cookie: the PKCE verifier, state and nonce, then the tokens. */
const sessions = new Map();
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (res, status, body, headers = {}) => {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    ...headers,
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>Example app (PKCE)</title><style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;word-break:break-all;background:#f3f5f9;padding:.75rem;border-radius:6px}</style><body>${body}</body>`,
  );
};
const sessionOf = (req) => sessions.get(/(?:^|;\s*)example_sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1]);

http
  .createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    if (url.pathname === '/') {
      const sid = randomBytes(24).toString('base64url');
      const login = {
        verifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
      };
      sessions.set(sid, { login });
      const to = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email offline_access',
        code_challenge: await oidc.calculatePKCECodeChallenge(login.verifier),
        code_challenge_method: 'S256',
        state: login.state,
        nonce: login.nonce,
      });
      // SameSite=Lax: the cookie must come back on the top-level redirect from the auth server.
      res.writeHead(303, {
        location: to.href,
        'set-cookie': `example_sid=${sid}; Path=/; HttpOnly; SameSite=Lax`,
      });
      return res.end();
    }
    if (url.pathname === '/callback') {
      const session = sessionOf(req);
      if (!session?.login) return page(res, 400, '<p>No sign-in in progress. <a href="/">Start one</a>.</p>');
      try {
        // Checks state and iss (RFC 9207), sends the PKCE verifier, validates the ID token.
        const tokens = await oidc.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: session.login.verifier,
          expectedState: session.login.state,
          expectedNonce: session.login.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        session.tokens = tokens;
        session.user = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        session.login = undefined;
      } catch (error) {
        return page(res, 400, `<p>Sign-in failed: ${esc(error.error ?? error.message)}</p>`);
      }
      res.writeHead(303, { location: '/session', 'referrer-policy': 'no-referrer' });
      return res.end();
    }
    const session = sessionOf(req);
    if (url.pathname === '/session' && session?.tokens) {
      return page(
        res,
        200,
        `<h1>Signed in as ${esc(session.user.name ?? session.user.sub)}</h1>
<pre>${esc(JSON.stringify(session.user, null, 2))}</pre>
<p>Refresh token received: ${session.tokens.refresh_token ? 'yes' : 'no (offline_access needs the key’s refresh permission)'}.</p>
<p>Call the API as this user (the access token is the same JWT as /connect's):</p>
<pre>curl -s -H 'X-Api-Key: …' -H 'Authorization: Bearer ${esc(session.tokens.access_token)}' ${esc(origin)}/v1/me</pre>`,
      );
    }
    return page(res, 404, '<p><a href="/">Sign in with Vitrine</a></p>');
  })
  .listen(port, '127.0.0.1', () => process.stdout.write(`example PKCE app on http://localhost:${port}/\n`));
