import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createLiveIndex } from '../../src/offers/live-index.js';
import { toRowValues } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { OFFER_WRITE_COLUMNS } from '../../src/offers/store.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createNaiveIndex } from '../support/naive-index.js';

/**
 * Upgrading a database that holds version-2 data (rows written with their SQL text index) to
 * today's schema: the SQL search is dropped (migration 13), the rows stay exactly what writing
 * the same offers today produces, and the search index reads them all.
 */
const OFFERS = [...generateOffers({ count: 300, seed: 5 })];
// Version 2's columns: those added later (project_id, v50) did not exist yet.
const V2_COLUMNS = OFFER_WRITE_COLUMNS.filter((c) => c !== 'project_id');
const COLUMNS = V2_COLUMNS.join(', ');

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`upgrade from schema 2 on ${dialect}`, () => {
    let old: TestDatabase;
    let fresh: TestDatabase;
    beforeAll(async () => {
      old = await createTestDatabase(dialect, { upTo: 2 });
      // Written the way version 2 wrote offers: the row and its text-index entry.
      await old.db.transaction(async (tx) => {
        for (const offer of OFFERS) {
          const row = toRowValues('testing', offer, 0).slice(0, V2_COLUMNS.length);
          const values = row.map(() => '?').join(', ');
          if (dialect === 'postgres') {
            await tx.run(
              `INSERT INTO offers (${COLUMNS}, search_vector) VALUES (${values}, 'x'::tsvector)`,
              row,
            );
            continue;
          }
          const inserted = await tx.get<{ seq: number }>(
            `INSERT INTO offers (${COLUMNS}) VALUES (${values}) RETURNING seq`,
            row,
          );
          await tx.run(
            'INSERT INTO offers_fts (rowid, title, body, title_words, body_words) VALUES (?, ?, ?, ?, ?)',
            [inserted?.seq ?? null, 'x', 'x', '', ''],
          );
        }
      });
      fresh = await createTestDatabase(dialect);
      await createOfferStore(fresh.db).upsertMany('testing', OFFERS, 0);
    });
    afterAll(async () => {
      await old.drop();
      await fresh.drop();
    });

    it('drops the SQL search and keeps the rows as today’s writes would', async () => {
      expect((await migrate(old.db)).applied.map((m) => m.version)).toEqual(
        expect.arrayContaining([10, 11, 12, 13]),
      );
      const rows = `SELECT ${COLUMNS} FROM offers ORDER BY id`;
      const upgraded = await old.db.all(rows);
      expect(upgraded).toHaveLength(OFFERS.length);
      expect(upgraded).toEqual(await fresh.db.all(rows));
      for (const table of ['offer_tags', 'offer_terms', dialect === 'sqlite' ? 'offers_fts' : 'offers']) {
        const probe =
          table === 'offers'
            ? 'SELECT search_vector FROM offers LIMIT 1'
            : `SELECT count(*) AS n FROM ${table}`;
        await expect(old.db.all(probe)).rejects.toThrow();
      }
    });

    it('reads every upgraded row into the search index, later writes in change order', async () => {
      const store = createOfferStore(old.db);
      const naive = createNaiveIndex();
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => naive,
        logger: pino({ level: 'silent' }),
        pageSize: 64,
      });
      await live.build();
      expect(naive.size).toBe(OFFERS.length);
      const first = OFFERS[0];
      if (!first) throw new Error('no offer');
      await store.upsertMany('testing', [{ ...first, title: 'Renamed after the upgrade' }], 1);
      await live.catchUp();
      expect([...naive.docs.values()].filter((d) => d.title === 'Renamed after the upgrade')).toHaveLength(1);
    });
  });
}
