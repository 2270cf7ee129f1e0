import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/keys/key-format.js';
import { ARTIFACTS, hasChromium, launchChromium, requireChromium } from '../support/browser.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * Issue 5's story in a real browser (Debian's chromium driven by playwright-core; never a
 * downloaded browser), against both environments listening on free loopback ports: a developer
 * signs up, creates a project, gets a testing key at once and calls the API with it; applies
 * for a production key with the refresh permission; an operator approves and grants it; the
 * developer reveals the key once; it works on production only; the operator revokes it.
 * Screenshots of each main page go to test-artifacts/ (git-ignored).
 */
requireChromium('the portal browser test');

const DEVELOPER = { name: 'Dana Developer', email: 'dana@example.com', password: 'dana-portal-pw-1' };
const OPERATOR = { email: 'operator@example.com', password: 'operator-pw-1234' };
const DEST = 'https://app.example.com/callback';

describe.skipIf(!hasChromium)('the portal and console story in a browser', () => {
  let t: TestContext;
  let browser: Browser;
  let prod: string;
  let testing: string;

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    t = await createTestContext('sqlite');
    await t.deps.operators.add(OPERATOR);
    prod = await t.apps.production.listen({ port: 0, host: '127.0.0.1' });
    testing = await t.apps.testing.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `portal-${name}.png`), fullPage: true });
  const call = (origin: string, key: string) =>
    fetch(`${origin}/v1/offers/`, { headers: { 'x-api-key': key } });

  it('walks from sign-up to a revoked production key, and audits every step', async () => {
    const dev = await (await browser.newContext()).newPage();
    const ops = await (await browser.newContext()).newPage();

    // 1. Sign up.
    await dev.goto(`${prod}/portal/signup`);
    await shot(dev, '01-signup');
    await dev.getByLabel('Name').fill(DEVELOPER.name);
    await dev.getByLabel('Email').fill(DEVELOPER.email);
    await dev.getByLabel('Password').fill(DEVELOPER.password);
    await dev.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => dev.url()).toBe(`${prod}/portal/`);
    expect(await dev.getByText('You have no project yet').count()).toBe(1);
    await shot(dev, '02-dashboard-empty');

    // 2. A project with a redirect destination.
    await dev.getByRole('link', { name: 'New project', exact: true }).first().click();
    await dev.getByLabel('Name').fill('Dana shop');
    await dev.getByLabel('Description').fill('Finds bikes near you.');
    await dev.getByLabel('Redirect destinations').fill(DEST);
    await shot(dev, '03-project-new');
    await dev.getByRole('button', { name: 'Create project' }).click();
    await dev.getByRole('heading', { name: 'Dana shop' }).waitFor();
    const projectUrl = dev.url();
    expect(await dev.locator('dd code', { hasText: DEST }).count()).toBe(1);

    // 3. A testing key at once, revealed once, works over HTTP.
    await dev.getByLabel('Environment').selectOption('testing');
    await dev.getByRole('button', { name: 'Apply' }).click();
    await dev.getByText('Your testing key is issued').waitFor();
    await shot(dev, '04-project-testing-issued');
    await dev.getByRole('button', { name: 'Reveal key' }).click();
    const testingKey = (await dev.locator('#secret').textContent()) ?? '';
    expect(testingKey).toMatch(/^vk_test_/);
    await shot(dev, '05-key-revealed');
    expect((await call(testing, testingKey)).status).toBe(200);

    // 4. A production key waits for the confirmed address (issue 27): the link from the mail.
    await t.deps.mailer.drain();
    const outbox = path.join(t.deps.config.dataDir, 'outbox');
    const mail = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))[0] ?? '';
    const link =
      /http\S+\/portal\/verify\?token=[\w-]+/.exec(mail.replace(/=\r?\n/g, '').replaceAll('=3D', '='))?.[0] ??
      '';
    await dev.goto(`${prod}${new URL(link).pathname}${new URL(link).search}`);
    await dev.getByRole('heading', { name: 'Email address confirmed' }).waitFor();

    // 5. A production key with the refresh permission: pending.
    await dev.goto(projectUrl);
    await dev.getByLabel('Environment').selectOption('production');
    await dev.getByLabel('Ask for the refresh permission').check();
    await dev.getByLabel('Why does your app need refresh tokens?').fill('Keeps users signed in on our app.');
    await dev.getByRole('button', { name: 'Apply' }).click();
    await dev.getByText('Application sent').waitFor();
    expect(await dev.locator('.state-pending').count()).toBe(1);
    await shot(dev, '06-project-pending');

    // 6. The operator approves and grants the refresh permission.
    await ops.goto(`${prod}/console/`);
    await ops.getByLabel('Email').fill(OPERATOR.email);
    await ops.getByLabel('Password').fill(OPERATOR.password);
    await shot(ops, '07-console-signin');
    await ops.getByRole('button', { name: 'Sign in as operator' }).click();
    await ops.getByRole('heading', { name: 'Applications' }).waitFor();
    expect(await ops.getByText('Keeps users signed in on our app.').count()).toBe(1);
    await shot(ops, '08-console-queue');
    expect(await ops.getByLabel('grant refresh').isChecked()).toBe(true);
    await ops.getByRole('button', { name: 'Approve' }).click();
    await ops.getByText('Application approved').waitFor();

    // 7. The developer reveals the production key once.
    await dev.goto(projectUrl);
    await dev.getByRole('button', { name: 'Reveal key' }).click();
    const prodKey = (await dev.locator('#secret').textContent()) ?? '';
    expect(prodKey).toMatch(/^vk_prod_/);
    await dev.goto(projectUrl);
    expect(await dev.getByRole('button', { name: 'Reveal key' }).count()).toBe(0);
    await shot(dev, '09-project-keys');
    const prodRecord = await t.deps.keys.findByHash(hashApiKey(prodKey));
    expect(prodRecord?.refreshAllowed).toBe(true);

    // 8. It works on production, not on testing.
    expect((await call(prod, prodKey)).status).toBe(200);
    const wrong = await call(testing, prodKey);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { code: string }).code).toBe('api_key_wrong_environment');
    await t.deps.usageMeter?.stop(); // flush the usage counts now rather than after USAGE_FLUSH_MS
    await dev.goto(`${prod}/portal/keys/${prodRecord?.id}`);
    expect(await dev.locator('figcaption').textContent()).toMatch(/^[1-9]\d* requests? in the last 30 days/);
    await shot(dev, '10-key-usage');

    // 9. The operator revokes it; the next call is refused.
    await ops.goto(`${prod}/console/keys/${prodRecord?.id}`);
    await shot(ops, '11-console-key');
    await ops.getByRole('link', { name: 'Revoke this key…' }).click();
    await ops.getByLabel('To confirm, type').fill(String(prodRecord?.id));
    await shot(ops, '12-console-confirm-revoke');
    await ops.getByRole('button', { name: 'Revoke the key' }).click();
    await ops.getByText('Key revoked.').waitFor();
    const revoked = await call(prod, prodKey);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { code: string }).code).toBe('api_key_revoked');
    await ops.goto(`${prod}/console/audit`);
    await shot(ops, '13-console-audit');

    // 10. The audit log holds every action of the story.
    const actions = (await t.deps.audit.list({ limit: 1000 }))
      .map((e) => `${e.actorKind}:${e.action}`)
      .reverse();
    expect(actions).toEqual([
      'developer:developer.signup',
      'developer:developer.signin',
      'developer:project.create',
      'developer:application.create',
      'system:application.approve',
      'developer:key.reveal',
      'developer:application.create',
      'operator:operator.signin',
      'operator:application.approve',
      'operator:key.grant_refresh',
      'developer:key.reveal',
      'operator:key.revoke',
    ]);
  }, 120_000);
});
