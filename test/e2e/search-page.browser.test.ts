import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: examples/search-page (InstantSearch.js on @vitrine/instantsearch), started by its
 * own command against a real listener with a publishable key for its origin: type, refine a
 * category, narrow the price range, go to page 2.
 */
requireChromium('the search page browser test');

const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!hasChromium)('examples/search-page in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let child: ChildProcess;
  let pageUrl: string;

  beforeAll(async () => {
    const apiPort = await freePort();
    const pagePort = await freePort();
    t = await createTestContext(
      'sqlite',
      { TESTING_PUBLIC_ORIGIN: `http://localhost:${apiPort}` },
      { environments: ['testing'] },
    );
    await t.apps.testing.listen({ port: apiPort, host: '127.0.0.1' });
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 600, seed: 25 })]);
    pageUrl = `http://localhost:${pagePort}/`;
    const key = await t.deps.keys.issue({
      projectId: t.fixtures.projectId,
      environment: 'testing',
      kind: 'publishable',
      allowedOrigins: [`http://localhost:${pagePort}`],
    });
    child = spawn(process.execPath, [path.join(root, 'examples/search-page/start.mjs')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(pagePort),
        VITRINE_BASE_URL: `http://localhost:${apiPort}/v1`,
        VITRINE_KEY: key.key,
      },
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
        if (out.includes('Search page on')) resolve();
      });
      child.stderr?.on('data', (chunk) => {
        out += String(chunk);
      });
      child.on('exit', (code) => reject(new Error(`start.mjs exited ${code}: ${out}`)));
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
    await t?.close();
  });

  const nbHits = async (page: Page) =>
    Number((await page.locator('#stats').innerText()).replace(/[^\d]/g, ''));

  it('types, refines, narrows the price and pages', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pageUrl);
    await expect.poll(() => nbHits(page)).toBeGreaterThan(0);
    const all = await nbHits(page);

    // Type: fewer offers, and the matched words highlighted.
    await page.locator('.ais-SearchBox-input').fill('sofa');
    await expect.poll(() => nbHits(page)).toBeLessThan(all);
    await expect.poll(() => page.locator('.ais-Hits-item mark').count()).toBeGreaterThan(0);
    const sofas = await nbHits(page);
    expect((await page.locator('.ais-Hits-item mark').first().innerText()).toLowerCase()).toContain('sofa');

    // Refine: a category's count is what the stats then say.
    await page.locator('.ais-SearchBox-input').fill('');
    await expect.poll(() => nbHits(page)).toBe(all);
    const first = page.locator('#category .ais-RefinementList-item').first();
    const count = Number(await first.locator('.ais-RefinementList-count').innerText());
    await first.locator('input').check();
    await expect.poll(() => nbHits(page)).toBe(count);

    // Page 2: other offers, the pager says so (reached through the first page's cursor).
    expect(count).toBeGreaterThan(10);
    const before = await page.locator('.ais-Hits-item h2').allInnerTexts();
    await page.locator('.ais-Pagination-item--page').nth(1).locator('a').click();
    await expect.poll(() => page.locator('.ais-Pagination-item--selected').innerText()).toBe('2');
    await expect
      .poll(async () => (await page.locator('.ais-Hits-item h2').allInnerTexts())[0])
      .not.toBe(before[0]);

    // Range: drag the lower handle right; fewer offers, none below the new minimum.
    const handle = page.locator('#price .rheostat-handle').first();
    const box = await handle.boundingBox();
    if (!box) throw new Error('no price slider handle');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => nbHits(page)).toBeLessThan(count);
    const narrowed = await nbHits(page);
    expect(narrowed).toBeGreaterThan(0);

    await page.screenshot({ path: path.join(ARTIFACTS, 'search-page.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(sofas).toBeGreaterThan(0);
    await page.close();
  }, 120_000);
});
