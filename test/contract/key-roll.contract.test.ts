import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/audit/service.js';
import { createKeyStore } from '../../src/keys/store.js';
import { createKeyVerifier } from '../../src/keys/verifier.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Rolling a key (issue 15), on both backends: a new secret, the old one kept for the chosen
 * overlap then refused, the same id (its refresh tokens keep working), audited, and seen by
 * another process's cache through the change poll.
 */
const actor: Actor = { kind: 'cli', id: 'root', email: null, ip: null };
const HOUR = 3_600_000;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`key roll on ${dialect}`, () => {
    let t: TestContext;
    const actions = () => t.deps.operatorActions;
    const call = (key: string) => t.apps.testing.inject({ url: '/v1/key', headers: { 'x-api-key': key } });
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
    });
    afterAll(async () => {
      await t.close();
    });

    it('keeps the old secret for the overlap, then refuses it; the new one works throughout', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      expect((await call(issued.key)).statusCode).toBe(200); // warms the cache with the old secret
      const rolled = await actions().rollKey(actor, issued.record.id, '1h');
      expect(rolled.record.id).toBe(issued.record.id);
      expect(rolled.key).toMatch(/^vk_test_/);
      expect(rolled.key).not.toBe(issued.key);
      expect(rolled.record.hint).not.toBe(issued.record.hint);
      expect((await call(issued.key)).statusCode).toBe(200);
      expect((await call(rolled.key)).json().id).toBe(issued.record.id);
      t.clock.advance(HOUR);
      const old = await call(issued.key);
      expect(old.statusCode).toBe(401);
      expect(old.json().code).toBe('api_key_revoked');
      expect((await call(rolled.key)).statusCode).toBe(200);
      const [entry] = await t.deps.audit.list({ action: 'key.roll', target: issued.record.id });
      expect(entry?.detail).toEqual({ overlap: '1h' });
    });

    it('with no overlap refuses the old secret at once, in this process and in another', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      const other = createKeyVerifier({
        store: createKeyStore(t.database.db),
        clock: t.clock,
        refreshMs: 60_000,
      });
      await other.start();
      try {
        expect(await other.verify(issued.key, 'testing')).toMatchObject({ ok: true });
        expect((await call(issued.key)).statusCode).toBe(200);
        const rolled = await actions().rollKey(actor, issued.record.id, 'none');
        expect((await call(issued.key)).json().code).toBe('api_key_revoked');
        expect((await call(rolled.key)).statusCode).toBe(200);
        // The other process learns it from its change poll (the 1 s promise of SPEC §3).
        await other.refresh();
        expect(await other.verify(issued.key, 'testing')).toEqual({ ok: false, code: 'api_key_revoked' });
        expect(await other.verify(rolled.key, 'testing')).toMatchObject({ ok: true });
      } finally {
        await other.stop();
      }
    });

    it("keeps the key's refresh tokens: same key id, new secret", async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      await t.deps.users.add({
        environment: 'testing',
        email: `roll-${dialect}@example.com`,
        password: 'roll password 123',
      });
      const tokens = await loginTokens(t.apps.testing, issued.key, {
        email: `roll-${dialect}@example.com`,
        password: 'roll password 123',
      });
      const rolled = await actions().rollKey(actor, issued.record.id, 'none');
      const refreshed = await t.apps.testing.inject({
        method: 'POST',
        url: '/auth/refresh',
        headers: { 'x-api-key': rolled.key, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ refresh: tokens.refresh ?? '' }).toString(),
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const me = await t.apps.testing.inject({
        url: '/v1/me',
        headers: { 'x-api-key': rolled.key, authorization: `Bearer ${tokens.jwt}` },
      });
      expect(me.statusCode).toBe(200);
    });

    it('refuses to roll a revoked key or with an overlap it does not offer', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await expect(t.deps.keys.roll(issued.record.id, 5 * HOUR)).rejects.toMatchObject({ kind: 'invalid' });
      await t.deps.keys.revoke(issued.record.id);
      await expect(actions().rollKey(actor, issued.record.id, '1h')).rejects.toMatchObject({
        kind: 'conflict',
      });
    });
  });
}
