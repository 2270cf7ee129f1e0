import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlValue } from '../../src/db/database.js';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * The offers change sequence read in pages (the percolator, the index's catch-up): every change
 * of the range once, in (change_seq, id) order; and a page after the first seeks to its place in
 * the index instead of walking the environment's changes from the first (ADR 0051: at 1M offers
 * that walk paced the saved-search alerts).
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`offer changes read in pages on ${dialect}`, () => {
    let database: TestDatabase;
    const batches: OfferInput[][] = [];
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const offers = [...generateOffers({ count: 60, seed: 5 })];
      const store = createOfferStore(database.db);
      for (let i = 0; i < offers.length; i += 20) {
        batches.push(offers.slice(i, i + 20));
        await store.upsertMany('testing', offers.slice(i, i + 20), 1_790_000_000_000 + i); // one change_seq each
      }
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('reads every change of the range once, in order, page by page', async () => {
      const store = createOfferStore(database.db);
      const to = await store.changeSeq('testing');
      const all = await store.changes('testing', { from: 0, to, after: null }, 1_000);
      expect(all).toHaveLength(60);
      for (const limit of [1, 7, 20, 33]) {
        const read: string[] = [];
        let after: { changeSeq: number; id: string } | null = null;
        for (;;) {
          const page = await store.changes('testing', { from: to - 2, to, after }, limit);
          read.push(...page.map((r) => r.id));
          if (page.length < limit) break;
          const last = page[page.length - 1] as (typeof page)[number];
          after = { changeSeq: last.change_seq, id: last.id };
        }
        // The last two batches' changes (the range), as the one-read order gives them.
        expect(read).toEqual(all.filter((r) => r.change_seq > to - 2).map((r) => r.id));
      }
    });

    it.runIf(dialect === 'sqlite')(
      'seeks a later page by its change_seq, not from the first change',
      async () => {
        const seen: { sql: string; params: readonly SqlValue[] }[] = [];
        const db = database.db;
        const spy: Database = {
          ...db,
          all: (sql, params) => {
            seen.push({ sql, params: params ?? [] });
            return db.all(sql, params);
          },
        };
        const store = createOfferStore(spy);
        const to = await store.changeSeq('testing');
        const [first] = await store.changes('testing', { from: 0, to, after: null }, 1);
        await store.changes('testing', { from: 0, to, after: { changeSeq: to - 1, id: first?.id ?? '' } }, 5);
        const later = seen.at(-1) as { sql: string; params: readonly SqlValue[] };
        const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${later.sql}`, later.params);
        expect(plan.map((p) => p.detail).join('\n')).toMatch(/change_seq>\? AND change_seq<\?/);
      },
    );
  });
}
