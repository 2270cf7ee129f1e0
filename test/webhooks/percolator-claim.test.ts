import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { createLocalMatcher } from '../../src/webhooks/matcher.js';
import { createPercolator } from '../../src/webhooks/percolator.js';
import { createPercolatorStore } from '../../src/webhooks/percolator-store.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * A percolator that stops gives up its claim on the cursor: the next process (a `serve`
 * restarted, the next bench run on the same data) matches at once instead of waiting CLAIM_MS
 * (60 s) for the claim of one that is gone. The clock never moves here.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`the percolator's claim on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
    });
    afterAll(async () => {
      await t?.close();
    });

    const percolator = () =>
      createPercolator({
        store: createPercolatorStore(t.deps.db),
        offers: createOfferStore(t.deps.db),
        environments: ['testing'],
        clock: t.clock,
        logger: pino({ level: 'silent' }),
        recordEvents: t.deps.webhooks.service.recordEvents,
        matcher: createLocalMatcher(),
      });

    it('is released when it closes: another instance matches the next write at once', async () => {
      const userId = 'usr_claim';
      await t.deps.db.run(
        "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES (?, 'testing', 'claim@example.com', '', 'x', 'active', 0, 0)",
        [userId],
      );
      await t.deps.db.run(
        "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES ('svs_claim', ?, 'claim', ?, ?, 1, ?, 'testing', 0)",
        [userId, JSON.stringify({ q: 'zircon' }), t.clock.now(), t.fixtures.projectId],
      );
      const [first, second] = [...generateOffers({ count: 2, seed: 60 })] as [OfferInput, OfferInput];
      const stopping = percolator();
      await t.deps.offers.upsertMany('testing', [
        { ...first, title: 'Zircon lamp', status: 'active', expiresAt: null },
      ]);
      expect(await stopping.runOnce()).toBe(1);
      await stopping.close();

      const next = percolator();
      await t.deps.offers.upsertMany('testing', [
        { ...second, title: 'Zircon ring', status: 'active', expiresAt: null },
      ]);
      expect(await next.runOnce()).toBe(1);
      await next.close();
    });
  });
}
