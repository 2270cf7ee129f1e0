import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * `@vitrine/client` in a real browser with a publishable key (issue 15): the SDK, bundled from
 * its sources as a browser would load it, searches and pages from a page on an allowed origin;
 * from another origin CORS stops it and the SDK reports `network_error`.
 */
requireChromium('the SDK browser test');

/** The page: loads the SDK as an ES module, searches, pages with searchAll, keeps the outcome. */
function page(api: string, key: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>SDK shop</title></head><body>
<p id="status">searching…</p>
<script type="module">
import { Vitrine, VitrineError } from '/vitrine-client.js';
const vitrine = new Vitrine({ baseUrl: ${JSON.stringify(`${api}/v1`)}, apiKey: ${JSON.stringify(key)}, maxRetries: 0 });
window.outcome = (async () => {
  try {
    const page = await vitrine.offers.search({ limit: 2, facets: 'category' });
    let all = 0;
    for await (const _offer of vitrine.offers.searchAll({ limit: 5 })) all += 1;
    document.getElementById('status').textContent = 'found ' + page.total.value;
    return { ok: true, total: page.total.value, count: page.data.length, all, facets: page.facets.category.length };
  } catch (error) {
    return { ok: false, isVitrineError: error instanceof VitrineError, code: error.code, status: error.status };
  }
})();
</script></body></html>`;
}

describe.skipIf(!hasChromium)(
  '@vitrine/client in a browser with a publishable key',
  { timeout: 120_000 },
  () => {
    let t: TestContext;
    let browser: Browser;
    const servers: http.Server[] = [];
    const pages = { allowed: '', other: '' };

    beforeAll(async () => {
      const apiPort = await freePort();
      const api = `http://127.0.0.1:${apiPort}`;
      t = await createTestContext('sqlite', { TESTING_PUBLIC_ORIGIN: api }, { environments: ['testing'] });
      await t.apps.testing.listen({ port: apiPort, host: '127.0.0.1' });
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 30, seed: 15 })]);
      const bundle = await build({
        entryPoints: [path.resolve('packages/client/src/index.ts')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
      });
      const sdk = bundle.outputFiles[0]?.text ?? '';
      const ports = { allowed: await freePort(), other: await freePort() };
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: [`http://localhost:${ports.allowed}`],
      });
      for (const name of ['allowed', 'other'] as const) {
        const server = http.createServer((request, response) => {
          if (request.url === '/vitrine-client.js') {
            response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(sdk);
          } else {
            response
              .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(page(api, issued.key));
          }
        });
        await new Promise<void>((resolve) => server.listen(ports[name], '127.0.0.1', resolve));
        servers.push(server);
        pages[name] = `http://localhost:${ports[name]}/`;
      }
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
      await t?.close();
    });

    const outcomeOf = async (url: string) => {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(url);
      await tab.waitForFunction('window.outcome !== undefined');
      const outcome = (await tab.evaluate('window.outcome')) as Record<string, unknown>;
      await context.close();
      return outcome;
    };

    it('searches and pages every result from an allowed origin', async () => {
      const outcome = await outcomeOf(pages.allowed);
      expect(outcome).toMatchObject({ ok: true, count: 2 });
      expect(outcome.all).toBe(outcome.total);
      expect(Number(outcome.total)).toBeGreaterThan(5);
      expect(Number(outcome.facets)).toBeGreaterThan(0);
    });

    it('from another origin, CORS stops it and the SDK says network_error', async () => {
      expect(await outcomeOf(pages.other)).toEqual({
        ok: false,
        isVitrineError: true,
        code: 'network_error',
        status: 0,
      });
    });
  },
);
