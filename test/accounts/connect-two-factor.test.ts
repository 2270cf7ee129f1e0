import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Issue 27: `/connect` asks an enrolled end user for a code between the password and the
 * redirect; the code page carries a sealed proof bound to the page's ticket. On both backends.
 */
const USER = { email: 'cora@example.com', password: 'cora-password-001' };
const CLI = { kind: 'cli' as const, id: null, email: null, ip: null };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`/connect with a second factor on ${dialect}`, () => {
    let t: TestContext;
    let secret = '';
    let recovery: string[] = [];
    let ref: { kind: 'user'; id: string; email: string; environment: 'testing' };

    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      const user = await t.deps.users.add({ environment: 'testing', ...USER });
      ref = { kind: 'user', id: user.id, email: user.email, environment: 'testing' };
      secret = (await t.deps.secondFactors.begin(ref)).secret;
      recovery = (await t.deps.secondFactors.confirm(ref, await code(), CLI)) ?? [];
      t.clock.advance(30_000);
    });
    afterAll(async () => {
      await t.close();
    });

    const code = (offset = 0) => generate({ secret, epoch: Math.floor(t.clock.now() / 1000) + offset * 30 });
    const app = () => t.apps.testing;
    async function passwordStep(ip = '10.5.0.1') {
      const page = await openLogin(app(), {
        apiKey: t.fixtures.keys.testing.key,
        destination: 'https://app.example.com/callback',
        state: 'st',
      });
      const res = await submitLogin(app(), page, USER, {}, ip);
      const step = /name="step" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
      return { page, res, step };
    }
    const codeStep = (
      page: { ticket: string; cookie: string },
      step: string,
      value: string,
      ip = '10.5.0.1',
    ) =>
      app().inject({
        method: 'POST',
        url: '/auth/two-factor',
        remoteAddress: ip,
        headers: { ...FORM, cookie: page.cookie },
        payload: new URLSearchParams({ ticket: page.ticket, step, code: value }).toString(),
      });

    it('asks for the code after the right password, then redirects with the tokens', async () => {
      const { page, res, step } = await passwordStep();
      expect(res.statusCode).toBe(200);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('Enter your code');
      expect(step).not.toBe('');
      expect((await codeStep(page, step, '000000' === (await code()) ? '111111' : '000000')).statusCode).toBe(
        401,
      );
      const ok = await codeStep(page, step, await code());
      expect(ok.statusCode).toBe(303);
      const location = new URL(String(ok.headers.location));
      expect(location.searchParams.get('jwt')).toBeTruthy();
      expect(location.searchParams.get('state')).toBe('st');
    });

    it('refuses the replayed code, a proof without its ticket, and a forged proof', async () => {
      const used = await code();
      const { page, step } = await passwordStep('10.5.0.2');
      expect((await codeStep(page, step, used, '10.5.0.2')).statusCode).toBe(401);
      const other = await passwordStep('10.5.0.2');
      // The proof of one sign-in page does not pass with another page's ticket.
      expect((await codeStep(other.page, step, await code(1), '10.5.0.2')).statusCode).toBe(400);
      expect((await codeStep(other.page, 'forged', await code(1), '10.5.0.2')).statusCode).toBe(400);
    });

    it('accepts a recovery code once, audited', async () => {
      const first = await passwordStep('10.5.0.3');
      expect((await codeStep(first.page, first.step, recovery[0] as string, '10.5.0.3')).statusCode).toBe(
        303,
      );
      const second = await passwordStep('10.5.0.3');
      expect((await codeStep(second.page, second.step, recovery[0] as string, '10.5.0.3')).statusCode).toBe(
        401,
      );
      expect(await t.deps.audit.list({ action: 'user.recovery_code_used' })).toHaveLength(1);
    });

    it('locks the code step out after repeated wrong codes', async () => {
      const { page, step } = await passwordStep('10.5.0.4');
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1)
        statuses.push((await codeStep(page, step, '000002', '10.5.0.4')).statusCode);
      expect(statuses.at(-1)).toBe(429);
    });

    it('a proof older than 5 minutes is refused', async () => {
      t.clock.advance(60 * 60_000);
      const { page, step } = await passwordStep('10.5.0.5');
      t.clock.advance(5 * 60_000 + 1);
      const late = await codeStep(page, step, await code(), '10.5.0.5');
      expect(late.statusCode).toBe(400);
      expect(late.headers.location).toBeUndefined();
    });
  });
}
