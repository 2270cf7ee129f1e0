import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 27: two-factor sign-in on the portal and the console, with the codes computed by the test
 * from the secret the enrolment page shows: wrong code, replay within the window, one step of
 * drift, recovery codes (twice), lockout, CONSOLE_REQUIRE_2FA; on both backends.
 */
const DEV = { email: 'tara@example.com', password: 'tara-portal-pw-01' };
const OPS = { email: 'otto@example.com', password: 'otto-console-pw1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`two-factor sign-in on ${dialect}`, () => {
    let t: TestContext;
    let secret = '';
    let recovery: string[] = [];

    beforeAll(async () => {
      t = await createTestContext(dialect, { CONSOLE_REQUIRE_2FA: 'true' });
      await t.deps.operators.add(OPS);
    });
    afterAll(async () => {
      await t.close();
    });

    const code = (offsetSteps = 0) =>
      generate({ secret, epoch: Math.floor(t.clock.now() / 1000) + offsetSteps * 30 });
    const secretOf = (body: string) =>
      (/id="totp-secret">([A-Z2-7 ]+)</.exec(body)?.[1] ?? '').replace(/ /g, '');
    const codesOf = (body: string) =>
      [...body.matchAll(/<li><code>([0-9a-z-]{19})<\/code><\/li>/g)].map((m) => m[1] as string);

    it('enrols a developer with a first code; ten recovery codes shown once', async () => {
      const dev = new PageAgent(t.apps.production, '10.6.0.1');
      await dev.signUp(DEV.email, DEV.password);
      const account = await dev.get('/portal/account');
      expect(account.body).toContain('Set up two-factor sign-in');
      const page = await dev.post('/portal/two-factor/enrol');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<svg');
      expect(page.body).not.toMatch(/<img|https?:\/\/(?!www\.w3\.org)/);
      secret = secretOf(page.body);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      // The secret is sealed in the database, never stored as shown.
      const rows = await t.deps.db.all<{ sealed_secret: string }>('SELECT sealed_secret FROM second_factors');
      expect(rows.every((r) => !r.sealed_secret.includes(secret))).toBe(true);

      const wrong = await dev.post('/portal/two-factor/confirm', {
        code: '000000' === (await code()) ? '111111' : '000000',
      });
      expect(wrong.statusCode).toBe(400);
      const done = await dev.post('/portal/two-factor/confirm', { code: await code() });
      expect(done.statusCode).toBe(200);
      recovery = codesOf(done.body);
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);
      expect((await dev.get('/portal/account')).body).toContain('10 recovery codes left');
      expect((await t.deps.audit.list({ action: 'developer.2fa_enrol' })).length).toBe(1);
    });

    it('asks for the code after the password; refuses a wrong and a replayed code; accepts one step of drift', async () => {
      const first = new PageAgent(t.apps.production, '10.6.0.2');
      const signin = await first.signIn('portal', DEV.email, DEV.password);
      expect(signin.headers.location).toBe('/portal/two-factor');
      // Nothing else is reachable before the second step.
      expect((await first.get('/portal/')).headers.location).toBe('/portal/two-factor');
      expect((await first.get('/portal/account')).headers.location).toBe('/portal/two-factor');
      await first.get('/portal/two-factor');
      expect((await first.post('/portal/two-factor', { code: '12345' })).statusCode).toBe(401);
      t.clock.advance(60_000);
      const current = await code();
      const ok = await first.post('/portal/two-factor', { code: current });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe('/portal/');
      expect((await first.get('/portal/')).statusCode).toBe(200);

      // The same code again, within its window, in another sign-in: refused.
      const second = new PageAgent(t.apps.production, '10.6.0.3');
      await second.signIn('portal', DEV.email, DEV.password);
      await second.get('/portal/two-factor');
      expect((await second.post('/portal/two-factor', { code: current })).statusCode).toBe(401);

      // A phone one step behind: the previous step's code is accepted (once the clock moved on).
      t.clock.advance(60_000);
      expect((await second.post('/portal/two-factor', { code: await code(-1) })).statusCode).toBe(303);
      // Two steps behind: refused.
      t.clock.advance(60_000);
      const third = new PageAgent(t.apps.production, '10.6.0.4');
      await third.signIn('portal', DEV.email, DEV.password);
      await third.get('/portal/two-factor');
      expect((await third.post('/portal/two-factor', { code: await code(-2) })).statusCode).toBe(401);
    });

    it('accepts a recovery code once', async () => {
      const agent = new PageAgent(t.apps.production, '10.6.0.5');
      await agent.signIn('portal', DEV.email, DEV.password);
      await agent.get('/portal/two-factor');
      const used = recovery[0] as string;
      expect((await agent.post('/portal/two-factor', { code: used.toUpperCase() })).statusCode).toBe(303);
      expect((await agent.get('/portal/account')).body).toContain('9 recovery codes left');
      const again = new PageAgent(t.apps.production, '10.6.0.6');
      await again.signIn('portal', DEV.email, DEV.password);
      await again.get('/portal/two-factor');
      expect((await again.post('/portal/two-factor', { code: used })).statusCode).toBe(401);
      const audit = await t.deps.audit.list({ action: 'developer.recovery_code_used' });
      expect(audit).toHaveLength(1);
      expect(audit[0]?.detail).toEqual({ remaining: 9 });
    });

    it('locks the second step out after repeated wrong codes, like passwords', async () => {
      t.clock.advance(60 * 60_000);
      const agent = new PageAgent(t.apps.production, '10.6.0.7');
      await agent.signIn('portal', DEV.email, DEV.password);
      await agent.get('/portal/two-factor');
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1)
        statuses.push((await agent.post('/portal/two-factor', { code: '000001' })).statusCode);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
      // Even the right code waits while locked out.
      const locked = await agent.post('/portal/two-factor', { code: await code() });
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBeDefined();
      // An operator's unlock of the account (console, CLI) unlocks its second step too.
      const operator = { kind: 'operator' as const, id: null, email: 'ops@example.com', ip: null };
      expect((await t.deps.operatorActions.unlockLogin(operator, `portal:${DEV.email}`)).found).toBe(true);
      t.clock.advance(30_000);
      expect((await agent.post('/portal/two-factor', { code: await code() })).statusCode).toBe(303);
    });

    it('turns two-factor off with a current code, audited', async () => {
      t.clock.advance(60 * 60_000);
      const agent = new PageAgent(t.apps.production, '10.6.0.8');
      await agent.signIn('portal', DEV.email, DEV.password);
      await agent.get('/portal/two-factor');
      await agent.post('/portal/two-factor', { code: await code() });
      await agent.get('/portal/account');
      expect((await agent.post('/portal/two-factor/remove', { code: '999999' })).statusCode).toBe(400);
      t.clock.advance(30_000);
      expect((await agent.post('/portal/two-factor/remove', { code: await code() })).statusCode).toBe(303);
      expect((await agent.get('/portal/account')).body).toContain('Two-factor sign-in is off.');
      expect(
        (await new PageAgent(t.apps.production, '10.6.0.9').signIn('portal', DEV.email, DEV.password)).headers
          .location,
      ).toBe('/portal/');
      expect((await t.deps.audit.list({ action: 'developer.2fa_remove' })).length).toBe(1);
    });

    it('CONSOLE_REQUIRE_2FA: an operator enrols at the next sign-in before anything else', async () => {
      const ops = new PageAgent(t.apps.production, '10.6.1.1');
      const signin = await ops.signIn('console', OPS.email, OPS.password);
      expect(signin.headers.location).toBe('/console/two-factor/enrol');
      expect((await ops.get('/console/applications')).headers.location).toBe('/console/two-factor/enrol');
      const page = await ops.get('/console/two-factor/enrol');
      expect(page.body).toContain('requires two-factor sign-in');
      secret = secretOf(page.body);
      const confirmed = await ops.post('/console/two-factor/confirm', { code: await code() });
      expect(confirmed.statusCode).toBe(200);
      expect(codesOf(confirmed.body)).toHaveLength(10);
      expect((await ops.get('/console/applications')).statusCode).toBe(200);
      t.clock.advance(30_000);
      const next = new PageAgent(t.apps.production, '10.6.1.2');
      expect((await next.signIn('console', OPS.email, OPS.password)).headers.location).toBe(
        '/console/two-factor',
      );
      await next.get('/console/two-factor');
      expect((await next.post('/console/two-factor', { code: await code() })).headers.location).toBe(
        '/console/',
      );
      expect((await t.deps.audit.list({ action: 'operator.2fa_enrol' })).length).toBe(1);
    });
  });
}
