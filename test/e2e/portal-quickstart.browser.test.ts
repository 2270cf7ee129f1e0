import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/keys/key-format.js';
import { generateOffers } from '../../src/offers/seed.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * Issue 15's portal in a real browser (Debian's chromium): the quickstart, the one-time reveal
 * with its Copy button (and without script), the typed confirmation before a revoke, and no
 * page scrolling sideways at 390 px. Screenshots at 1280 and 390 px go to test-artifacts/.
 */
requireChromium('the portal quickstart browser test');
/** The computed `user-select` of an element, read in the page (Chromium calls it `userSelect`). */
const userSelect = (element: unknown) =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { userSelect: string } }).getComputedStyle(
    element,
  ).userSelect;
const DEVELOPER = { email: 'quinn@example.com', password: 'quinn-portal-pw-1' };
const OPERATOR = { email: 'ops-quick@example.com', password: 'operator-pw-1234' };

// A browser on a busy 2-core machine: each case gets the time it needs.
describe.skipIf(!hasChromium)('the portal quickstart in a browser', { timeout: 120_000 }, () => {
  let t: TestContext;
  let browser: Browser;
  let prod: string;

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestContext('sqlite', { USAGE_FLUSH_MS: '60000' });
    await t.deps.operators.add(OPERATOR);
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 20 })]);
    prod = await t.apps.production.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The page's sideways overflow in px (0 when none), and the elements that stick out. */
  const overflowOf = async (page: Page) =>
    (await page.evaluate(`(() => {
      const root = document.documentElement;
      const over = root.scrollWidth - root.clientWidth;
      const out = over <= 0 ? [] : [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > root.clientWidth)
        .slice(0, 5)
        .map((e) => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right));
      return [over, out.join(', ')];
    })()`)) as [number, string];

  /**
   * Screenshots at 1280 and 390 px. At 390 px the page must not scroll sideways: a GET page is
   * loaded afresh in a phone-sized page (resizing a laid-out page reads a few px wide for a
   * moment); a page that answered a POST is measured where it is.
   */
  async function shots(page: Page, name: string, fresh = true) {
    await page.screenshot({ path: path.join(ARTIFACTS, `quickstart-${name}-1280.png`), fullPage: true });
    const phone = fresh ? await page.context().newPage() : page;
    await phone.setViewportSize({ width: 390, height: 900 });
    if (fresh) await phone.goto(page.url());
    const [overflow, wide] = await overflowOf(phone);
    expect(overflow, `${name} at 390 px scrolls sideways by ${overflow} px: ${wide}`).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: path.join(ARTIFACTS, `quickstart-${name}-390.png`), fullPage: true });
    if (fresh) await phone.close();
    else await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('shows where the API is, reveals the key once with a working Copy button, and confirms a revoke', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: prod });
    const dev = await context.newPage();
    await dev.goto(`${prod}/portal/signup`);
    await dev.getByLabel('Email').fill(DEVELOPER.email);
    await dev.getByLabel('Password').fill(DEVELOPER.password);
    await dev.getByRole('button', { name: 'Create account' }).click();
    await dev.getByRole('link', { name: 'New project' }).first().click();
    await dev.getByLabel('Name').fill('Quick shop');
    await dev.getByRole('button', { name: 'Create project' }).click();
    await dev.getByRole('button', { name: 'Apply' }).click();
    await dev.getByText('Your testing key is issued').waitFor();
    await dev.getByRole('button', { name: 'Reveal key' }).click();

    // The reveal: a warning, the key selectable in one click, a Copy button that works.
    expect(await dev.getByRole('alert').textContent()).toContain('Store this key now.');
    const secret = (await dev.locator('#secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^vk_test_/);
    expect(await dev.locator('#secret').evaluate(userSelect)).toBe('all');
    await dev.getByRole('button', { name: 'Copy', exact: true }).click();
    await dev.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await dev.evaluate('navigator.clipboard.readText()')).toBe(secret);
    // Issue 25: every snippet has its Copy button too, and it copies the snippet as shown.
    const snippets = dev.locator('main pre');
    expect(await dev.getByRole('button', { name: 'Copy this snippet' }).count()).toBe(await snippets.count());
    await dev.getByRole('button', { name: 'Copy this snippet' }).first().click();
    await expect
      .poll(() => dev.evaluate('navigator.clipboard.readText()'))
      .toBe(((await snippets.first().textContent()) ?? '').trim());
    await shots(dev, 'reveal', false);

    // The quickstart's curl line works as pasted, with the secret in VITRINE_KEY.
    const curl = (await dev.locator('.quickstart pre code').first().textContent()) ?? '';
    const url = /'(http[^']+)'/.exec(curl)?.[1] ?? '';
    expect(url).toBe('http://localhost:8081/v1/offers/?q=bike&limit=3');
    const testingOrigin = await t.apps.testing.listen({ port: 0, host: '127.0.0.1' });
    const answer = await fetch(url.replace('http://localhost:8081', testingOrigin), {
      headers: { 'x-api-key': secret },
    });
    expect(answer.status).toBe(200);

    await dev.getByRole('link', { name: 'Back to the project' }).click();
    expect(await dev.getByRole('region', { name: 'Call the API' }).textContent()).toContain(
      'http://localhost:8080/v1',
    );
    expect(await dev.content()).not.toContain(secret);
    await shots(dev, 'project');

    const key = await t.deps.keys.findByHash(hashApiKey(secret));
    expect(await dev.getByRole('region', { name: 'Call the API' }).textContent()).toContain(String(key?.id));
    await dev.goto(`${prod}/portal/keys/${key?.id}`);
    await shots(dev, 'key');

    // Roll it, keeping the old secret for an hour: both work, the new one is shown once.
    await dev.getByRole('link', { name: 'Roll this key…' }).click();
    await dev.getByLabel('The old secret keeps working for').selectOption('1h');
    await dev.getByLabel('To confirm, type').fill(key?.id ?? '');
    await shots(dev, 'roll', false);
    await dev.getByRole('button', { name: 'Roll the key' }).click();
    expect(await dev.getByRole('alert').textContent()).toContain('Store this key now.');
    const rolled = (await dev.locator('#secret').textContent())?.trim() ?? '';
    expect(rolled).toMatch(/^vk_test_/);
    expect(rolled).not.toBe(secret);
    const search = (apiKey: string) =>
      fetch(`${testingOrigin}/v1/key`, { headers: { 'x-api-key': apiKey } }).then((r) => r.status);
    expect(await search(secret)).toBe(200);
    expect(await search(rolled)).toBe(200);
    // The overlap's end is tested with a moved clock in test/contract/key-roll.contract.test.ts
    // (moving it here would also end this browser's portal session).
    await dev.goto(`${prod}/portal/keys/${key?.id}`);
    await dev.getByRole('link', { name: 'Revoke this key…' }).click();
    await dev.getByLabel('To confirm, type').fill('yes');
    await dev.getByRole('button', { name: 'Revoke the key' }).click();
    expect(await dev.getByRole('alert').textContent()).toContain('does not match');
    expect((await t.deps.keys.get(key?.id ?? ''))?.state).toBe('active');
    await dev.getByLabel('To confirm, type').fill(key?.id ?? '');
    await shots(dev, 'confirm-revoke', false);
    await dev.getByRole('button', { name: 'Revoke the key' }).click();
    await dev.getByText('Key revoked.').waitFor();
    expect((await t.deps.keys.get(key?.id ?? ''))?.state).toBe('revoked');
    // The message was for that one page: a reload does not bring it back.
    await dev.reload();
    expect(await dev.getByText('Key revoked.').count()).toBe(0);
    await context.close();
  });

  it('without script the reveal still shows the key, selectable whole, and no dead Copy button', async () => {
    await t.deps.developers.add({ email: 'noscript@example.com', password: DEVELOPER.password });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${prod}/portal/signin`);
    await page.getByLabel('Email').fill('noscript@example.com');
    await page.getByLabel('Password').fill(DEVELOPER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByLabel('Name').fill('No script shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Reveal key' }).click();
    await page.locator('#secret').waitFor();
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(false);
    expect(await page.locator('#secret').evaluate(userSelect)).toBe('all');
    await context.close();
  });

  it('the console pages its lists and shows the usage chart with axes', async () => {
    for (let i = 0; i < 60; i += 1) await t.deps.developers.add({ email: `crowd${i}@example.com` });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const ops = await context.newPage();
    await ops.goto(`${prod}/console/signin`);
    await ops.getByLabel('Email').fill(OPERATOR.email);
    await ops.getByLabel('Password').fill(OPERATOR.password);
    await ops.getByRole('button', { name: 'Sign in' }).click();
    await ops.goto(`${prod}/console/developers`);
    const developers = 3 + 60; // the fixture's integrator, the two signed up above, the crowd
    expect(await ops.locator('nav.pager').textContent()).toContain(`1–50 of ${developers}`);
    await shots(ops, 'console-developers');
    await ops.getByRole('link', { name: 'Next' }).click();
    expect(await ops.locator('nav.pager').textContent()).toContain(`51–${developers} of ${developers}`);
    const [key] = await t.deps.keys.list();
    await ops.goto(`${prod}/console/keys/${key?.id}`);
    expect(await ops.locator('figure.usage svg').textContent()).toContain('requests / day');
    await shots(ops, 'console-key');
    await context.close();
  });
});
