import http from 'node:http';
import path from 'node:path';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/users/model.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * The standard door of SPEC §5.4 in a real browser (issue 17): openid-client builds the
 * authorization URL (PKCE S256, state, nonce), headless Chromium opens it on a real listener,
 * signs in on the very login page of /connect (nonce cookie, Fetch Metadata, CSP form-action)
 * and lands on the integrator's redirect URI with a code — no token in the URL. openid-client
 * then exchanges the code (ID token checked), reads userinfo, refreshes and revokes.
 *
 * Needs /usr/bin/chromium: skipped loudly without it, a failure under CI=true.
 */
const PASSWORD = 'correct horse battery staple';

requireChromium('the browser OAuth test');

/** The integrator's app: resolves with the first /callback URL it receives and answers "ok". */
function redirectTarget() {
  let arrived: (url: URL) => void = () => undefined;
  const received = new Promise<URL>((resolve) => {
    arrived = resolve;
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (url.pathname === '/callback') arrived(url);
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
  });
  return { server, received };
}

describe.skipIf(!hasChromium)('browser OAuth 2.0 + PKCE flow (headless Chromium, openid-client)', () => {
  let t: TestContext;
  let browser: Browser;
  let origin: string;
  let redirectUri: string;
  let target: ReturnType<typeof redirectTarget>;
  let key: { id: string; secret: string };
  let user: User;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestContext('sqlite', { TESTING_PUBLIC_ORIGIN: origin }, { environments: ['testing'] });
    t.clock.set(Date.now()); // openid-client checks iat and exp against the real time
    await t.apps.testing.listen({ port, host: '127.0.0.1' });

    target = redirectTarget();
    const targetPort = await freePort();
    await new Promise<void>((resolve) => target.server.listen(targetPort, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${targetPort}/callback`;

    const project = await t.deps.projects.add({
      name: 'E2E OAuth app',
      ownerEmail: 'integrator@example.com',
      redirectUris: [redirectUri],
    });
    const issued = await t.deps.keys.issue({ projectId: project.id, environment: 'testing' });
    await t.deps.keys.grantRefresh(issued.record.id);
    key = { id: issued.record.id, secret: issued.key };
    user = await t.deps.users.add({
      environment: 'testing',
      email: 'shopper@example.com',
      password: PASSWORD,
      name: 'Shopper',
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (target?.server.listening) await new Promise<void>((resolve) => target.server.close(() => resolve()));
    await t?.close();
  });

  it('signs in on the /connect login page and comes back with a code that openid-client exchanges', async () => {
    const config = await client.discovery(
      new URL(`${origin}/auth`),
      key.id,
      undefined,
      client.ClientSecretBasic(key.secret),
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const shown = await page.goto(authorizationUrl.href);
    expect(shown?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Sign in to continue to E2E OAuth app',
    );
    await page.screenshot({ path: path.join(ARTIFACTS, 'oauth-login-page.png'), fullPage: true });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Throws after the timeout if Chromium refuses the redirect (a CSP form-action block, say).
    await page.waitForURL((url) => url.pathname === '/callback');
    const callback = await target.received;
    expect(await page.textContent('body')).toBe('ok');
    await context.close();

    expect([...callback.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
    expect(callback.searchParams.get('iss')).toBe(`${origin}/auth`);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: key.id, iss: `${origin}/auth`, nonce });
    expect(await client.fetchUserInfo(config, tokens.access_token, user.id)).toEqual({
      sub: user.id,
      name: 'Shopper',
      email: 'shopper@example.com',
    });
    const me = await fetch(`${origin}/v1/me`, {
      headers: { 'x-api-key': key.secret, authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await client.tokenRevocation(config, tokens.refresh_token ?? '');
    const after = await fetch(`${origin}/v1/me`, {
      headers: { 'x-api-key': key.secret, authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(after.status).toBe(401);
  }, 60_000);
});
