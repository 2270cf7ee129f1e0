import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger.js';
import { createLiveIndex } from '../../src/offers/live-index.js';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { engineQuery } from '../support/engine-query.js';

/**
 * Issue 26: every write of an offer leaves a dead slot in the index. Past the dead-slot bound
 * the live index builds a fresh one from the database and swaps it in between catch-ups: the
 * slots are the live offers again, nothing written meanwhile is lost, and the version the
 * search cache compares keeps increasing.
 */
const NOW = Date.UTC(2026, 10, 1);
const offers = [...generateOffers({ count: 30, seed: 26 })].map((o) => ({
  ...o,
  status: 'active' as const,
  expiresAt: null,
}));

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`live index rebuilt for its dead slots on ${dialect}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database.drop();
    });

    it('replaces an index whose dead slots pass the bound with a fresh one, losing no write', async () => {
      const store = createOfferStore(database.db);
      await store.upsertMany('testing', offers, NOW);
      const lines: string[] = [];
      const logger = createLogger({
        level: 'info',
        stream: new Writable({
          write(chunk, _encoding, callback) {
            lines.push(String(chunk));
            callback();
          },
        }),
      });
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => createSearchIndex(),
        logger,
        pageSize: 7,
        rebuildAfter: { dead: 10, share: 0.25 },
      });
      await live.build();
      const slots = () => (live.index as unknown as { slots: number }).slots;
      expect(slots()).toBe(30);
      // 9 rewrites: below the bound, nothing happens.
      await store.upsertMany(
        'testing',
        offers.slice(0, 9).map((o) => ({ ...o, title: `${o.title} again` })),
        NOW + 1,
      );
      await live.catchUp();
      const first = live.index;
      expect(slots()).toBe(39);
      // 11 more: 20 dead slots, past both 10 and a quarter of 30.
      await store.upsertMany(
        'testing',
        offers.slice(0, 11).map((o) => ({ ...o, title: `Rewritten ${o.externalId}` })),
        NOW + 2,
      );
      await live.catchUp();
      const versionBefore = live.version;
      // A write while the fresh index is read; then catch-ups until the swap.
      await store.upsertMany(
        'testing',
        [{ ...(offers[20] as (typeof offers)[0]), title: 'Written during the rebuild' }],
        NOW + 3,
      );
      for (let i = 0; i < 500 && live.index === first; i += 1) {
        await new Promise((r) => setTimeout(r, 10));
        await live.catchUp();
      }
      expect(live.index).not.toBe(first);
      expect(live.index.size).toBe(30);
      expect(slots()).toBeLessThanOrEqual(31); // the fresh read, plus at most the write it caught up
      expect(live.version).toBeGreaterThan(versionBefore);
      expect(lines.some((l) => l.includes('search index: rebuilt without its dead slots'))).toBe(true);
      const find = (q: string) =>
        live.index.search(engineQuery(NOW + 10, { text: parseTextQuery(`"${q}"`), sort: 'relevance' }), [])
          .ids;
      expect(find('Written during the rebuild')).toEqual([
        offerIdFor('testing', offers[20]?.externalId as string),
      ]);
      expect(find(`Rewritten ${offers[3]?.externalId}`)).toEqual([
        offerIdFor('testing', offers[3]?.externalId as string),
      ]);
      // And writes after the swap land in the new index.
      await store.upsertMany(
        'testing',
        [{ ...(offers[29] as (typeof offers)[0]), title: 'Written after the swap' }],
        NOW + 4,
      );
      await live.catchUp();
      expect(find('Written after the swap')).toHaveLength(1);
      await live.close();
    });
  });
}
