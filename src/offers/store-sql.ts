import type { Database } from '../db/database.js';
import { type OfferRow, toOffer, toRowValues } from './rows.js';
import { TOTAL_EXACT_BOUND } from './schemas.js';
import { countQuery, pageQuery, SORT_KEYS } from './search-sql.js';
import { OFFER_READ_COLUMNS, type OfferStore, type TextIndex } from './store.js';
import { analyseField } from './text.js';
import { postgresTextIndex } from './text-index-postgres.js';
import { sqliteTextIndex } from './text-index-sqlite.js';

/** Rows written per transaction: big enough to amortise commits, small enough to keep locks short. */
const BATCH_SIZE = 500;

/**
 * The offer store on either backend. Everything but the text index is the same SQL on both
 * (see search-sql.ts); `TextIndex` is the one place the dialects differ.
 */
export function createOfferStore(db: Database): OfferStore {
  const index: TextIndex = db.dialect === 'sqlite' ? sqliteTextIndex : postgresTextIndex;
  return {
    async upsertMany(environment, offers, now) {
      let inserted = 0;
      let updated = 0;
      for (let start = 0; start < offers.length; start += BATCH_SIZE) {
        const batch = offers.slice(start, start + BATCH_SIZE);
        const counts = await db.transaction(async (tx) => {
          let ins = 0;
          for (const input of batch) {
            const text = { title: analyseField(input.title), body: analyseField(input.description) };
            if (await index.upsert(tx, toRowValues(environment, input, now), text)) ins += 1;
          }
          return ins;
        });
        inserted += counts;
        updated += batch.length - counts;
      }
      return { inserted, updated };
    },
    async get(environment, id, now) {
      const row = await db.get<OfferRow>(
        `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.id = ? AND o.environment = ?`,
        [id, environment],
      );
      return row && toOffer(row, now);
    },
    async search(criteria) {
      const page = pageQuery(criteria, index);
      const count = countQuery(criteria, index, TOTAL_EXACT_BOUND);
      const [rows, counted] = await Promise.all([
        db.all<OfferRow & { tier?: number }>(page.sql, page.params),
        db.get<{ n: number }>(count.sql, count.params),
      ]);
      const n = Number(counted?.n ?? 0);
      const hasMore = rows.length > criteria.limit;
      const pageRows = hasMore ? rows.slice(0, criteria.limit) : rows;
      const last = pageRows.at(-1);
      return {
        offers: pageRows.map((row) => toOffer(row, criteria.now)),
        total:
          n > TOTAL_EXACT_BOUND
            ? { value: TOTAL_EXACT_BOUND, relation: 'gte' }
            : { value: n, relation: 'eq' },
        nextKeys:
          hasMore && last
            ? SORT_KEYS[criteria.sort].map((k) => {
                const value = (last as unknown as Record<string, unknown>)[k.column];
                return typeof value === 'string' ? value : Number(value);
              })
            : null,
      };
    },
    async count(environment) {
      const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM offers WHERE environment = ?', [
        environment,
      ]);
      return Number(row?.n ?? 0);
    },
  };
}
