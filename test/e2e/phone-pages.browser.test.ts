import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { PHONE, phoneProblems, phoneProblemsAt, signInOnPhone } from '../support/phone.js';
import { freePort } from '../support/processes.js';
import { Receiver } from '../webhooks/receiver.js';

/**
 * Issue 25, the pages added since the phone-width list pages (phone-lists.browser.test.ts):
 * the portal's Webhooks pages (an endpoint with a delivery and its Resend button), the Account
 * page of both areas (two sessions, an End button), two-factor enrolment, recovery codes and the
 * code step, forgot-password and reset, the console's Developer access and Search settings (a
 * declared attribute in each environment, a synonym rule, one added through its form), and the forms and confirmations (sign-in, sign-up, a
 * project's form, roll and revoke, a signing secret). Each at 390 × 844: no sideways scrolling,
 * every action button inside the viewport, every table cell labelled with its column. The
 * changed list pages are also shot at 1280 px, where their tables stay tables.
 */
requireChromium('the phone-width pages test');

const DEVELOPER = {
  email: 'phone-pages-dev@example.com',
  password: 'phone-pages-dev-pw-1',
  name: 'Phone Dev',
};
const OPERATOR = { email: 'phone-pages-op@example.com', password: 'phone-pages-op-pw-1' };
const ACTOR = { kind: 'operator', id: null, email: OPERATOR.email, ip: null } as const;

describe.skipIf(!hasChromium)('the newer portal and console pages at 390 px (headless Chromium)', () => {
  let t: TestContext;
  let browser: Browser;
  let receiver: Receiver;
  let origin: string;
  let projectId: string;
  let developerId: string;
  let operatorId: string;
  let keyId: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    t = await createTestContext('sqlite', { PUBLIC_ORIGIN: origin, WEBHOOK_ALLOW_PRIVATE: 'true' });
    await t.apps.production.listen({ port, host: '127.0.0.1' });
    receiver = new Receiver();
    await receiver.start();
    developerId = (await t.deps.developers.add(DEVELOPER)).id;
    operatorId = (await t.deps.operators.add(OPERATOR)).id;
    const project = await t.deps.projects.add({
      name: 'A project with a rather long name for a small screen',
      ownerEmail: DEVELOPER.email,
      redirectUris: [],
    });
    projectId = project.id;
    const scope = { projectId, environment: 'testing' as const };
    const { endpoint } = await t.deps.webhooks.service.add(ACTOR, scope, {
      url: `${receiver.url}/a/rather/long/path/for/a/webhook/receiver/on/a/phone`,
    });
    receiver.plan = [500];
    await t.deps.webhooks.service.test(ACTOR, scope, endpoint.id);
    await t.deps.webhooks.dispatcher.runOnce();
    await t.deps.webhooks.service.test(ACTOR, scope, endpoint.id);
    await t.deps.webhooks.dispatcher.runOnce();
    for (const environment of ['production', 'testing'] as const) {
      await t.deps.searchSettings.setAttribute(ACTOR, environment, {
        name: 'energy_class_of_the_appliance',
        type: 'string',
        facet: true,
        sort: false,
        searchable: false,
      });
    }
    await t.deps.synonyms.add(
      ACTOR,
      'testing',
      ['television', 'tv', 'flat screen television set with a remarkably long name'],
      false,
    );
    keyId = (await t.deps.keys.issue({ projectId, environment: 'testing' })).record.id;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  const check = (page: Page, url: string, shot: string) => phoneProblemsAt(page, origin, url, shot);
  /** A page of a signed-out visitor, at phone width. */
  const anonymous = async () => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true });
    page.setDefaultTimeout(15_000);
    return page;
  };

  it('at 1280 px the changed list pages keep their tables (first: the developer has no second factor yet)', async () => {
    const desktop = { width: 1280, height: 900 };
    const portal = await signInOnPhone(browser, origin, 'portal', DEVELOPER, desktop);
    const consolePage = await signInOnPhone(browser, origin, 'console', OPERATOR, desktop);
    const [endpoint] = await t.deps.webhooks.service.list({ projectId });
    const pages: [Page, string, string][] = [
      [portal, '/portal/', 'portal-projects'],
      [portal, `/portal/projects/${projectId}`, 'portal-project'],
      [portal, `/portal/projects/${projectId}/webhooks`, 'portal-webhooks'],
      [portal, `/portal/projects/${projectId}/webhooks/${endpoint?.id}`, 'portal-webhook'],
      [consolePage, '/console/search-settings', 'console-search-settings'],
      [consolePage, '/console/audit', 'console-audit'],
      [consolePage, '/console/developers', 'console-developers'],
    ];
    const found: string[] = [];
    for (const [page, url, shot] of pages) {
      await page.goto(`${origin}${url}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `desktop-${shot}.png`), fullPage: true });
      const layout = await page.evaluate(() => {
        const doc = globalThis as unknown as {
          document: { documentElement: { scrollWidth: number }; querySelector(s: string): object | null };
          getComputedStyle(e: object): { display: string };
        };
        const table = doc.document.querySelector('main table');
        return {
          width: doc.document.documentElement.scrollWidth,
          display: table ? doc.getComputedStyle(table).display : 'table',
        };
      });
      if (layout.width > 1280 || layout.display !== 'table') found.push(`${url}: ${JSON.stringify(layout)}`);
    }
    expect(found).toEqual([]);
    await portal.close();
    await consolePage.close();
  }, 120_000);

  it('forms and confirmations: sign-in, sign-up, a project, roll and revoke, a signing secret', async () => {
    const visitor = await anonymous();
    const found = [
      ...(await check(visitor, '/portal/signin', 'portal-signin')),
      ...(await check(visitor, '/portal/signup', 'portal-signup')),
      ...(await check(visitor, '/console/signin', 'console-signin')),
    ];
    const page = await signInOnPhone(browser, origin, 'portal', DEVELOPER);
    for (const [url, shot] of [
      ['/portal/projects/new', 'portal-project-new'],
      [`/portal/projects/${projectId}/edit`, 'portal-project-edit'],
      [`/portal/keys/${keyId}/roll`, 'portal-key-roll'],
      [`/portal/keys/${keyId}/revoke`, 'portal-key-revoke'],
    ] as const) {
      found.push(...(await check(page, url, shot)));
    }
    const [endpoint] = await t.deps.webhooks.service.list({ projectId });
    await page.goto(`${origin}/portal/projects/${projectId}/webhooks/${endpoint?.id}`);
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    await page.getByRole('heading', { name: /Signing secret of/ }).waitFor();
    found.push(...(await phoneProblems(page, 'signing secret', 'portal-webhook-secret')));
    const ops = await signInOnPhone(browser, origin, 'console', OPERATOR);
    found.push(...(await check(ops, `/console/keys/${keyId}/revoke`, 'console-key-revoke')));
    found.push(...(await check(ops, `/console/keys/${keyId}/revoke-refresh`, 'console-key-revoke-refresh')));
    expect(found).toEqual([]);
    for (const p of [visitor, page, ops]) await p.close();
  }, 120_000);

  it('portal: webhooks, an endpoint with its deliveries, the account, two-factor, forgot and reset', async () => {
    const other = await signInOnPhone(browser, origin, 'portal', DEVELOPER); // a second session
    const page = await signInOnPhone(browser, origin, 'portal', DEVELOPER);
    const [endpoint] = await t.deps.webhooks.service.list({ projectId });
    const found = [
      ...(await check(page, `/portal/projects/${projectId}/webhooks`, 'portal-webhooks')),
      ...(await check(page, `/portal/projects/${projectId}/webhooks/${endpoint?.id}`, 'portal-webhook')),
      ...(await check(page, '/portal/account', 'portal-account')),
    ];
    await page.goto(`${origin}/portal/projects/${projectId}/webhooks/${endpoint?.id}`);
    expect(await page.getByRole('button', { name: 'Resend' }).count()).toBe(1); // the 500 waits for its retry
    await page.goto(`${origin}/portal/account`);
    expect(await page.getByRole('button', { name: 'End this session' }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    found.push(...(await phoneProblems(page, 'enrolment', 'portal-enrol')));
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
    await page
      .getByLabel('Code from the app')
      .fill(await generate({ secret, epoch: Math.floor(t.clock.now() / 1000) }));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    found.push(...(await phoneProblems(page, 'recovery codes', 'portal-recovery-codes')));
    found.push(...(await check(page, '/portal/account', 'portal-account-two-factor')));

    const visitor = await anonymous();
    found.push(...(await check(visitor, '/portal/forgot', 'portal-forgot')));
    const reset = await t.deps.accountRecovery.resetLink({ kind: 'developer' }, developerId);
    found.push(
      ...(await check(visitor, new URL(reset.link).pathname + new URL(reset.link).search, 'portal-reset')),
    );
    await visitor.goto(`${origin}/portal/signin`);
    await visitor.getByLabel('Email').fill(DEVELOPER.email);
    await visitor.getByLabel('Password').fill(DEVELOPER.password);
    await visitor.getByRole('button', { name: /Sign in/ }).click();
    await visitor.getByRole('heading', { name: 'Enter your code' }).waitFor();
    found.push(...(await phoneProblems(visitor, 'code step', 'portal-code')));
    expect(found).toEqual([]);
    for (const p of [other, page, visitor]) await p.close();
  }, 120_000);

  it('console: the account, developer access, search settings, forgot and reset', async () => {
    const other = await signInOnPhone(browser, origin, 'console', OPERATOR);
    const page = await signInOnPhone(browser, origin, 'console', OPERATOR);
    const found = [
      ...(await check(page, '/console/account', 'console-account')),
      ...(await check(page, '/console/developer-access', 'console-developer-access')),
      ...(await check(page, '/console/search-settings', 'console-search-settings')),
    ];
    // Two attributes and one synonym rule; a rule added through the page's form, at phone width.
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(3);
    await page.locator('#words-production').fill('sofa, couch, settee');
    await page
      .locator('section[aria-labelledby="synonyms-production"]')
      .getByRole('button', { name: 'Add synonyms' })
      .click();
    await page.getByText('Synonyms added').waitFor();
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(4);
    found.push(...(await phoneProblems(page, 'synonym added', 'console-search-settings-synonyms')));
    expect((await t.deps.synonyms.list('production')).map((r) => r.words)).toEqual([
      ['sofa', 'couch', 'settee'],
    ]);
    const visitor = await anonymous();
    found.push(...(await check(visitor, '/console/forgot', 'console-forgot')));
    const reset = await t.deps.accountRecovery.resetLink({ kind: 'operator' }, operatorId);
    found.push(
      ...(await check(visitor, new URL(reset.link).pathname + new URL(reset.link).search, 'console-reset')),
    );
    expect(found).toEqual([]);
    for (const p of [other, page, visitor]) await p.close();
  }, 120_000);
});
