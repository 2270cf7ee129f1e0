import type { Database, Queryable, SqlValue } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { OfferInput } from './offer-input.js';
import { type OfferRow, offerIdFor, toOffer, toRowValues } from './rows.js';
import { TOTAL_EXACT_BOUND } from './schemas.js';
import {
  chooseWalk,
  countFacets,
  countQuery,
  type FacetRow,
  facetRowsQuery,
  listCap,
  type PageOptions,
  pageQuery,
  SORT_KEYS,
  sortIndex,
  walkCap,
} from './search-sql.js';
import {
  type Facets,
  OFFER_READ_COLUMNS,
  type OfferStore,
  type SearchCriteria,
  type TextIndex,
} from './store.js';
import { analyseField, MIN_TYPO_WORD_LENGTH, type TextQuery, typoCandidates } from './text.js';
import { postgresTextIndex } from './text-index-postgres.js';
import { sqliteTextIndex } from './text-index-sqlite.js';

/** Rows written per transaction: big enough to amortise commits, small enough to keep locks short. */
const BATCH_SIZE = 2_000;
/** Rows per multi-row INSERT: well under both backends' bound-parameter limits. */
const ROWS_PER_INSERT = 200;

/** `INSERT … VALUES (…), (…) ON CONFLICT DO NOTHING` in chunks; the syntax is the same on both. */
async function insertRows(
  tx: Queryable,
  table: string,
  columns: string[],
  rows: SqlValue[][],
): Promise<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    await tx.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')} ON CONFLICT DO NOTHING`,
      chunk.flat(),
    );
  }
}

/** The tag rows (filter and facet) and the vocabulary (typo tolerance) of a batch of offers. */
async function writeSearchSideTables(
  tx: Queryable,
  environment: Environment,
  batch: readonly OfferInput[],
  stems: Set<string>,
): Promise<void> {
  // The same externalId twice in a batch: its last row is the offer (as for the offers table).
  const last = new Map(batch.map((o) => [offerIdFor(environment, o.externalId), o]));
  const ids = [...last.keys()];
  const offers = [...last.values()];
  for (let start = 0; start < ids.length; start += ROWS_PER_INSERT) {
    const chunk = ids.slice(start, start + ROWS_PER_INSERT);
    await tx.run(`DELETE FROM offer_tags WHERE offer_id IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
  const tagRows = offers.flatMap((o, i) => [...new Set(o.tags)].map((tag) => [tag, ids[i] ?? '']));
  await insertRows(tx, 'offer_tags', ['tag', 'offer_id'], tagRows);
  await insertRows(
    tx,
    'offer_terms',
    ['term'],
    [...stems].map((term) => [term]),
  );
}

/**
 * The offer store on either backend. Everything but the text index is the same SQL on both
 * (see search-sql.ts); `TextIndex` is the one place the dialects differ.
 */
export function createOfferStore(db: Database): OfferStore {
  const index: TextIndex = db.dialect === 'sqlite' ? sqliteTextIndex : postgresTextIndex;
  /**
   * SQLite: whether and how to walk the sort index for a text query, from how many offers
   * match its text (of the title alone, for relevance tier 1). See search-sql.ts chooseWalk.
   */
  async function walkFor(criteria: SearchCriteria, n: number, titleOnly: boolean): Promise<PageOptions> {
    const indexHint = sortIndex(criteria.sort);
    if (n <= TOTAL_EXACT_BOUND || !criteria.text || !index.countTextMatches || !indexHint) return {};
    const rows = Number((await db.get<{ n: number }>('SELECT max(seq) AS n FROM offers'))?.n ?? 0);
    // A prefix never takes the per-row walk, so counting past the list threshold is wasted.
    const cap = criteria.text.prefix !== null ? listCap(criteria.limit, rows) : walkCap(criteria.limit, rows);
    const count = index.countTextMatches(criteria.text, cap, titleOnly);
    if (!count) return {};
    const matches = Number((await db.get<{ n: number }>(count.sql, count.params))?.n ?? 0);
    const walk = chooseWalk(matches, criteria.limit, rows, criteria.text.prefix !== null);
    return walk === 'none' ? {} : { indexHint, perRow: walk === 'perRow' };
  }
  return {
    async upsertMany(environment, offers, now) {
      let inserted = 0;
      let updated = 0;
      for (let start = 0; start < offers.length; start += BATCH_SIZE) {
        const batch = offers.slice(start, start + BATCH_SIZE);
        const counts = await db.transaction(async (tx) => {
          let ins = 0;
          const stems = new Set<string>();
          const texts = batch.map((input) => {
            const text = { title: analyseField(input.title), body: analyseField(input.description) };
            for (const s of text.title.stems) stems.add(s);
            for (const s of text.body.stems) stems.add(s);
            return text;
          });
          const rows = batch.map((input) => toRowValues(environment, input, now));
          const ids = new Set(rows.map((r) => r[0]));
          if (ids.size === rows.length) {
            ins = (await index.upsertBatch(tx, rows, texts)).filter(Boolean).length;
          } else {
            // The same externalId twice in one batch: row by row, the later write wins.
            for (const [i, row] of rows.entries()) {
              const text = texts[i];
              if (text && (await index.upsert(tx, row, text))) ins += 1;
            }
          }
          await writeSearchSideTables(tx, environment, batch, stems);
          return ins;
        });
        inserted += counts;
        updated += batch.length - counts;
      }
      return { inserted, updated };
    },
    async get(environment, id, now) {
      // By primary key: on the main thread's connection (Database.getByKey), not a read worker.
      const row = await db.getByKey<OfferRow>(
        `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.id = ? AND o.environment = ?`,
        [id, environment],
      );
      return row && toOffer(row, now);
    },
    async search(criteria, facetFields) {
      // The bounded count first: it tells a broad text query (worth walking the sort index on
      // SQLite) from a narrow one (start from the text index; the planner's choice). With
      // facets, the same read of the first matches gives both.
      let n: number;
      let facets: Facets = {};
      if (facetFields.length > 0) {
        const query = facetRowsQuery(criteria, index, TOTAL_EXACT_BOUND + 1);
        const first = await db.all<FacetRow>(query.sql, query.params);
        n = first.length;
        facets = countFacets(first.slice(0, TOTAL_EXACT_BOUND), facetFields);
      } else {
        const count = countQuery(criteria, index, TOTAL_EXACT_BOUND);
        n = Number((await db.get<{ n: number }>(count.sql, count.params))?.n ?? 0);
      }
      const read = (options: PageOptions) => {
        const page = pageQuery(criteria, index, options);
        return db.all<OfferRow & { tier?: number }>(page.sql, page.params);
      };
      let rows: (OfferRow & { tier?: number })[];
      if (criteria.sort === 'relevance' && criteria.text) {
        rows = [];
        if (!criteria.after || Number(criteria.after[0]) === 1) {
          rows = await read({ tier: 1, ...(await walkFor(criteria, n, true)) });
        }
        if (rows.length <= criteria.limit) {
          const limit = criteria.limit - rows.length;
          rows.push(...(await read({ tier: 0, limit, ...(await walkFor(criteria, n, false)) })));
        }
      } else {
        rows = await read(await walkFor(criteria, n, false));
      }
      const hasMore = rows.length > criteria.limit;
      const pageRows = hasMore ? rows.slice(0, criteria.limit) : rows;
      const last = pageRows.at(-1);
      return {
        facets,
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
    async resolveTypos(query) {
      return resolveTypos(db, query);
    },
    async optimize() {
      await db.exec(
        db.dialect === 'sqlite' ? 'PRAGMA optimize=0x10002' : 'ANALYZE offers, offer_tags, offer_terms',
      );
    },
    async count(environment) {
      const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM offers WHERE environment = ?', [
        environment,
      ]);
      return Number(row?.n ?? 0);
    },
  };
}

/**
 * Typo tolerance, the same on both backends because it runs here over the shared vocabulary:
 * a word of 5+ letters whose stem was never indexed is widened to the indexed stems one edit
 * away ("chiars" → chair). A known word is left alone, so correct spelling never finds more.
 */
async function resolveTypos(db: Database, query: TextQuery): Promise<TextQuery> {
  const unsure = query.terms.filter((t) => t.word.length >= MIN_TYPO_WORD_LENGTH);
  if (unsure.length === 0) return query;
  const known = await knownTerms(
    db,
    unsure.map((t) => t.stems[0] ?? ''),
  );
  const typos = unsure.filter((t) => !known.has(t.stems[0] ?? ''));
  if (typos.length === 0) return query;
  const candidates = new Map(typos.map((t) => [t.word, typoCandidates(t.word)]));
  const found = await knownTerms(db, [...new Set([...candidates.values()].flat())]);
  return {
    ...query,
    terms: query.terms.map((t) => {
      const options = candidates.get(t.word)?.filter((c) => found.has(c));
      return options && options.length > 0 && !known.has(t.stems[0] ?? '') ? { ...t, stems: options } : t;
    }),
  };
}

async function knownTerms(db: Database, terms: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < terms.length; start += 500) {
    const chunk = terms.slice(start, start + 500);
    const rows = await db.all<{ term: string }>(
      `SELECT term FROM offer_terms WHERE term IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of rows) known.add(row.term);
  }
  return known;
}
