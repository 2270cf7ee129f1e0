import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 13 (found by the fuzz suite): a NUL in a sign-in, sign-up or login form field reached
 * a PostgreSQL query and answered 500. Every form is now checked like every query value: 400,
 * as the area's HTML error page, and nothing is written.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`hostile form fields on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
    });
    afterAll(async () => {
      await t.close();
    });

    const expectPage400 = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
      expect(res.statusCode).toBe(400);
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      expect(res.body).toContain('invalid_parameter');
    };

    it('/auth/connect with a NUL in the email or password', async () => {
      const page = await openLogin(t.apps.testing, {
        apiKey: t.fixtures.keys.testing.key,
        destination: 'https://app.example.com/callback',
      });
      expectPage400(await submitLogin(t.apps.testing, page, { email: 'a\u0000@example.com', password: 'x' }));
      expectPage400(await submitLogin(t.apps.testing, page, { email: 'a@example.com', password: 'p\u0000' }));
    });

    it('portal sign-up and sign-in, console sign-in', async () => {
      const agent = new PageAgent(t.apps.production, '10.30.0.1');
      expectPage400(await agent.signUp('nul\u0000@example.com', 'long-enough-password', 'N'));
      expectPage400(await agent.signIn('portal', 'a\u0000@example.com', 'x'));
      expectPage400(await agent.signIn('console', 'a\u0000@example.com', 'x'));
    });

    it('issue 27: forgot-password, reset and code forms with a NUL', async () => {
      const agent = new PageAgent(t.apps.production, '10.30.0.5');
      for (const area of ['portal', 'console']) {
        await agent.get(`/${area}/forgot`);
        expectPage400(await agent.post(`/${area}/forgot`, { email: 'a\u0000@example.com' }));
        await agent.get(`/${area}/signin`);
        expectPage400(await agent.post(`/${area}/reset`, { token: 't\u0000', password: 'long-enough-pass' }));
      }
      expectPage400(await agent.get('/portal/reset?token=%00'));
      const page = await openLogin(t.apps.testing, {
        apiKey: t.fixtures.keys.testing.key,
        destination: 'https://app.example.com/callback',
      });
      const code = await t.apps.testing.inject({
        method: 'POST',
        url: '/auth/two-factor',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
        payload: new URLSearchParams({ ticket: page.ticket, step: 's', code: '1\u00002' }).toString(),
      });
      expectPage400(code);
    });

    it('a NUL in a page path or query: the HTML error page, not a 500', async () => {
      const agent = new PageAgent(t.apps.production, '10.30.0.3');
      expect((await agent.signUp('paths@example.com', 'long-enough-password', 'P')).statusCode).toBe(303);
      await agent.get('/portal/');
      expectPage400(await agent.post('/portal/keys/key_%00x/revoke', {}));
      expectPage400(await agent.get('/portal/projects/prj_%00'));
      await t.deps.operators.add({ email: 'ops-nul@example.com', password: 'ops-password-1' });
      const operator = new PageAgent(t.apps.production, '10.30.0.4');
      expect((await operator.signIn('console', 'ops-nul@example.com', 'ops-password-1')).statusCode).toBe(
        303,
      );
      expectPage400(await operator.get('/console/keys?q=%00'));
      expectPage400(await operator.get('/console/keys/key_%00'));
    });

    it('keeps tabs and line breaks, which are text in a textarea', async () => {
      const agent = new PageAgent(t.apps.production, '10.30.0.2');
      expect((await agent.signUp('dev@example.com', 'long-enough-password', 'Dev')).statusCode).toBe(303);
      await agent.get('/portal/projects/new');
      const res = await agent.post('/portal/projects', {
        name: 'Two\tdestinations',
        redirectUris: 'https://a.example.com/cb\r\nhttps://b.example.com/cb',
      });
      expect(res.statusCode).toBe(303);
    });
  });
}
