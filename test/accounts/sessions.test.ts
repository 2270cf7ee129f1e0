import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 27: each account lists its own live sessions (signed in, last seen, address, browser) and
 * ends any other; an operator ends every session of a developer. On both backends.
 */
const DEV = { email: 'sami@example.com', password: 'sami-portal-pw-01' };
const OPS = { email: 'oona@example.com', password: 'oona-console-pw1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`sessions of an account on ${dialect}`, () => {
    let t: TestContext;
    let laptop: PageAgent;
    let phone: PageAgent;

    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.operators.add(OPS);
      laptop = new PageAgent(t.apps.production, '10.4.0.1');
      phone = new PageAgent(t.apps.production, '10.4.0.2');
      await laptop.signUp(DEV.email, DEV.password);
      await phone.signIn('portal', DEV.email, DEV.password);
    });
    afterAll(async () => {
      await t.close();
    });

    it('lists the sessions with their address and ends another one', async () => {
      const page = await laptop.get('/portal/account');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('10.4.0.1');
      expect(page.body).toContain('10.4.0.2');
      expect(page.body).toContain('This session');
      const end = /action="(\/portal\/account\/sessions\/wss_\w+\/end)"/.exec(page.body)?.[1];
      expect(end).toBeDefined();
      expect((await laptop.post(end as string)).statusCode).toBe(303);
      expect((await phone.get('/portal/')).statusCode).toBe(303);
      expect((await laptop.get('/portal/account')).body).toContain('The session has ended.');
      expect((await laptop.get('/portal/')).statusCode).toBe(200);
    });

    it("refuses to end another account's session", async () => {
      const ops = new PageAgent(t.apps.production, '10.4.0.3');
      await ops.signIn('console', OPS.email, OPS.password);
      const mine = await t.deps.sessions.list(
        'developer',
        (await t.deps.developers.findByEmail(DEV.email))?.id ?? '',
      );
      await ops.get('/console/account');
      const res = await ops.post(`/console/account/sessions/${mine[0]?.id}/end`);
      expect(res.statusCode).toBe(404);
      expect((await laptop.get('/portal/')).statusCode).toBe(200);
    });

    it('an operator ends every session of a developer, audited', async () => {
      await phone.signIn('portal', DEV.email, DEV.password);
      const ops = new PageAgent(t.apps.production, '10.4.0.4');
      await ops.signIn('console', OPS.email, OPS.password);
      expect((await ops.get('/console/developers')).body).toContain('href="/console/developer-access"');
      await ops.get('/console/developer-access');
      const done = await ops.post('/console/developer-access', { email: DEV.email, action: 'end-sessions' });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('2 sessions of sami@example.com ended.');
      expect((await laptop.get('/portal/')).statusCode).toBe(303);
      expect((await phone.get('/portal/')).statusCode).toBe(303);
      const entries = await t.deps.audit.list({ action: 'developer.sessions_end' });
      expect(entries[0]).toMatchObject({ actorKind: 'operator', detail: { ended: 2 } });
    });
  });
}
