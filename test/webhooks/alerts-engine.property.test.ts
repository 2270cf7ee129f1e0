import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { alertOffer, alertQuery, NO_RULES } from '../../src/webhooks/offer-matching.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { CATEGORIES, CITIES, qArb, textArb } from '../support/search-arbitraries.js';

/**
 * Saved-search alerts against the engine on both backends: random offers written through the
 * store, random saved searches with alerts, one percolator run; the (saved search, offer) pairs
 * recorded must be exactly those where the engine, on an index holding that offer alone (as read
 * back from the database), finds it — but for the documented limit (a match of the anchoring
 * word through a typo correction only is not alerted), so the check is: every recorded pair is
 * one the engine finds, and every pair the engine finds without a typo is recorded.
 */
const offersArb = fc.array(
  fc.record({
    title: textArb(1, 5),
    description: textArb(0, 8),
    category: fc.constantFrom(...CATEGORIES),
    place: fc.constantFrom(...CITIES),
    price: fc.integer({ min: 1, max: 20 }),
  }),
  { minLength: 30, maxLength: 30 },
);
const searchesArb = fc.array(
  fc.record({
    q: qArb,
    category: fc.option(fc.constantFrom(...CATEGORIES)),
    city: fc.option(fc.constantFrom(...CITIES.map((c) => c.city))),
    priceMax: fc.option(fc.integer({ min: 1, max: 20 })),
    typoTolerance: fc.constantFrom('auto', 'off'),
  }),
  { minLength: 60, maxLength: 60 },
);

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`alerts against the engine on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('records the pairs the engine finds for each offer, and no other', async () => {
      const [offers] = fc.sample(offersArb, { numRuns: 1, seed: 24 });
      const [searches] = fc.sample(searchesArb, { numRuns: 1, seed: 2024 });
      const userId = 'usr_alerts_property';
      await t.deps.db.run(
        "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES (?, 'testing', 'p@example.com', '', 'x', 'active', 0, 0)",
        [userId],
      );
      const saved = (searches ?? []).map((s, i) => ({
        id: `svs_prop${i}`,
        query: {
          q: s.q,
          typoTolerance: s.typoTolerance,
          ...(s.category ? { category: [s.category] } : {}),
          ...(s.city ? { city: s.city } : {}),
          ...(s.priceMax ? { priceMax: String(s.priceMax) } : {}),
        },
      }));
      for (const s of saved) {
        await t.deps.db.run(
          "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES (?, ?, 'p', ?, ?, 1, ?, 'testing', 0)",
          [s.id, userId, JSON.stringify(s.query), t.clock.now(), t.fixtures.projectId],
        );
      }
      const seeded = [...generateOffers({ count: 30, seed: 5 })];
      const inputs: OfferInput[] = (offers ?? []).map((o, i) => ({
        ...(seeded[i] as OfferInput),
        title: o.title,
        description: o.description,
        category: o.category,
        location: { ...(seeded[i] as OfferInput).location, ...o.place },
        price: { amount: `${o.price}.00`, currency: 'EUR' },
        status: 'active',
        expiresAt: null,
      }));
      await t.deps.offers.upsertMany('testing', inputs);
      await t.deps.webhooks.percolator.reset();
      await t.deps.webhooks.percolator.runOnce();
      const recorded = new Set(
        (
          await t.deps.db.all<{ saved_search_id: string; offer_id: string }>(
            "SELECT saved_search_id, offer_id FROM saved_search_matches WHERE saved_search_id LIKE 'svs_prop%'",
          )
        ).map((r) => `${r.saved_search_id} ${r.offer_id}`),
      );
      // The offers as read back from this backend, each searched alone by the engine.
      const store = createOfferStore(t.deps.db);
      const rows = await store.changes(
        'testing',
        { from: 0, to: await store.changeSeq('testing'), after: null },
        1000,
      );
      expect(rows).toHaveLength(30);
      let found = 0;
      for (const row of rows) {
        const doc = alertOffer(row, NO_RULES.schema).doc;
        const index = createSearchIndex();
        index.upsert(doc);
        for (const s of saved) {
          const query = alertQuery(s.query, 'testing', NO_RULES);
          const pair = `${s.id} ${row.id}`;
          const now = t.clock.now();
          const engine = query !== null && index.search({ ...query, now }, []).total > 0;
          const exactly =
            query !== null && index.search({ ...query, now, typoTolerance: 'off' }, []).total > 0;
          if (recorded.has(pair)) expect(engine, pair).toBe(true);
          if (exactly) expect(recorded.has(pair), `${pair} ${JSON.stringify(s.query)}`).toBe(true);
          if (engine) found += 1;
        }
      }
      expect(found).toBeGreaterThan(5);
    });
  });
}
