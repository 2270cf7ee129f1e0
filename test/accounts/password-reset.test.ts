import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * Issue 27: "Forgot password?" on the portal and the console, through a real SMTP server on
 * loopback, following the links of the mail received; on both backends.
 */
const DEV = { email: 'rita@example.com', password: 'rita-portal-pw-01' };
const OPS = { email: 'omar@example.com', password: 'omar-console-pw1' };
const NEW_PASSWORD = 'a-brand-new-pass-42';

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`password reset (portal, console) on ${dialect}`, () => {
    let t: TestContext;
    let smtp: TestSmtp;

    beforeAll(async () => {
      smtp = await startTestSmtp();
      t = await createTestContext(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Vitrine <mail@vitrine.test>' });
      await t.deps.operators.add(OPS);
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const ask = async (area: 'portal' | 'console', email: string, ip = '10.9.0.1') => {
      const agent = new PageAgent(t.apps.production, ip);
      const signin = await agent.get(`/${area}/signin`);
      expect(signin.body).toContain(`href="/${area}/forgot"`);
      await agent.get(`/${area}/forgot`);
      const res = await agent.post(`/${area}/forgot`, { email });
      await t.deps.mailer.drain();
      return res;
    };

    it('answers the same for an unknown email and sends nothing', async () => {
      const before = smtp.inbox.length;
      const known = await ask('console', OPS.email);
      const unknown = await ask('console', 'nobody@example.com');
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(smtp.inbox.length).toBe(before + 1);
      expect(smtp.lastTo(OPS.email).from).toContain('mail@vitrine.test');
    });

    it('resets a developer password from the mailed link, once, and ends the other sessions', async () => {
      const browser = new PageAgent(t.apps.production, '10.9.0.2');
      await browser.signUp(DEV.email, DEV.password);
      expect((await browser.get('/portal/')).statusCode).toBe(200);

      await ask('portal', DEV.email);
      const mail = smtp.lastTo(DEV.email);
      expect(mail.subject).toBe('Reset your password');
      expect(mail.html).toContain('/portal/reset?token=');
      const link = smtp.linkIn(mail, '/portal/reset');
      const token = link.searchParams.get('token') as string;
      // Stored hashed: the token itself is nowhere in the database.
      const rows = await t.deps.db.all<{ token_hash: string }>('SELECT token_hash FROM account_tokens');
      expect(rows.some((r) => r.token_hash === token)).toBe(false);

      const stranger = new PageAgent(t.apps.production, '10.9.0.3');
      const form = await stranger.get(`${link.pathname}${link.search}`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain(DEV.email);
      const weak = await stranger.post('/portal/reset', { token, password: 'short' });
      expect(weak.statusCode).toBe(400);
      const done = await stranger.post('/portal/reset', { token, password: NEW_PASSWORD });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Password changed');

      // The session that was open ends; the old password no longer works, the new one does.
      expect((await browser.get('/portal/')).statusCode).toBe(303);
      expect(
        (await new PageAgent(t.apps.production, '10.9.0.4').signIn('portal', DEV.email, DEV.password))
          .statusCode,
      ).toBe(401);
      expect(
        (await new PageAgent(t.apps.production, '10.9.0.4').signIn('portal', DEV.email, NEW_PASSWORD))
          .statusCode,
      ).toBe(303);

      // Used once: the same link again is refused, and so is its form.
      const again = await new PageAgent(t.apps.production, '10.9.0.5').get(`${link.pathname}${link.search}`);
      expect(again.statusCode).toBe(400);
      expect(again.body).toContain('link_invalid');
      const entries = await t.deps.audit.list({ action: 'developer.password_reset' });
      expect(entries).toHaveLength(1);
    });

    it('refuses a console link 31 minutes old, and the token used twice', async () => {
      await ask('console', OPS.email, '10.9.0.6');
      const link = smtp.linkIn(smtp.lastTo(OPS.email), '/console/reset');
      t.clock.advance(31 * 60_000);
      const agent = new PageAgent(t.apps.production, '10.9.0.6');
      expect((await agent.get(`${link.pathname}${link.search}`)).statusCode).toBe(400);

      await ask('console', OPS.email, '10.9.0.7');
      const fresh = smtp.linkIn(smtp.lastTo(OPS.email), '/console/reset');
      t.clock.advance(29 * 60_000);
      const page = await agent.get(`${fresh.pathname}${fresh.search}`);
      expect(page.statusCode).toBe(200);
      const token = fresh.searchParams.get('token') as string;
      expect((await agent.post('/console/reset', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
      await agent.get('/console/signin');
      expect((await agent.post('/console/reset', { token, password: `${NEW_PASSWORD}x` })).statusCode).toBe(
        400,
      );
      expect((await agent.signIn('console', OPS.email, NEW_PASSWORD)).statusCode).toBe(303);
    });

    it('a developer link does not open the console', async () => {
      await ask('portal', DEV.email, '10.9.0.8');
      const link = smtp.linkIn(smtp.lastTo(DEV.email), '/portal/reset');
      const agent = new PageAgent(t.apps.production, '10.9.0.8');
      expect((await agent.get(`/console/reset${link.search}`)).statusCode).toBe(400);
    });

    it('throttles asking for links like a sign-in', async () => {
      const agent = new PageAgent(t.apps.production, '10.9.0.9');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        await agent.get('/portal/forgot');
        statuses.push((await agent.post('/portal/forgot', { email: DEV.email })).statusCode);
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.at(-1)).toBe(429);
    });

    it('keeps a mail the relay refused and sends it on a later attempt', async () => {
      await t.deps.mailer.drain();
      smtp.failNext(1);
      const before = smtp.inbox.length;
      await ask('console', OPS.email, '10.9.0.10');
      expect(smtp.inbox.length).toBe(before);
      expect(await t.deps.mailer.pending()).toBe(1);
      await t.deps.mailer.drain();
      expect(smtp.inbox.length).toBe(before);
      t.clock.advance(31_000);
      await t.deps.mailer.drain();
      expect(smtp.inbox.length).toBe(before + 1);
      expect(await t.deps.mailer.pending()).toBe(0);
      // Sent: only the envelope stays, the sealed body (with its link) is gone.
      const bodies = await t.deps.db.all<{ sealed_body: string }>('SELECT sealed_body FROM mail_outbox');
      expect(bodies.every((b) => b.sealed_body === '')).toBe(true);
      // No link's token in any log line (the request log shows `token=[REDACTED]`).
      const logs = t.logs.join('\n');
      const tokens = smtp.inbox.flatMap((m) => [...m.text.matchAll(/token=([\w-]{43})/g)].map((x) => x[1]));
      expect(tokens.length).toBeGreaterThan(3);
      for (const token of tokens) expect(logs).not.toContain(token);
    });
  });
}
