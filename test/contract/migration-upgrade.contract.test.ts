import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { toRowValues } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { OFFER_WRITE_COLUMNS } from '../../src/offers/store.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { analyseField, parseTextQuery, type TextQuery } from '../../src/offers/text.js';
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
      await old.db.transaction(async (tx) => {
        for (const offer of OFFERS) {
          const text = { title: analyseField(offer.title), body: analyseField(offer.description) };
          const row = toRowValues('testing', offer, 0);
          if (dialect === 'postgres') {
            await postgresTextIndex.upsert(tx, row, text);
            continue;
          }
          const inserted = await tx.get<{ seq: number }>(
            `INSERT INTO offers (${OFFER_WRITE_COLUMNS.join(', ')}) VALUES (${row.map(() => '?').join(', ')}) RETURNING seq`,
            row,
          );
          await tx.run(
            'INSERT INTO offers_fts (rowid, title, body, title_words, body_words) VALUES (?, ?, ?, ?, ?)',
            [
              inserted?.seq ?? null,
              text.title.stems.join(' '),
              text.body.stems.join(' '),
              text.title.words.join(' '),
              text.body.words.join(' '),
            ],
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

    it.skipIf(dialect !== 'sqlite')(
      'tests the title tier of upgraded rows (no title tokens) as of new ones (tokens in the row)',
      async () => {
        const parsed = (q: string): TextQuery => {
          const query = parseTextQuery(q);
          if (!query) throw new Error(`no query in ${q}`);
          return query;
        };
        const titleOf = (db: TestDatabase['db'], query: TextQuery) => {
          const tier = sqliteTextIndex.perRow?.matchTitle(query);
          if (!tier) throw new Error('SQLite tests the title tier per row');
          return db.all<{ id: string }>(
            `SELECT o.id FROM offers o WHERE ${tier.sql} ORDER BY o.id`,
            tier.params,
          );
        };
        const listed = (query: TextQuery) => {
          const tier = sqliteTextIndex.matchTitle(query);
          return fresh.db.all<{ id: string }>(
            `SELECT o.id FROM offers o WHERE ${tier.sql} ORDER BY o.id`,
            tier.params,
          );
        };
        expect(await old.db.get('SELECT count(*) AS n FROM offers WHERE title_stems IS NULL')).toEqual({
          n: 300,
        });
        for (const q of ['lamp', 'oak table', 'chair ', 'bik', '"road bike"', 'table -oak', 'wooden desk']) {
          const query = parsed(q);
          const expected = await listed(query);
          expect(await titleOf(old.db, query)).toEqual(expected);
          expect(await titleOf(fresh.db, query)).toEqual(expected);
        }
        const some = await titleOf(fresh.db, parsed('table'));
        expect(some.length).toBeGreaterThan(0);
      },
    );
  });
}
