import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: the query playground on a project page: pick a key, a query and filters, see the
 * offers and facets, and the same request as curl, which answers the same when run with the key.
 */
requireChromium('the portal playground browser test');

const DEVELOPER = { email: 'play@example.com', password: 'play-password-123', name: 'Play' };

describe.skipIf(!hasChromium)('portal query playground (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let production: string;
  let testing: string;
  let projectId: string;
  let secret: string;

  beforeAll(async () => {
    const [port, testingPort] = [await freePort(), await freePort()];
    production = `http://localhost:${port}`;
    testing = `http://localhost:${testingPort}`;
    t = await createTestContext('sqlite', { PUBLIC_ORIGIN: production, TESTING_PUBLIC_ORIGIN: testing });
    await t.apps.production.listen({ port, host: '127.0.0.1' });
    await t.apps.testing.listen({ port: testingPort, host: '127.0.0.1' });
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 300, seed: 7 })]);
    await t.deps.developers.add(DEVELOPER);
    projectId = (await t.deps.projects.add({ name: 'Playground', ownerEmail: DEVELOPER.email })).id;
    secret = (await t.deps.keys.issue({ projectId, environment: 'testing' })).key;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs a search as the chosen key and shows it as curl and SDK code', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${production}/portal/signin`);
    await page.getByLabel('Email').fill(DEVELOPER.email);
    await page.getByLabel('Password').fill(DEVELOPER.password);
    await page.getByRole('button', { name: /Sign in/ }).click();
    await page.goto(`${production}/portal/projects/${projectId}`);
    // Production has no offers here: the page says so, with the import commands.
    const hint = await page.locator('#empty-environments').innerText();
    expect(hint).toContain('production environment has no offers yet');
    expect(hint).toContain('vitrine import --env production');
    expect(hint).not.toContain('testing');

    const form = page.locator('#playground form');
    await form.getByLabel('Query').fill('sofa');
    await form.getByLabel('Currency').fill('EUR');
    await form.getByLabel('Sort', { exact: true }).selectOption('price');
    await form.getByRole('button', { name: 'Search' }).click();
    const total = Number((await page.locator('#playground-total').innerText()).replace(/\D/g, ''));
    expect(total).toBeGreaterThan(0);
    expect(await page.locator('.playground-hits li').count()).toBe(Math.min(total, 5));
    await expect(page.locator('#playground').innerText()).resolves.toMatch(/category: \w+/);

    // The curl line is the same request: run with the key, it answers the same total.
    const curl = (await page.locator('#playground pre').first().innerText()).trim();
    const url = /'(http[^']+)'/.exec(curl)?.[1] ?? '';
    expect(url.startsWith(`${testing}/v1/offers/?`)).toBe(true);
    const answer = await fetch(url, { headers: { 'x-api-key': secret } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { total: { value: number } }).total.value).toBe(total);
    await expect(page.locator('#playground pre').nth(1).innerText()).resolves.toContain(
      'vitrine.offers.search({"q":"sofa"',
    );

    // Copy buttons under both snippets.
    await page.locator('#playground').getByRole('button', { name: 'Copy this snippet' }).first().click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(curl);
    await page.locator('#playground').screenshot({ path: path.join(ARTIFACTS, 'portal-playground.png') });

    // A bad value is named, as the API would name it.
    await form.getByLabel('Highest price').fill('cheap');
    await form.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('#playground [role=alert]').innerText()).resolves.toContain('priceMax');
    await context.close();
  }, 120_000);
});
