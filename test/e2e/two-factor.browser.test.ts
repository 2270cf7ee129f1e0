import http from 'node:http';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 27 in a real browser (Debian's Chromium): enrolment and sign-in with a code on the
 * portal, the console (CONSOLE_REQUIRE_2FA) and `/connect`; the QR code is inline SVG under the
 * strict CSP. Screenshots at 1280 and 390 px wide in test-artifacts/.
 */
requireChromium('the two-factor browser test');

const DEV = { email: 'bea@example.com', password: 'bea-portal-pw-001' };
const OPS = { email: 'olaf@example.com', password: 'olaf-console-pw-1' };
const USER = { email: 'ursa@example.com', password: 'ursa-password-001' };

describe.skipIf(!hasChromium)('two-factor sign-in in a browser', () => {
  let t: TestContext;
  let browser: Browser;
  let prod: string;
  let testing: string;
  let destination: string;
  let server: http.Server;
  const violations: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestContext('sqlite', {
      CONSOLE_REQUIRE_2FA: 'true',
      TESTING_PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    });
    await t.deps.operators.add(OPS);
    prod = await t.apps.production.listen({ port: 0, host: '127.0.0.1' });
    testing = await t.apps.testing.listen({ port, host: '127.0.0.1' });
    server = http.createServer((_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    const destPort = await freePort();
    await new Promise<void>((resolve) => server.listen(destPort, '127.0.0.1', resolve));
    destination = `http://127.0.0.1:${destPort}/callback`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (server?.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await t?.close();
  });

  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now() / 1000) });
  /** A screenshot at desktop width and at phone width. */
  async function shots(page: Page, name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({
        path: path.join(ARTIFACTS, `two-factor-${name}-${width}.png`),
        fullPage: true,
      });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  async function newPage() {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    return page;
  }

  it('a developer enrols on the portal, then signs in with a code', async () => {
    const page = await newPage();
    await page.goto(`${prod}/portal/signup`);
    await page.getByLabel('Email').fill(DEV.email);
    await page.getByLabel('Password').fill(DEV.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.url()).toBe(`${prod}/portal/`);
    await page.getByRole('link', { name: 'Account' }).click();
    await shots(page, 'portal-account');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    expect(await page.locator('figure.qr svg').count()).toBe(1);
    const box = await page.locator('figure.qr svg').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    await shots(page, 'portal-enrol');
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
    await page.getByLabel('Code from the app').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    expect(await page.locator('#recovery-codes li').count()).toBe(10);
    await shots(page, 'portal-recovery-codes');
    await page.getByRole('link', { name: /continue/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    t.clock.advance(30_000);
    await page.getByLabel('Email').fill(DEV.email);
    await page.getByLabel('Password').fill(DEV.password);
    await page.getByRole('button', { name: 'Sign in as developer' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await shots(page, 'portal-code');
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Code').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.url()).toBe(`${prod}/portal/`);
  });

  it('an operator must enrol at sign-in on the console (CONSOLE_REQUIRE_2FA), then uses a code', async () => {
    const page = await newPage();
    await page.goto(`${prod}/console/`);
    await page.getByLabel('Email').fill(OPS.email);
    await page.getByLabel('Password').fill(OPS.password);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await page.getByText('This console requires two-factor sign-in').waitFor();
    await shots(page, 'console-enrol-required');
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
    await page.getByLabel('Code from the app').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    await page.getByRole('link', { name: /continue/ }).click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await page.goto(`${prod}/console/account`);
    await shots(page, 'console-account');

    t.clock.advance(30_000);
    const next = await newPage();
    await next.goto(`${prod}/console/`);
    await next.getByLabel('Email').fill(OPS.email);
    await next.getByLabel('Password').fill(OPS.password);
    await next.getByRole('button', { name: 'Sign in as operator' }).click();
    await next.getByLabel('Code').fill(await codeFor(secret));
    await next.getByRole('button', { name: 'Verify' }).click();
    await next.getByRole('heading', { name: 'Applications' }).waitFor();
  });

  it('/connect asks an enrolled end user for the code, then lands on the destination', async () => {
    const project = await t.deps.projects.add({
      name: 'Two-factor shop',
      ownerEmail: 'integrator@example.com',
      redirectUris: [destination],
    });
    const { key } = await t.deps.keys.issue({ projectId: project.id, environment: 'testing' });
    const user = await t.deps.users.add({ environment: 'testing', ...USER });
    const ref = { kind: 'user' as const, id: user.id, email: user.email, environment: 'testing' as const };
    const secret = (await t.deps.secondFactors.begin(ref)).secret;
    await t.deps.secondFactors.confirm(ref, await codeFor(secret), {
      kind: 'cli',
      id: null,
      email: null,
      ip: null,
    });
    t.clock.advance(30_000);

    const page = await newPage();
    const connect = new URL(`${testing}/auth/connect`);
    connect.search = new URLSearchParams({ apiKey: key, destination, state: 'tf' }).toString();
    await page.goto(connect.href);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await shots(page, 'connect-code');
    await page.getByLabel('Code').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/callback');
    const landed = new URL(page.url());
    expect(landed.searchParams.get('jwt')).toBeTruthy();
    expect(landed.searchParams.get('state')).toBe('tf');
    expect(violations).toEqual([]);
  });
});
