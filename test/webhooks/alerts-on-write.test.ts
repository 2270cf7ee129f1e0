import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { Receiver } from './receiver.js';

/**
 * ADR 0062: in a serving process (`webhooks.start`), an offer write starts the saved searches'
 * matching at once (the offers' change message reaches this process too), not at the next poll.
 * The poll here is an hour: only the write can start the run that sends the alert.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`alerts started by a write on ${dialect}`, () => {
    let t: TestContext;
    const receiver = new Receiver();
    beforeAll(async () => {
      t = await createTestContext(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      t.clock.set(Date.now());
      await receiver.start();
      await t.deps.webhooks.service.add(
        { kind: 'cli', id: 'test', email: null, ip: null },
        { projectId: t.fixtures.projectId, environment: 'testing' },
        { url: receiver.url, eventTypes: ['saved_search.matched'] },
      );
    });
    afterAll(async () => {
      await t?.deps.webhooks.stop();
      await receiver.close();
      await t?.close();
    });

    it('a written offer that matches a saved search with alerts is sent without waiting for the poll', async () => {
      await t.deps.users.add({
        environment: 'testing',
        email: 'write@example.com',
        password: 'write-password-1',
      });
      const userId = (
        await t.deps.db.get<{ id: string }>('SELECT id FROM users WHERE email = ?', ['write@example.com'])
      )?.id;
      await t.deps.db.run(
        "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES ('svs_onwrite', ?, 'Lamps', ?, ?, 1, ?, 'testing', 0)",
        [userId ?? '', JSON.stringify({ q: 'brass lamp' }), t.clock.now(), t.fixtures.projectId],
      );
      t.deps.webhooks.start(3_600_000);
      const [offer] = [...generateOffers({ count: 1, seed: 62 })] as [OfferInput];
      await t.deps.offers.upsertMany('testing', [{ ...offer, title: 'Brass lamp, 1950s' }]);
      const deadline = Date.now() + 10_000;
      while (receiver.of('saved_search.matched').length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const alerts = receiver.of('saved_search.matched').map((r) => JSON.parse(r.body).data);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({
        savedSearch: { id: 'svs_onwrite' },
        offer: { title: 'Brass lamp, 1950s' },
      });
    });
  });
}
