import http from 'node:http';
import path from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/users/model.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * The login of SPEC §5.1 in a real browser: headless Chromium opens `/auth/connect` on a real
 * listener, signs in through the form, and lands on the integrator's destination with the tokens.
 * Proves what `app.inject()` cannot: the nonce cookie, Fetch Metadata and the CSP `form-action`
 * (which Chromium applies to the redirect after the POST) let a real browser through. The token is
 * then checked like an integrator would: against the published JWKS, over HTTP.
 *
 * Needs /usr/bin/chromium: skipped loudly on a laptop without it, a failure under CI=true.
 */
const PASSWORD = 'correct horse battery staple';
const TEN_HOURS_S = 36_000;

requireChromium('the browser login test');

/** The integrator's app: records the query of every request and answers 200 "ok". */
function destinationServer(): {
  server: http.Server;
  received: URLSearchParams[];
  next: () => Promise<URLSearchParams>;
} {
  const received: URLSearchParams[] = [];
  let waiting: ((query: URLSearchParams) => void) | null = null;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://destination.invalid');
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      waiting?.(url.searchParams);
      waiting = null;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
  });
  return {
    server,
    received,
    next: () =>
      new Promise((resolve) => {
        waiting = resolve;
      }),
  };
}

describe.skipIf(!hasChromium)('browser login flow (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let origin: string;
  let destination: string;
  let dest: ReturnType<typeof destinationServer>;
  let apiKey: string;
  let keyId: string;
  let user: User;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestContext('sqlite', { TESTING_PUBLIC_ORIGIN: origin }, { environments: ['testing'] });
    await t.apps.testing.listen({ port, host: '127.0.0.1' });

    dest = destinationServer();
    const destPort = await freePort();
    await new Promise<void>((resolve) => dest.server.listen(destPort, '127.0.0.1', resolve));
    destination = `http://127.0.0.1:${destPort}/callback`;

    const project = await t.deps.projects.add({
      name: 'E2E app',
      ownerEmail: 'integrator@example.com',
      redirectUris: [destination],
    });
    const issued = await t.deps.keys.issue({ projectId: project.id, environment: 'testing' });
    apiKey = issued.key;
    keyId = issued.record.id;
    await t.deps.keys.grantRefresh(keyId);
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
    if (dest?.server.listening) await new Promise<void>((resolve) => dest.server.close(() => resolve()));
    await t?.close();
  });

  const me = (token: string) =>
    fetch(`${origin}/v1/me`, { headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` } });

  it('signs in through the real page, lands on the destination with the tokens, and the tokens work', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const connect = new URL(`${origin}/auth/connect`);
    connect.search = new URLSearchParams({
      apiKey,
      destination: `${destination}?app=1`,
      state: 'xyz',
    }).toString();

    const shown = await page.goto(connect.href);
    expect(shown?.status()).toBe(200);
    expect(await page.title()).toBe('Sign in to E2E app · Vitrine');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Sign in to continue to E2E app',
    );
    await page.screenshot({ path: path.join(ARTIFACTS, 'login-page.png'), fullPage: true });

    // A wrong password: the same page again, with the generic message and nothing sent anywhere.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the right password');
    const [failed] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${origin}/auth/connect` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(failed.status()).toBe(401);
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe('The email or password is incorrect.');
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await page.screenshot({ path: path.join(ARTIFACTS, 'login-failed.png'), fullPage: true });
    expect(dest.received).toHaveLength(0);

    // The right password: 303 to the destination, its own query kept, the tokens and state added.
    const arrived = dest.next();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Throws (after Playwright's timeout) if the browser refuses the redirect, e.g. a CSP block.
    await page.waitForURL((url) => url.pathname === '/callback');
    const query = await arrived;
    expect(await page.textContent('body')).toBe('ok');
    await context.close();

    expect(dest.received).toHaveLength(1);
    expect([...query.keys()].sort()).toEqual(['app', 'jwt', 'refresh', 'state']);
    expect(query.get('app')).toBe('1');
    expect(query.get('state')).toBe('xyz');
    const jwt = query.get('jwt') as string;
    const refresh = query.get('refresh') as string;
    expect(jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(refresh).toMatch(/^vrt_[0-9A-Za-z]{43}$/);

    // Verified as an integrator would: the published JWKS, over HTTP.
    const jwks = createRemoteJWKSet(new URL(`${origin}/auth/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(jwt, jwks, {
      issuer: `${origin}/auth`,
      audience: `${origin}/v1`,
      currentDate: new Date(t.clock.now()),
    });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({ sub: user.id, client_id: keyId, env: 'testing' });
    expect(payload.iat).toBe(Math.floor(t.clock.now() / 1000));
    expect((payload.exp as number) - (payload.iat as number)).toBe(TEN_HOURS_S);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);

    const ok = await me(jwt);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      id: user.id,
      email: 'shopper@example.com',
      name: 'Shopper',
      environment: 'testing',
      createdAt: new Date(user.createdAt).toISOString(),
    });

    // Past exp and the 60 s skew: expired, with the RFC 6750 challenge.
    t.clock.advance(10 * 3600_000 + 61_000);
    const expired = await me(jwt);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="The access token expired"',
    );
    expect(expired.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await expired.json()).toMatchObject({ status: 401, code: 'token_expired' });

    // The refresh token gets a new access token, which works.
    const refreshed = await fetch(`${origin}/auth/refresh?${new URLSearchParams({ refresh }).toString()}`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    const tokens = (await refreshed.json()) as { access_token: string };
    expect(tokens).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'Bearer',
      expires_in: TEN_HOURS_S,
      expires_at: new Date(t.clock.now() + TEN_HOURS_S * 1000).toISOString(),
    });
    expect(tokens.access_token).not.toBe(jwt);
    const again = await me(tokens.access_token);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(user.id);
  }, 60_000);
});
