import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { phoneProblemsAt, signInOnPhone } from '../support/phone.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: every portal and console list page works on a 390 × 844 phone: the page never
 * scrolls sideways and every action button is inside the viewport (rows become stacked cards).
 * The console's navigation says how many applications wait.
 */
requireChromium('the phone-width list pages test');

const DEVELOPER = { email: 'phone-dev@example.com', password: 'phone-dev-password-1', name: 'Phone Dev' };
const OPERATOR = { email: 'phone-op@example.com', password: 'phone-op-password-1' };

describe.skipIf(!hasChromium)('portal and console lists at 390 px (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let origin: string;
  let projectId: string;
  let keyId: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    t = await createTestContext('sqlite', { PUBLIC_ORIGIN: origin });
    await t.apps.production.listen({ port, host: '127.0.0.1' });
    await t.deps.developers.add(DEVELOPER);
    await t.deps.operators.add(OPERATOR);
    const project = await t.deps.projects.add({
      name: 'A project with a rather long name for a small screen',
      ownerEmail: DEVELOPER.email,
      redirectUris: ['https://a-long-host-name.example.com/callback/after/login'],
    });
    projectId = project.id;
    await t.deps.applications.apply({
      projectId,
      environment: 'testing',
      wantsRefresh: true,
      refreshReason: 'sync',
    });
    await t.deps.applications.apply({
      projectId,
      environment: 'production',
      wantsRefresh: true,
      refreshReason: 'a reason',
    });
    const issued = await t.deps.keys.issue({ projectId, environment: 'testing' });
    keyId = issued.record.id;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signIn = (area: 'portal' | 'console', who: { email: string; password: string }) =>
    signInOnPhone(browser, origin, area, who);
  const problems = (page: Page, url: string, shot: string) => phoneProblemsAt(page, origin, url, shot);

  it('portal: projects, a project, a key', async () => {
    const page = await signIn('portal', DEVELOPER);
    const found = [
      ...(await problems(page, '/portal/', 'portal-projects')),
      ...(await problems(page, `/portal/projects/${projectId}`, 'portal-project')),
      ...(await problems(page, `/portal/keys/${keyId}`, 'portal-key')),
    ];
    expect(found).toEqual([]);
    // The testing key was issued at once, without the refresh permission it asked for: said so.
    await page.goto(`${origin}/portal/projects/${projectId}`);
    await expect(page.locator('main').innerText()).resolves.toContain('not granted');
    await page.close();
  }, 120_000);

  it('console: applications, keys, a key, projects, developers, audit; the pending count in the navigation', async () => {
    const page = await signIn('console', OPERATOR);
    const found: string[] = [];
    for (const [url, shot] of [
      ['/console/applications', 'console-applications'],
      ['/console/keys', 'console-keys'],
      [`/console/keys/${keyId}`, 'console-key'],
      ['/console/projects', 'console-projects'],
      ['/console/developers', 'console-developers'],
      ['/console/audit', 'console-audit'],
    ] as const) {
      found.push(...(await problems(page, url, shot)));
    }
    expect(found).toEqual([]);
    await page.goto(`${origin}/console/keys`);
    await expect(page.locator('header nav').innerText()).resolves.toContain('Applications (1 pending)');
    await page.close();
  }, 120_000);
});
