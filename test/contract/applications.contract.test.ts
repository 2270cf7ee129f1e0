import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Key applications under races (issue 5), on both backends: a key is revealed at most once, and
 * two operators approving at once leave exactly one live key.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`key applications on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: [] });
    });
    afterAll(async () => {
      await t.close();
    });

    it('reveals a key to one of two concurrent reveals only, then never again', async () => {
      const application = await t.deps.applications.apply({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        wantsRefresh: false,
      });
      expect(application).toMatchObject({ state: 'approved', decidedBy: 'system', keyWaiting: true });
      const results = await Promise.all([
        t.deps.applications.reveal(application.id),
        t.deps.applications.reveal(application.id),
        t.deps.applications.reveal(application.id),
      ]);
      const shown = results.filter((r) => r !== null);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(/^vk_test_/);
      expect(await t.deps.applications.reveal(application.id)).toBeNull();
      expect(await t.deps.applications.get(application.id)).toMatchObject({ keyWaiting: false });
    });

    it('leaves one live key when two approvals race', async () => {
      const application = await t.deps.applications.apply({
        projectId: t.fixtures.projectId,
        environment: 'production',
        wantsRefresh: true,
        refreshReason: 'sync',
      });
      expect(application.state).toBe('pending');
      const before = new Set((await t.deps.keys.list({ projectId: t.fixtures.projectId })).map((k) => k.id));
      const outcomes = await Promise.allSettled([
        t.deps.applications.approve(application.id, 'a@example.com'),
        t.deps.applications.approve(application.id, 'b@example.com'),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const keys = await t.deps.keys.list({ projectId: t.fixtures.projectId });
      const fresh = keys.filter((k) => !before.has(k.id));
      expect(fresh).toHaveLength(2);
      expect(fresh.filter((k) => k.state === 'active')).toHaveLength(1);
      expect((await t.deps.applications.get(application.id))?.keyId).toBe(
        fresh.find((k) => k.state === 'active')?.id,
      );
    });

    it('refuses a reason that is too long and a rejection without one', async () => {
      await expect(
        t.deps.applications.apply({
          projectId: t.fixtures.projectId,
          environment: 'production',
          wantsRefresh: true,
          refreshReason: 'x'.repeat(1001),
        }),
      ).rejects.toThrow(/at most 1000/);
      const pending = await t.deps.applications.apply({
        projectId: t.fixtures.projectId,
        environment: 'production',
        wantsRefresh: false,
      });
      await expect(t.deps.applications.reject(pending.id, 'ops', '')).rejects.toThrow(/needs a reason/);
    });
  });
}
