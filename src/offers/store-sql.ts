import { bumpCounter, readCounter } from '../db/counters.js';
import type { Database, Queryable } from '../db/database.js';
import { pgArray } from '../db/pg-array.js';
import type { Environment } from '../platform/environment.js';
import type { OfferInput } from './offer-input.js';
import { type OfferRow, toOffer, toRowValues } from './rows.js';
import {
  INDEX_READ_COLUMNS,
  type IndexRow,
  OFFER_READ_COLUMNS,
  OFFER_WRITE_COLUMNS,
  type OfferRowValues,
  type OfferStore,
} from './store.js';

/**
 * The offer store: rows only, the same SQL on both backends (issue 12). Search is answered by
 * the in-memory engine (src/search/), which reads rows from here at start (`scan`) and then
 * the changed ones (`changes`); the page's rows come back by id (`getMany`).
 */

/**
 * Offers written per transaction. Each commit is a WAL sync and rewrites every index page the
 * batch touched, so a bigger batch writes fewer pages per offer (ADR 0012); still well under a
 * second, and other writers wait up to busy_timeout (5 s).
 */
const BATCH_SIZE = 10_000;
/** Rows per `IN (…)` list: well under both backends' bound-parameter limits. */
const IDS_PER_STATEMENT = 500;

/** What a write stores: the offer columns, then its change number. */
const COLUMNS = [...OFFER_WRITE_COLUMNS, 'change_seq'] as const;

/** Element types of the columns, in `COLUMNS` order, for PostgreSQL's unnest. */
const COLUMN_TYPES: Record<(typeof COLUMNS)[number], string> = {
  id: 'text',
  environment: 'text',
  external_id: 'text',
  title: 'text',
  description: 'text',
  category: 'text',
  tags: 'text',
  city: 'text',
  region: 'text',
  country: 'text',
  lat: 'float8',
  lon: 'float8',
  price_amount: 'text',
  price_value: 'int8',
  currency: 'text',
  publisher_id: 'text',
  publisher_name: 'text',
  url: 'text',
  attributes: 'text',
  status: 'text',
  published_at: 'int8',
  updated_at: 'int8',
  expires_at: 'int8',
  project_id: 'text',
  change_seq: 'int8',
};

/**
 * PostgreSQL: the whole batch in one statement, each column one array parameter turned back
 * into rows by unnest (ADR 0012).
 */
const PG_UPSERT = `INSERT INTO offers (${COLUMNS.join(', ')})
  SELECT * FROM unnest(${COLUMNS.map((c) => `?::${COLUMN_TYPES[c]}[]`).join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'id')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ')}
  RETURNING id, (xmax = 0) AS inserted`;

/** SQLite: one short prepared statement per row (in process: no round trip to save). */
const SQLITE_INSERT = `INSERT INTO offers (seq, ${COLUMNS.join(', ')}) VALUES (?, ${COLUMNS.map(() => '?').join(', ')})`;
const SQLITE_UPDATE = `UPDATE offers SET ${COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = ?`)
  .join(', ')} WHERE id = ?`;

/** Writes rows with distinct ids; resolves to how many were new. */
async function writeRows(tx: Queryable, rows: readonly OfferRowValues[]): Promise<number> {
  if (tx.dialect === 'postgres') {
    const returned = await tx.all<{ inserted: boolean }>(
      PG_UPSERT,
      COLUMNS.map((_, j) => pgArray(rows.map((row) => row[j] ?? null))),
    );
    return returned.filter((r) => r.inserted === true).length;
  }
  const ids = rows.map((r) => String(r[0]));
  const existing = new Set<string>();
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
    const found = await tx.all<{ id: string }>(
      `SELECT id FROM offers WHERE id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of found) existing.add(row.id);
  }
  // New offers get the next seqs from here rather than from RETURNING, which costs as much again
  // as the insert (ADR 0012); BEGIN IMMEDIATE holds the write lock, so nobody takes them meanwhile.
  let lastSeq = Number((await tx.get<{ n: number }>('SELECT max(seq) AS n FROM offers'))?.n ?? 0);
  let inserted = 0;
  for (const row of rows) {
    if (existing.has(String(row[0]))) {
      await tx.run(SQLITE_UPDATE, [...row.slice(1), row[0] ?? null]);
    } else {
      await tx.run(SQLITE_INSERT, [++lastSeq, ...row]);
      inserted += 1;
    }
  }
  return inserted;
}

/**
 * One batch in one transaction, stamped with the environment's next change number (its
 * counter row lock, held to commit, orders concurrent writers: db/counters.ts). Resolves to
 * the number of offers inserted (the rest were updated).
 */
async function writeBatch(
  tx: Queryable,
  environment: Environment,
  batch: readonly OfferInput[],
  now: number,
): Promise<number> {
  const changeSeq = await bumpCounter(tx, `offers:${environment}`);
  // The same externalId twice in a batch: its last row is the offer.
  const byId = new Map<string, OfferRowValues>();
  for (const input of batch) {
    const row = [...toRowValues(environment, input, now), changeSeq];
    byId.set(String(row[0]), row);
  }
  return writeRows(tx, [...byId.values()]);
}

/** PostgreSQL answers BIGINT columns as strings. */
function numericIndexRow(row: IndexRow): IndexRow {
  return {
    ...row,
    seq: Number(row.seq),
    change_seq: Number(row.change_seq),
    price_value: Number(row.price_value),
    lat: Number(row.lat),
    lon: Number(row.lon),
    published_at: Number(row.published_at),
    updated_at: Number(row.updated_at),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
  };
}

export function createOfferStore(db: Database): OfferStore {
  return {
    async upsertMany(environment, offers, now) {
      let inserted = 0;
      let updated = 0;
      for (let start = 0; start < offers.length; start += BATCH_SIZE) {
        const batch = offers.slice(start, start + BATCH_SIZE);
        const count = await db.transaction((tx) => writeBatch(tx, environment, batch, now));
        inserted += count;
        updated += batch.length - count;
      }
      return { inserted, updated };
    },
    async upsertOne(environment, offer, now, alsoWrite) {
      const inserted = await db.transaction(async (tx) => {
        const count = await writeBatch(tx, environment, [offer], now);
        await alsoWrite(tx);
        return count;
      });
      return { inserted, updated: 1 - inserted };
    },
    async get(environment, id, now) {
      // By primary key: on the main thread's connection (Database.getByKey), not a read worker.
      const row = await db.getByKey<OfferRow>(
        `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.id = ? AND o.environment = ?`,
        [id, environment],
      );
      return row && toOffer(row, now);
    },
    async getMany(environment, ids, now) {
      const byId = new Map<string, OfferRow>();
      for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
        const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
        // By primary key, a page at most: on the main thread's connection (Database.allByKeys).
        // PostgreSQL takes the ids as one array, so every page is one statement text (planned
        // once per connection: 0.44 against 0.79 ms for 20 rows as an IN list at 1M).
        const rows =
          db.dialect === 'postgres'
            ? await db.allByKeys<OfferRow>(
                `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.environment = ? AND o.id = ANY(?::text[])`,
                [environment, pgArray(chunk)],
              )
            : await db.allByKeys<OfferRow>(
                `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.environment = ? AND o.id IN (${chunk.map(() => '?').join(', ')})`,
                [environment, ...chunk],
              );
        for (const row of rows) byId.set(row.id, row);
      }
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toOffer(row, now)] : [];
      });
    },
    changeSeq: (environment) => readCounter(db, `offers:${environment}`),
    async scan(environment, afterSeq, limit) {
      // On the main thread where the backend allows it (SQLite): no copy out of a read worker.
      const sql = `SELECT ${INDEX_READ_COLUMNS} FROM offers WHERE seq > ? AND environment = ? ORDER BY seq LIMIT ?`;
      const params = [afterSeq, environment, limit];
      const rows = await (db.allInline ? db.allInline<IndexRow>(sql, params) : db.all<IndexRow>(sql, params));
      return rows.map(numericIndexRow);
    },
    async changes(environment, range, limit) {
      const after = range.after;
      // After a page: `change_seq >= ?` bounds the index range from below. The OR alone (`> ? OR
      // (= ? AND id > ?)`) left only `change_seq <= to` to seek on: every page walked the
      // environment's offers from its first change (at 1M offers 0.1–0.25 s a page when cached,
      // seconds when not; ADR 0051).
      const rows = await db.all<IndexRow>(
        `SELECT ${INDEX_READ_COLUMNS} FROM offers
          WHERE environment = ? AND change_seq <= ? AND ${after ? 'change_seq >= ? AND (change_seq > ? OR id > ?)' : 'change_seq > ?'}
          ORDER BY change_seq, id LIMIT ?`,
        after
          ? [environment, range.to, after.changeSeq, after.changeSeq, after.id, limit]
          : [environment, range.to, range.from, limit],
      );
      return rows.map(numericIndexRow);
    },
    async optimize() {
      // Planner statistics after bulk writes (SQLite: a full ANALYZE, not PRAGMA optimize's
      // sample); PostgreSQL's VACUUM also sets the visibility map after a bulk load.
      await db.exec(db.dialect === 'sqlite' ? 'ANALYZE offers' : 'VACUUM (ANALYZE) offers');
    },
    async count(environment) {
      const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM offers WHERE environment = ?', [
        environment,
      ]);
      return Number(row?.n ?? 0);
    },
  };
}
