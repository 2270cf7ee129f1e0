import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { toRowValues } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { analyseField } from '../../src/offers/text.js';
import { postgresTextIndex } from '../../src/offers/text-index-postgres.js';
import { sqliteTextIndex } from '../../src/offers/text-index-sqlite.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * Migrations 10 and 11 on a database holding version-2 data: the vocabularies and the tag rows
 * they backfill must be exactly what writing the same offers today produces.
 */
const OFFERS = [...generateOffers({ count: 300, seed: 5 })];

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`upgrade from schema 2 on ${dialect}`, () => {
    let old: TestDatabase;
    let fresh: TestDatabase;
    beforeAll(async () => {
      old = await createTestDatabase(dialect, { upTo: 2 });
      // Written the way version 2 wrote offers: the row and its text index entry only.
      const index = dialect === 'sqlite' ? sqliteTextIndex : postgresTextIndex;
      await old.db.transaction(async (tx) => {
        for (const offer of OFFERS) {
          const text = { title: analyseField(offer.title), body: analyseField(offer.description) };
          await index.upsert(tx, toRowValues('testing', offer, 0), text);
        }
      });
      fresh = await createTestDatabase(dialect);
      await createOfferStore(fresh.db).upsertMany('testing', OFFERS, 0);
    });
    afterAll(async () => {
      await old.drop();
      await fresh.drop();
    });

    it('backfills the vocabularies and the tags as today’s writes would', async () => {
      expect((await migrate(old.db)).applied.map((m) => m.version)).toEqual(expect.arrayContaining([10, 11]));
      for (const sql of [
        'SELECT term FROM offer_terms ORDER BY term',
        'SELECT tag, offer_id FROM offer_tags ORDER BY tag, offer_id',
        // Migration 11: the prefix vocabulary (SQLite only; PostgreSQL expands prefixes itself).
        ...(dialect === 'sqlite' ? ['SELECT term FROM offers_fts_terms ORDER BY term'] : []),
      ]) {
        const upgraded = await old.db.all(sql);
        expect(upgraded.length).toBeGreaterThan(100);
        expect(upgraded).toEqual(await fresh.db.all(sql));
      }
    });
  });
}
