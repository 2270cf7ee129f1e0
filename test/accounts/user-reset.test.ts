import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, loginTokens, openLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * Issue 27: an end user's "Forgot password?" from the login page of `/connect`, through a real
 * SMTP server: the mailed link resets the password, revokes the user's refresh tokens and ends
 * their access tokens, and leads back to the same sign-in. On both backends.
 */
const USER = { email: 'ulla@example.com', password: 'ulla-password-01' };
const NEW_PASSWORD = 'ulla-new-password-2';

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`end-user password reset on ${dialect}`, () => {
    let t: TestContext;
    let smtp: TestSmtp;
    let key: string;

    beforeAll(async () => {
      smtp = await startTestSmtp();
      t = await createTestContext(dialect, { SMTP_URL: smtp.url });
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      key = issued.key;
      await t.deps.users.add({ environment: 'testing', ...USER });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const app = () => t.apps.testing;
    const me = (jwt: string) =>
      app().inject({ url: '/v1/me', headers: { 'x-api-key': key, authorization: `Bearer ${jwt}` } });
    const refresh = (token: string) =>
      app().inject({
        method: 'POST',
        url: '/auth/refresh',
        headers: { ...FORM, 'x-api-key': key },
        payload: new URLSearchParams({ refresh: token }).toString(),
      });

    /** Opens /connect, follows its "Forgot password?" link and asks for a link for `email`. */
    async function forgot(email: string) {
      const page = await openLogin(app(), {
        apiKey: key,
        destination: 'https://app.example.com/callback',
        state: 's-42',
      });
      const href = /href="(\/auth\/forgot\?ticket=[^"]+)"/
        .exec(page.response.body)?.[1]
        ?.replaceAll('&amp;', '&');
      expect(href).toBeDefined();
      const form = await app().inject({ url: href as string, headers: { cookie: page.cookie } });
      expect(form.statusCode).toBe(200);
      const sent = await app().inject({
        method: 'POST',
        url: '/auth/forgot',
        headers: { ...FORM, cookie: page.cookie },
        payload: new URLSearchParams({ ticket: page.ticket, email }).toString(),
      });
      await t.deps.mailer.drain();
      return { sent, page };
    }

    it('answers the same whether the email exists or not', async () => {
      const before = smtp.inbox.length;
      const unknown = await forgot('nobody@example.com');
      const known = await forgot(USER.email);
      expect(unknown.sent.statusCode).toBe(200);
      expect(known.sent.statusCode).toBe(200);
      const strip = (body: string) => body.replace(/ticket=[^"&]+/g, '');
      expect(strip(unknown.sent.body)).toBe(strip(known.sent.body));
      expect(smtp.inbox.length).toBe(before + 1);
    });

    it('resets the password, revokes refresh tokens and access tokens, and leads back to the sign-in', async () => {
      const login = await loginTokens(app(), key, USER);
      expect((await me(login.jwt)).statusCode).toBe(200);
      const { page } = await forgot(USER.email);
      const link = smtp.linkIn(smtp.lastTo(USER.email), '/auth/reset');
      expect(link.origin).toBe(t.deps.config.testingPublicOrigin);
      const token = link.searchParams.get('token') as string;
      const form = await app().inject({ url: `${link.pathname}${link.search}` });
      expect(form.statusCode).toBe(200);
      const done = await app().inject({
        method: 'POST',
        url: '/auth/reset',
        headers: FORM,
        payload: new URLSearchParams({
          token,
          ticket: link.searchParams.get('ticket') ?? '',
          password: NEW_PASSWORD,
        }).toString(),
      });
      expect(done.statusCode).toBe(200);
      const back = /href="(\/auth\/login\?ticket=[^"]+)"/.exec(done.body)?.[1]?.replaceAll('&amp;', '&');
      expect(back).toBeDefined();

      // Every token of the user ends: the access token now, the refresh token too.
      const refused = await me(login.jwt);
      expect(refused.statusCode).toBe(401);
      expect((await refresh(login.refresh ?? '')).statusCode).toBe(401);

      // The link leads back to the same sign-in (same project, state kept), with the new password.
      const again = await app().inject({ url: back as string, headers: { cookie: page.cookie } });
      expect(again.statusCode).toBe(200);
      const ticket = /name="ticket" value="([^"]+)"/.exec(again.body)?.[1] ?? '';
      const signed = await app().inject({
        method: 'POST',
        url: '/auth/connect',
        headers: { ...FORM, cookie: page.cookie },
        payload: new URLSearchParams({ ticket, email: USER.email, password: NEW_PASSWORD }).toString(),
      });
      expect(signed.statusCode).toBe(303);
      expect(new URL(String(signed.headers.location)).searchParams.get('state')).toBe('s-42');

      // Used once.
      expect((await app().inject({ url: `${link.pathname}${link.search}` })).statusCode).toBe(400);
      const audit = await t.deps.audit.list({ action: 'user.password_reset' });
      expect(audit).toHaveLength(1);
      expect(audit[0]?.detail).toMatchObject({ revokedRefreshTokens: 1, environment: 'testing' });
    });

    it('refuses a link 31 minutes old and a link of the other environment', async () => {
      await forgot(USER.email);
      const link = smtp.linkIn(smtp.lastTo(USER.email), '/auth/reset');
      expect((await t.apps.production.inject({ url: `${link.pathname}${link.search}` })).statusCode).toBe(
        400,
      );
      t.clock.advance(31 * 60_000);
      expect((await app().inject({ url: `${link.pathname}${link.search}` })).statusCode).toBe(400);
    });

    it('hands over a link from the CLI service, not mailed', async () => {
      const user = (await t.deps.users.list('testing'))[0];
      const before = smtp.inbox.length;
      const issued = await t.deps.accountRecovery.resetLink({ kind: 'user' }, user?.id as string);
      await t.deps.mailer.drain();
      expect(smtp.inbox.length).toBe(before);
      const url = new URL(issued.link);
      expect(url.pathname).toBe('/auth/reset');
      expect((await app().inject({ url: `${url.pathname}${url.search}` })).statusCode).toBe(200);
    });
  });
}
