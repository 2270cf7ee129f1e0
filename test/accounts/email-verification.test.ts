import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * Issue 27: email verification through a real SMTP server. Portal sign-up mails a link; an
 * unverified developer gets testing keys but not a production one (a clear page, the link again);
 * end users with `USER_EMAIL_VERIFICATION=required` are held back at sign-in until they follow it.
 */
const DEV = { email: 'vera@example.com', password: 'vera-portal-pw-01' };
const USER = { email: 'uma@example.com', password: 'uma-password-0001' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`email verification on ${dialect}`, () => {
    let t: TestContext;
    let smtp: TestSmtp;

    beforeAll(async () => {
      smtp = await startTestSmtp();
      t = await createTestContext(dialect, { SMTP_URL: smtp.url, USER_EMAIL_VERIFICATION: 'required' });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    it('a developer confirms by the mailed link before applying for a production key', async () => {
      const dev = new PageAgent(t.apps.production, '10.7.0.1');
      expect((await dev.signUp(DEV.email, DEV.password)).statusCode).toBe(303);
      await t.deps.mailer.drain();
      const first = smtp.linkIn(smtp.lastTo(DEV.email), '/portal/verify');
      expect(smtp.lastTo(DEV.email).subject).toBe('Confirm your email address');

      const project = await dev.createProject('Vera app');
      await dev.apply(project, 'testing');
      await dev.get(`/portal/projects/${project}`);
      const refused = await dev.post(`/portal/projects/${project}/applications`, {
        environment: 'production',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('Confirm your email address first');
      expect(refused.body).toContain('action="/portal/email/resend"');
      expect(await t.deps.applications.list({ state: 'pending' })).toHaveLength(0);

      // Sent again: the first link stops working, the new one confirms, once.
      const resent = await dev.post('/portal/email/resend');
      expect(resent.statusCode).toBe(200);
      await t.deps.mailer.drain();
      const second = smtp.linkIn(smtp.lastTo(DEV.email), '/portal/verify');
      expect(second.href).not.toBe(first.href);
      const other = new PageAgent(t.apps.production, '10.7.0.2');
      expect((await other.get(`${first.pathname}${first.search}`)).statusCode).toBe(400);
      expect((await other.get(`${second.pathname}${second.search}`)).statusCode).toBe(200);
      expect((await other.get(`${second.pathname}${second.search}`)).statusCode).toBe(400);

      await dev.apply(project, 'production');
      expect(await t.deps.applications.list({ state: 'pending' })).toHaveLength(1);
    });

    it('an end user who signed up is held back until the link is followed (required)', async () => {
      const app = t.apps.testing;
      const page = await openLogin(app, {
        apiKey: t.fixtures.keys.testing.key,
        destination: 'https://app.example.com/callback',
      });
      const signup = await app.inject({
        method: 'POST',
        url: '/auth/signup',
        headers: { ...FORM, cookie: page.cookie },
        payload: new URLSearchParams({ ticket: page.ticket, ...USER }).toString(),
      });
      expect(signup.statusCode).toBe(200);
      expect(signup.body).toContain('Confirm your email address first');
      expect(signup.headers.location).toBeUndefined();

      const held = await submitLogin(app, page, USER);
      expect(held.statusCode).toBe(403);
      expect(held.headers.location).toBeUndefined();
      await t.deps.mailer.drain();
      const link = smtp.linkIn(smtp.lastTo(USER.email), '/auth/verify');
      expect(link.origin).toBe(t.deps.config.testingPublicOrigin);
      expect((await app.inject({ url: `${link.pathname}${link.search}` })).statusCode).toBe(200);

      const signed = await submitLogin(app, page, USER);
      expect(signed.statusCode).toBe(303);
      expect(String(signed.headers.location)).toContain('jwt=');
    });
  });
}
