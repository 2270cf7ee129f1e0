import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: the testing listener's `/docs` describes the testing environment, so "Try it" with a
 * testing key, as a newcomer pastes it, answers 200; no optional parameter is filled in for them.
 */
requireChromium('the /docs Try-it browser test');

describe.skipIf(!hasChromium)('/docs "Try it" with a testing key (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    t = await createTestContext('sqlite', { TESTING_PUBLIC_ORIGIN: origin }, { environments: ['testing'] });
    await t.apps.testing.listen({ port, host: '127.0.0.1' });
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 30, seed: 25 })]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('authorizes with the key, runs the search as given, and gets 200', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e}\n`));
    await page.goto(`${origin}/docs`);
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(t.fixtures.keys.testing.key);
    await dialog.locator('.auth-btn-wrapper button.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();

    const operation = page.locator('#operations-offers-searchOffers');
    await operation.locator('.opblock-summary').click();
    // Nothing pre-filled: every parameter input is empty (the browser sends only what you type).
    const values = await operation
      .locator('.parameters input')
      .evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
    expect(values.filter((v) => v !== '')).toEqual([]);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 15_000 }).toBe('200');
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-try-it.png'), fullPage: false });
    await page.close();
  }, 60_000);
});
