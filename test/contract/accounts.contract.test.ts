import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/audit/service.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Operator and developer accounts that can be disabled, and operator passwords set by another
 * operator (issue 15), on both backends: sign-in refused, sessions ended, audited, the last
 * operator kept.
 */
const PASSWORD = 'correct horse battery staple';
const actor: Actor = { kind: 'cli', id: 'root', email: null, ip: null };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`account state on ${dialect}`, () => {
    let t: TestContext;
    const actions = () => t.deps.operatorActions;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
    });
    afterAll(async () => {
      await t.close();
    });

    it('a disabled operator cannot sign in and loses their sessions; the last one cannot be disabled', async () => {
      const ada = await t.deps.operators.add({ email: 'ada@ops.example', password: PASSWORD });
      const bob = await t.deps.operators.add({ email: 'bob@ops.example', password: PASSWORD });
      const { token } = await t.deps.sessions.start('operator', ada.id);
      expect(await t.deps.sessions.resume('operator', token)).not.toBeNull();

      expect(await actions().disableOperator(actor, ada.id)).toEqual({ endedSessions: 1 });
      expect(await t.deps.sessions.resume('operator', token)).toBeNull();
      expect(await t.deps.operators.authenticate('ada@ops.example', PASSWORD)).toBeNull();
      expect((await t.deps.operators.get(ada.id))?.disabledAt).toBe(t.clock.now());
      await expect(actions().disableOperator(actor, ada.id)).rejects.toMatchObject({ kind: 'not_found' });
      await expect(actions().disableOperator(actor, bob.id)).rejects.toMatchObject({ kind: 'conflict' });
      expect(await t.deps.operators.authenticate('bob@ops.example', PASSWORD)).toMatchObject({ id: bob.id });
      const [entry] = await t.deps.audit.list({ action: 'operator.disable' });
      expect(entry).toMatchObject({ targetId: ada.id, actorKind: 'cli', detail: { endedSessions: 1 } });
    });

    it("an operator's new password replaces the old one and ends their sessions", async () => {
      const cy = await t.deps.operators.add({ email: 'cy@ops.example', password: PASSWORD });
      const { token } = await t.deps.sessions.start('operator', cy.id);
      await expect(actions().setOperatorPassword(actor, cy.id, 'short')).rejects.toMatchObject({
        kind: 'invalid',
      });
      expect(await actions().setOperatorPassword(actor, cy.id, 'a brand new passphrase')).toEqual({
        endedSessions: 1,
      });
      expect(await t.deps.sessions.resume('operator', token)).toBeNull();
      expect(await t.deps.operators.authenticate('cy@ops.example', PASSWORD)).toBeNull();
      expect(await t.deps.operators.authenticate('cy@ops.example', 'a brand new passphrase')).toMatchObject({
        id: cy.id,
      });
      expect(await t.deps.audit.list({ action: 'operator.set_password' })).toHaveLength(1);
    });

    it("a disabled developer cannot sign in to the portal; their project's keys keep working", async () => {
      const dev = await t.deps.developers.findByEmail('integrator@example.com');
      if (!dev) throw new Error('fixture developer missing');
      await t.deps.developers.add({ email: 'dee@example.com', password: PASSWORD });
      const dee = await t.deps.developers.findByEmail('dee@example.com');
      const { token } = await t.deps.sessions.start('developer', dee?.id ?? '');
      expect(await actions().disableDeveloper(actor, dee?.id ?? '')).toEqual({ endedSessions: 1 });
      expect(await t.deps.sessions.resume('developer', token)).toBeNull();
      expect(await t.deps.developers.authenticate('dee@example.com', PASSWORD)).toBeNull();
      await expect(actions().disableDeveloper(actor, dee?.id ?? '')).rejects.toMatchObject({
        kind: 'not_found',
      });
      // The fixture's developer: disabling the account does not revoke its keys (documented).
      await actions().disableDeveloper(actor, dev.id);
      const call = await t.apps.testing.inject({
        url: '/v1/key',
        headers: { 'x-api-key': t.fixtures.keys.testing.key },
      });
      expect(call.statusCode).toBe(200);
      expect(await t.deps.audit.list({ action: 'developer.disable' })).toHaveLength(2);
    });
  });
}
