#!/usr/bin/env node
// A tiny integrator app: the `destination` of /connect. It receives `jwt` and `refresh`, verifies
// the access token against the auth server's JWKS, keeps the tokens server-side, and redirects to a
// clean URL at once so the tokens leave the address bar and browser history.
//
//   node examples/destination-app.mjs            (listens on http://localhost:5173)
//   VITRINE_ORIGIN=http://localhost:8081 API_KEY=vk_test_… node examples/destination-app.mjs
import http from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const origin = process.env.VITRINE_ORIGIN ?? 'http://localhost:8081';
const port = Number(process.env.PORT ?? 5173);
const jwks = createRemoteJWKSet(new URL(`${origin}/auth/.well-known/jwks.json`));
let session = null;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (res, status, body) => {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>Example app</title><style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;word-break:break-all;background:#f3f5f9;padding:.75rem;border-radius:6px}</style><body>${body}</body>`,
  );
};

http
  .createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://localhost:${port}`);
    if (url.pathname === '/callback') {
      const jwt = url.searchParams.get('jwt');
      if (!jwt) return page(res, 400, '<p>No token received.</p>');
      try {
        const { payload } = await jwtVerify(jwt, jwks, {
          issuer: `${origin}/auth`,
          audience: `${origin}/v1`,
        });
        session = {
          jwt,
          refresh: url.searchParams.get('refresh'),
          claims: payload,
          state: url.searchParams.get('state'),
        };
      } catch (error) {
        return page(res, 400, `<p>The token did not verify: ${esc(error.message)}</p>`);
      }
      res.writeHead(303, { location: '/session', 'referrer-policy': 'no-referrer' });
      return res.end();
    }
    if (url.pathname === '/session' && session) {
      const key = process.env.API_KEY ?? '<your testing key>';
      return page(
        res,
        200,
        `<h1>Signed in</h1><p>Verified access token for <code>${esc(session.claims.sub)}</code>, expires ${esc(new Date(session.claims.exp * 1000).toISOString())}.</p>
<pre>${esc(JSON.stringify(session.claims, null, 2))}</pre>
<p>Refresh token received: ${session.refresh ? 'yes' : 'no (the key lacks the refresh permission)'}.</p>
<p>Call the API as this user:</p>
<pre>curl -s -H 'X-Api-Key: ${esc(key)}' -H 'Authorization: Bearer ${esc(session.jwt)}' ${esc(origin)}/v1/me</pre>
${session.refresh ? `<p>Renew the access token:</p><pre>curl -s -H 'X-Api-Key: ${esc(key)}' --data-urlencode 'refresh=${esc(session.refresh)}' ${esc(origin)}/auth/refresh</pre>` : ''}`,
      );
    }
    return page(res, 404, '<p>Open the /connect link printed by <code>npm start</code>.</p>');
  })
  .listen(port, '127.0.0.1', () =>
    process.stdout.write(`example destination app on http://localhost:${port}/callback\n`),
  );
