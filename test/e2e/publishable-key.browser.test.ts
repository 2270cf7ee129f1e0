import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 16 in a real browser: a shop's page, served from an origin its publishable key allows,
 * searches the API with `fetch` (a cross-origin request with `X-Api-Key`, so Chromium sends a
 * CORS preflight first); the same page served from another origin is stopped by CORS, and so is
 * a page that tries the secret key. What `app.inject()` cannot show: that Chromium itself
 * accepts our preflight and response headers, and refuses when they are absent.
 *
 * Needs /usr/bin/chromium: skipped loudly on a laptop without it, a failure under CI=true.
 */
requireChromium('the publishable-key browser test');

/** The shop's page: searches on load and keeps the outcome in `window.outcome` and the DOM. */
function shopPage(api: string, key: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop</h1><ul id="offers"></ul><p id="status">searching…</p>
<script>
window.outcome = fetch(${JSON.stringify(`${api}/v1/offers/?limit=3`)}, {
  headers: { 'X-Api-Key': ${JSON.stringify(key)} },
})
  .then(async (response) => {
    const body = await response.json();
    for (const offer of body.data ?? []) {
      const li = document.createElement('li');
      li.textContent = offer.title;
      document.getElementById('offers').append(li);
    }
    document.getElementById('status').textContent = 'found ' + body.total.value;
    return {
      fetched: true,
      status: response.status,
      count: (body.data ?? []).length,
      requestId: response.headers.get('X-Request-Id'),
      rateLimit: response.headers.get('RateLimit-Limit'),
    };
  })
  .catch((error) => {
    document.getElementById('status').textContent = 'refused: ' + error;
    return { fetched: false, error: String(error) };
  });
</script></body></html>`;
}

function pageServer(html: () => string): http.Server {
  return http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html());
  });
}

describe.skipIf(!hasChromium)('publishable key in a browser (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let api: string;
  let pub: string;
  const servers: http.Server[] = [];
  const pages: Record<'allowed' | 'other' | 'secret', string> = { allowed: '', other: '', secret: '' };
  /** Preflights the API answered, from its request metrics (Playwright does not show them). */
  const preflights = async () => {
    const metric = await t.deps.metrics.httpRequests.get();
    return metric.values
      .filter((v) => v.labels.method === 'OPTIONS' && v.labels.env === 'testing')
      .reduce((sum, v) => sum + v.value, 0);
  };

  beforeAll(async () => {
    const apiPort = await freePort();
    api = `http://127.0.0.1:${apiPort}`;
    t = await createTestContext(
      'sqlite',
      { TESTING_PUBLIC_ORIGIN: api, RATE_LIMITING: 'true' },
      { environments: ['testing'] },
    );
    await t.apps.testing.listen({ port: apiPort, host: '127.0.0.1' });
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 20, seed: 16 })]);

    const ports = { allowed: await freePort(), other: await freePort(), secret: await freePort() };
    // Page origins are `http://localhost:<port>`: http is allowed on localhost (SPEC §3).
    const allowedOrigin = `http://localhost:${ports.allowed}`;
    const issued = await t.deps.keys.issue({
      projectId: t.fixtures.projectId,
      environment: 'testing',
      kind: 'publishable',
      allowedOrigins: [allowedOrigin, `http://localhost:${ports.secret}`],
    });
    pub = issued.key;
    for (const [name, port] of Object.entries(ports) as ['allowed' | 'other' | 'secret', number][]) {
      const key = name === 'secret' ? t.fixtures.keys.testing.key : pub;
      const server = pageServer(() => shopPage(api, key));
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      servers.push(server);
      pages[name] = `http://localhost:${port}/`;
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    await t?.close();
  });

  const visit = async (url: string, screenshot: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    // A string: this file is type-checked without the DOM library.
    const outcome = await page.evaluate('window.outcome');
    await page.screenshot({ path: path.join(ARTIFACTS, screenshot), fullPage: true });
    await context.close();
    return outcome as {
      fetched: boolean;
      status?: number;
      count?: number;
      requestId?: string | null;
      rateLimit?: string | null;
      error?: string;
    };
  };

  it('searches from a page on an allowed origin: preflight passed, results and exposed headers read', async () => {
    const before = await preflights();
    const outcome = await visit(pages.allowed, 'publishable-allowed-origin.png');
    expect(outcome).toMatchObject({ fetched: true, status: 200, count: 3 });
    expect(outcome.requestId).toMatch(/^req_/);
    expect(outcome.rateLimit).toBe('10');
    expect(await preflights()).toBeGreaterThan(before);
  });

  it('is refused by CORS from a page on another origin', async () => {
    const outcome = await visit(pages.other, 'publishable-other-origin.png');
    expect(outcome.fetched).toBe(false);
    expect(outcome.error).toContain('Failed to fetch');
  });

  it('cannot read what a secret key returns, even from an allowed origin', async () => {
    const outcome = await visit(pages.secret, 'secret-key-in-browser.png');
    expect(outcome.fetched).toBe(false);
    expect(outcome.error).toContain('Failed to fetch');
  });
});
