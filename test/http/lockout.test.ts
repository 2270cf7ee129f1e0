import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 13, defect 5: anyone could keep a known account (the operator's) locked for up to 15
 * minutes, and the right password then got 429. Now failures count per account+address pair,
 * per address, and against an account-wide cap that a known-good address still passes; the
 * console (and `vitrine users unlock`) clears a lockout at once, audited.
 */
const DEST = 'https://app.example.com/callback';
const OPERATOR = { email: 'operator@example.com', password: 'operator-password-1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`sign-in lockout on ${dialect}`, () => {
    let t: TestContext;
    let key: string;
    beforeAll(async () => {
      t = await createTestContext(dialect);
      key = t.fixtures.keys.testing.key;
      await t.deps.operators.add(OPERATOR);
    });
    afterAll(async () => {
      await t.close();
    });

    const connect = async (email: string, password: string, address: string) => {
      const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
      return submitLogin(t.apps.testing, page, { email, password }, {}, address);
    };

    it("one attacker's guesses lock only the attacker: the user's right password from elsewhere passes", async () => {
      const victim = { email: 'victim1@example.com', password: 'victim-password-1' };
      await t.deps.users.add({ environment: 'testing', ...victim });
      for (let i = 0; i < 8; i += 1) await connect(victim.email, `guess-${i}`, '10.6.0.1');
      expect((await connect(victim.email, victim.password, '10.6.0.1')).statusCode).toBe(429);
      expect((await connect(victim.email, victim.password, '10.6.0.2')).statusCode).toBe(303);
    });

    it('a guess spread over many addresses hits the account cap, which a known-good address still passes', async () => {
      const victim = { email: 'victim2@example.com', password: 'victim-password-2' };
      await t.deps.users.add({ environment: 'testing', ...victim });
      expect((await connect(victim.email, victim.password, '10.7.0.1')).statusCode).toBe(303);
      for (let i = 0; i < 60; i += 1) {
        const res = await connect(victim.email, 'wrong', `10.8.${Math.floor(i / 200)}.${i % 200}`);
        expect([401, 429]).toContain(res.statusCode);
      }
      // An address never seen for this account: held back even with the right password.
      expect((await connect(victim.email, victim.password, '10.9.0.1')).statusCode).toBe(429);
      // The address the user signed in from before: the right password passes.
      expect((await connect(victim.email, victim.password, '10.7.0.1')).statusCode).toBe(303);
    });

    it("cannot aim at the operator's console account", async () => {
      const attacker = new PageAgent(t.apps.production, '10.10.0.1');
      for (let i = 0; i < 8; i += 1) await attacker.signIn('console', OPERATOR.email, `guess-${i}`);
      expect((await attacker.signIn('console', OPERATOR.email, OPERATOR.password)).statusCode).toBe(429);
      const operator = new PageAgent(t.apps.production, '10.10.0.2');
      expect((await operator.signIn('console', OPERATOR.email, OPERATOR.password)).statusCode).toBe(303);
    });

    it('the console unlocks an account at once, and the audit log says who did', async () => {
      const victim = { email: 'victim3@example.com', password: 'victim-password-3' };
      await t.deps.users.add({ environment: 'testing', ...victim });
      for (let i = 0; i < 8; i += 1) await connect(victim.email, `guess-${i}`, '10.11.0.1');
      expect((await connect(victim.email, victim.password, '10.11.0.1')).statusCode).toBe(429);

      const operator = new PageAgent(t.apps.production, '10.12.0.1');
      expect((await operator.signIn('console', OPERATOR.email, OPERATOR.password)).statusCode).toBe(303);
      await operator.get('/console/developers');
      expect(operator.lastBody).toContain('Unlock sign-in');
      const unlocked = await operator.post('/console/unlock', {
        area: 'connect:testing',
        email: victim.email,
      });
      expect(unlocked.statusCode).toBe(303);
      expect(unlocked.headers.location).toBe('/console/developers');
      expect((await operator.get('/console/developers')).body).toContain('Sign-in unlocked');
      expect((await connect(victim.email, victim.password, '10.11.0.1')).statusCode).toBe(303);
      const audit = await t.deps.audit.list({ action: 'login.unlock' });
      expect(audit[0]).toMatchObject({
        actorEmail: OPERATOR.email,
        targetId: `connect:testing:${victim.email}`,
      });
      // Without the form's CSRF token nothing happens.
      const forged = await operator.post(
        '/console/unlock',
        { area: 'portal', email: 'x@example.com' },
        { csrf: null },
      );
      expect(forged.statusCode).toBe(403);
    });
  });
}
