import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 16 on the portal and console, and the per-address rate limit of publishable keys, on
 * both backends.
 */
const DEV = { email: 'pia@example.com', password: 'pia-portal-pw-12' };
const OPS = { email: 'otto@example.com', password: 'otto-console-pw1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(
    `publishable keys on the portal, offers:write on the console (${dialect})`,
    () => {
      let t: TestContext;
      let dev: PageAgent;
      let ops: PageAgent;
      let project: string;
      beforeAll(async () => {
        t = await createTestContext(dialect);
        await t.deps.operators.add(OPS);
        dev = new PageAgent(t.apps.production, '10.2.0.1');
        ops = new PageAgent(t.apps.production, '10.2.0.2');
        await dev.signUp(DEV.email, DEV.password);
        await ops.signIn('console', OPS.email, OPS.password);
        project = await dev.createProject('Pia shop');
      });
      afterAll(async () => {
        await t.close();
      });

      it('creates a publishable key without approval, shows it once with origins, filters and a fetch snippet', async () => {
        const page = await dev.get(`/portal/projects/${project}`);
        expect(page.body).toContain('Create a publishable key');
        const res = await dev.post(`/portal/projects/${project}/publishable-keys`, {
          environment: 'testing',
          origins: 'https://pia.example\r\nhttp://localhost:5173\r\n',
          filters: 'category=books\ncountry=fr',
        });
        expect(res.statusCode).toBe(200);
        const key = /id="secret">(vk_pub_test_\w+)</.exec(res.body)?.[1] as string;
        expect(key).toBeTruthy();
        expect(res.body).toContain('<code>https://pia.example</code>, <code>http://localhost:5173</code>');
        expect(res.body).toContain('category=books, country=FR');
        // The snippet: a browser fetch of the testing {base_url} with this key.
        expect(res.body).toContain('const response = await fetch(');
        expect(res.body).toContain(`&#39;X-Api-Key&#39;: &#39;${key}&#39;`);
        expect(res.body).toContain('http://localhost:8081/v1/offers/?');
        // It works at once, from its origin, and only there.
        const api = t.apps.testing;
        const ok = await api.inject({
          url: '/v1/offers/',
          headers: { 'x-api-key': key, origin: 'https://pia.example' },
        });
        expect(ok.statusCode).toBe(200);
        const listed = await dev.get(`/portal/projects/${project}`);
        expect(listed.body).toContain('publishable');
        expect(listed.body).toContain('https://pia.example http://localhost:5173');
        // The key page shows the snippet again, with a placeholder (only the hash is kept).
        const keyId = (await t.deps.keys.list({ projectId: project }))[0]?.id as string;
        const keyPage = await dev.get(`/portal/keys/${keyId}`);
        expect(keyPage.body).toContain('Search from a page');
        expect(keyPage.body).not.toContain(key);
        const audit = await t.deps.audit.list({ target: keyId, limit: 10 });
        expect(audit.map((e) => e.action)).toEqual(['key.issue']);
        expect(audit[0]?.detail).toMatchObject({
          kind: 'publishable',
          allowedOrigins: ['https://pia.example', 'http://localhost:5173'],
        });
        expect(JSON.stringify(audit)).not.toContain(key);
      });

      it('refuses a bad origin with the form again and a reason', async () => {
        await dev.get(`/portal/projects/${project}`);
        const res = await dev.post(`/portal/projects/${project}/publishable-keys`, {
          environment: 'testing',
          origins: 'https://*.pia.example',
        });
        expect(res.statusCode).toBe(400);
        expect(res.body).toContain('without path, query or wildcard');
      });

      it('grants and withdraws offers:write from the console, audited', async () => {
        const { id } = t.fixtures.keys.production;
        const page = await ops.get(`/console/keys/${id}`);
        expect(page.body).toContain('Grant offers:write');
        const granted = await ops.post(`/console/keys/${id}/grant-write`);
        expect(granted.statusCode).toBe(303);
        expect((await t.deps.keys.get(id))?.writeAllowed).toBe(true);
        expect((await ops.get(String(granted.headers.location))).body).toContain('Withdraw offers:write');
        await ops.post(`/console/keys/${id}/revoke-write`);
        expect((await t.deps.keys.get(id))?.writeAllowed).toBe(false);
        const audit = await t.deps.audit.list({ target: id, limit: 10 });
        expect(audit.map((e) => e.action)).toEqual(['key.revoke_write', 'key.grant_write']);
        expect(audit[0]?.actorEmail).toBe(OPS.email);
      });
    },
  );

  describe.skipIf(!available)(`rate limit of publishable keys per client address (${dialect})`, () => {
    let t: TestContext;
    afterEach(async () => {
      await t?.close();
    });

    it('limits each visitor on its own, so one cannot spend the key’s whole plan', async () => {
      t = await createTestContext(dialect, {
        RATE_LIMITING: 'true',
        RATE_LIMIT_TESTING: '5',
        RATE_LIMIT_PUBLISHABLE_ADDRESS: '2',
      });
      const { key } = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://shop.example'],
      });
      const from = (remoteAddress: string) =>
        t.apps.testing.inject({ url: '/v1/offers/?limit=1', remoteAddress, headers: { 'x-api-key': key } });
      expect((await from('203.0.113.1')).statusCode).toBe(200);
      expect((await from('203.0.113.1')).statusCode).toBe(200);
      const refused = await from('203.0.113.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        code: 'rate_limited',
        detail: 'A publishable key allows 2 requests per second from one client address. Retry after 1 s.',
      });
      expect(refused.headers['retry-after']).toBe('1');
      // Another visitor still gets through, until the key's own plan (5/s) is spent.
      expect((await from('203.0.113.2')).statusCode).toBe(200);
      expect((await from('203.0.113.2')).statusCode).toBe(200);
      expect((await from('203.0.113.3')).statusCode).toBe(200);
      const keyPlan = await from('203.0.113.4');
      expect(keyPlan.statusCode).toBe(429);
      expect(keyPlan.json().detail).toBe(
        'This key allows 5 requests per second (bursts of up to 5). Retry after 1 s.',
      );
      // Time heals both.
      t.clock.advance(1000);
      expect((await from('203.0.113.1')).statusCode).toBe(200);
    });
  });
}
