import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPercolatorStore } from '../../src/webhooks/percolator-store.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The saved searches a percolator round reads: those with alerts created since a moment, oldest
 * first, and, when the round already knows some, only the others (a round re-reads the last
 * minutes' searches: after a burst of saves, re-reading every row each round cost the event loop
 * and a reader thread a tenth of a second per round).
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`the percolator's saved searches on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.db.run(
        "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES ('usr_rounds', 'testing', 'rounds@example.com', '', 'x', 'active', 0, 0)",
      );
      // Saved out of id order; one without alerts, one of another environment, one too old.
      const saved: [string, number, number, string][] = [
        ['svs_c', 1_000, 1, 'testing'],
        ['svs_a', 3_000, 1, 'testing'],
        ['svs_b', 2_000, 1, 'testing'],
        ['svs_off', 2_500, 0, 'testing'],
        ['svs_prod', 2_000, 1, 'production'],
        ['svs_old', 10, 1, 'testing'],
      ];
      for (const [id, createdAt, alerts, environment] of saved)
        await t.deps.db.run(
          'INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 7)',
          [
            id,
            'usr_rounds',
            id,
            JSON.stringify({ q: id }),
            createdAt,
            alerts,
            t.fixtures.projectId,
            environment,
          ],
        );
    });
    afterAll(async () => {
      await t?.close();
    });

    it('reads those with alerts since the moment, oldest first, with their query', async () => {
      const found = await createPercolatorStore(t.deps.db).alertingSearches('testing', 500);
      expect(found.map((s) => s.id)).toEqual(['svs_c', 'svs_b', 'svs_a']);
      expect(found[0]).toMatchObject({
        query: { q: 'svs_c' },
        sinceSeq: 7,
        createdAt: 1_000,
        userId: 'usr_rounds',
      });
    });

    it('reads only the ones the round does not know, oldest first', async () => {
      const store = createPercolatorStore(t.deps.db);
      const known = new Set(['svs_b']);
      const found = await store.alertingSearches('testing', 500, (id) => known.has(id));
      expect(found.map((s) => s.id)).toEqual(['svs_c', 'svs_a']);
      expect(found[1]).toMatchObject({ query: { q: 'svs_a' }, sinceSeq: 7, createdAt: 3_000 });
      const all = new Set(['svs_a', 'svs_b', 'svs_c']);
      expect(await store.alertingSearches('testing', 500, (id) => all.has(id))).toEqual([]);
    });
  });
}
