import type { Database, Queryable } from '../db/database.js';
import { pgArray } from '../db/pg-array.js';
import type { Environment } from '../platform/environment.js';
import type { OfferInput } from './offer-input.js';
import { type OfferRow, offerIdFor, toOffer, toRowValues } from './rows.js';
import { TOTAL_EXACT_BOUND } from './schemas.js';
import {
  chooseWalk,
  countFacets,
  countQuery,
  EARTH_RADIUS_KM,
  type FacetRow,
  FIRST_RING_KM,
  facetRowsQuery,
  geoIndex,
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
import {
  type AnalysedField,
  analyseField,
  MIN_TYPO_WORD_LENGTH,
  type TextQuery,
  typoCandidates,
} from './text.js';
import { postgresTextIndex } from './text-index-postgres.js';
import { sqliteTextIndex } from './text-index-sqlite.js';

/** The longest prefix offers_fts indexes itself (`prefix='2 3'`). */
const FTS_PREFIX_INDEX_MAX = 3;
/** Beyond this many tokens, a prefix is left to FTS5 (each alternative costs an iterator). */
const MAX_PREFIX_TERMS = 32;

/** A prefix FTS5 re-expands on every per-row check (not listed as alternatives). */
const slowPrefix = (text: TextQuery) => text.prefix !== null && !text.prefixTerms;

/**
 * Offers written per transaction. Each commit is a WAL sync and, on SQLite, rewrites every
 * index page the batch touched (the offers indexes take random keys), so a bigger batch writes
 * far fewer pages per offer (ADR 0012: 2 000 → 10 000 rows cut SQLite's write time by a third).
 * Still short: well under a second, and other writers wait up to busy_timeout (5 s).
 */
const BATCH_SIZE = 10_000;
/** Rows per `IN (…)` list: well under both backends' bound-parameter limits. */
const IDS_PER_STATEMENT = 500;

/**
 * `INSERT … ON CONFLICT DO NOTHING` of many rows of text columns. SQLite: one prepared
 * single-row statement run per row (in process, no round trip to save). PostgreSQL: one
 * statement for all rows, each column bound as one array and turned back into rows by unnest.
 */
async function insertTextRows(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly string[][],
): Promise<void> {
  if (rows.length === 0) return;
  if (tx.dialect === 'postgres') {
    await tx.run(
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${columns.map(() => '?::text[]').join(', ')}) ON CONFLICT DO NOTHING`,
      columns.map((_, j) => pgArray(rows.map((row) => row[j] ?? null))),
    );
    return;
  }
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;
  for (const row of rows) await tx.run(sql, row);
}

/**
 * The tag rows (filter and facet) and the vocabulary (typo tolerance) of a batch of offers.
 * `replaced`: ids of offers that existed before this batch; only they can have old tag rows.
 */
async function writeSearchSideTables(
  tx: Queryable,
  environment: Environment,
  batch: readonly OfferInput[],
  stems: Set<string>,
  replaced: readonly string[],
): Promise<void> {
  for (let start = 0; start < replaced.length; start += IDS_PER_STATEMENT) {
    const chunk = replaced.slice(start, start + IDS_PER_STATEMENT);
    await tx.run(`DELETE FROM offer_tags WHERE offer_id IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
  // The same externalId twice in a batch: its last row is the offer (as for the offers table).
  const last = new Map(batch.map((o) => [offerIdFor(environment, o.externalId), o]));
  const tagRows: string[][] = [];
  for (const [id, offer] of last) for (const tag of new Set(offer.tags)) tagRows.push([tag, id]);
  await insertTextRows(tx, 'offer_tags', ['tag', 'offer_id'], tagRows);
  await insertTextRows(
    tx,
    'offer_terms',
    ['term'],
    [...stems].map((term) => [term]),
  );
}

/** Analysed title and description of each offer, and every stem they hold (the vocabulary). */
function analyseBatch(batch: readonly OfferInput[]): {
  texts: { title: AnalysedField; body: AnalysedField }[];
  stems: Set<string>;
  /** Stems and unstemmed words: every token the text index gets (its prefix vocabulary). */
  tokens: Set<string>;
} {
  const stems = new Set<string>();
  const tokens = new Set<string>();
  const texts = batch.map((input) => {
    const text = { title: analyseField(input.title), body: analyseField(input.description) };
    for (const s of text.title.stems) stems.add(s);
    for (const s of text.body.stems) stems.add(s);
    for (const w of text.title.words) tokens.add(w);
    for (const w of text.body.words) tokens.add(w);
    return text;
  });
  for (const s of stems) tokens.add(s);
  return { texts, stems, tokens };
}

/** The batch's tokens into the text index's own vocabulary, where it keeps one. */
async function writeTokens(tx: Queryable, index: TextIndex, tokens: Set<string>): Promise<void> {
  if (!index.tokenTable) return;
  await insertTextRows(
    tx,
    index.tokenTable,
    ['term'],
    [...tokens].map((t) => [t]),
  );
}

/**
 * One batch in one transaction: offers with their text-index entries, tags and vocabulary.
 * Resolves to the number of offers inserted (the rest were updated).
 */
async function writeBatch(
  tx: Queryable,
  index: TextIndex,
  environment: Environment,
  batch: readonly OfferInput[],
  now: number,
): Promise<number> {
  const { texts, stems, tokens } = analyseBatch(batch);
  const rows = batch.map((input) => toRowValues(environment, input, now));
  const ids = rows.map((r) => String(r[0]));
  if (new Set(ids).size === rows.length) {
    const inserted = await index.upsertBatch(tx, rows, texts);
    const replaced = ids.filter((_, i) => !inserted[i]);
    await writeSearchSideTables(tx, environment, batch, stems, replaced);
    await writeTokens(tx, index, tokens);
    return inserted.filter(Boolean).length;
  }
  // The same externalId twice in one batch: row by row, the later write wins.
  let count = 0;
  for (const [i, row] of rows.entries()) {
    const text = texts[i];
    if (text && (await index.upsert(tx, row, text))) count += 1;
  }
  await writeSearchSideTables(tx, environment, batch, stems, [...new Set(ids)]);
  await writeTokens(tx, index, tokens);
  return count;
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
    // With one category, its own date index: walking it tests only that category's offers.
    const indexHint = sortIndex(criteria.sort, criteria.categories);
    if (n <= TOTAL_EXACT_BOUND || !criteria.text || !index.countTextMatches || !indexHint) return {};
    const rows = Number((await db.get<{ n: number }>('SELECT max(seq) AS n FROM offers'))?.n ?? 0);
    // A prefix never takes the per-row walk, so counting past the list threshold is wasted.
    const cap = slowPrefix(criteria.text) ? listCap(criteria.limit, rows) : walkCap(criteria.limit, rows);
    const count = index.countTextMatches(criteria.text, cap, titleOnly);
    if (!count) return {};
    const matches = Number((await db.get<{ n: number }>(count.sql, count.params))?.n ?? 0);
    const walk = chooseWalk(matches, criteria.limit, rows, slowPrefix(criteria.text));
    // Few text matches: start from them. Left to itself, the planner may walk another index
    // (a category's, say) and test every offer of it against the list (1M offers, measured on
    // a loaded machine: 94 ms walking the category, 26 ms from the matches).
    return walk === 'none' ? { textFirst: true } : { indexHint, perRow: walk === 'perRow' };
  }
  /**
   * SQLite: a prefix longer than the text index's own prefix indexes (2 and 3 letters) stands
   * for the few indexed tokens it starts, listed from the prefix vocabulary. FTS5 reads those
   * as alternatives, lazily, and stops at the first page; given the bare prefix it would first
   * merge the posting lists of every such token (1M offers, "condition": 25 ms → 0.3 ms).
   */
  async function expandPrefix(criteria: SearchCriteria): Promise<SearchCriteria> {
    const text = criteria.text;
    if (!text?.prefix || text.prefix.length <= FTS_PREFIX_INDEX_MAX || !index.prefixTerms) return criteria;
    const list = index.prefixTerms(text.prefix, MAX_PREFIX_TERMS);
    const terms = (await db.all<{ term: string }>(list.sql, list.params)).map((r) => r.term);
    if (terms.length === 0 || terms.length > MAX_PREFIX_TERMS) return criteria;
    return { ...criteria, text: { ...text, prefixTerms: terms } };
  }
  return {
    async upsertMany(environment, offers, now) {
      let inserted = 0;
      let updated = 0;
      for (let start = 0; start < offers.length; start += BATCH_SIZE) {
        const batch = offers.slice(start, start + BATCH_SIZE);
        const count = await db.transaction((tx) => writeBatch(tx, index, environment, batch, now));
        inserted += count;
        updated += batch.length - count;
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
    async search(asked, facetFields) {
      const criteria = await expandPrefix(asked);
      // The bounded count first: it tells a broad text query (worth walking the sort index on
      // SQLite) from a narrow one (start from the text index; the planner's choice). With
      // facets, the same read of the first matches gives both.
      let n: number;
      let facets: Facets = {};
      const geoHint = (scope: SearchCriteria) => (db.dialect === 'sqlite' ? geoIndex(scope) : undefined);
      if (facetFields.length > 0) {
        const query = facetRowsQuery(criteria, index, TOTAL_EXACT_BOUND + 1, geoHint(criteria));
        const first = await db.all<FacetRow>(query.sql, query.params);
        n = first.length;
        facets = countFacets(first.slice(0, TOTAL_EXACT_BOUND), facetFields);
      } else {
        const count = countQuery(criteria, index, TOTAL_EXACT_BOUND, geoHint(criteria));
        n = Number((await db.get<{ n: number }>(count.sql, count.params))?.n ?? 0);
      }
      const read = (options: PageOptions, scope: SearchCriteria = criteria) => {
        const page = pageQuery(scope, index, options);
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
      } else if (criteria.text) {
        rows = await read(await walkFor(criteria, n, false));
      } else if (criteria.sort === 'distance' && n > TOTAL_EXACT_BOUND) {
        rows = await nearestFirst(criteria, (scope) => read({ indexHint: geoHint(scope) }, scope));
      } else if (n <= TOTAL_EXACT_BOUND) {
        // Few matches (a radius: read them all from the geo index): sorting them is cheap.
        rows = await read({ indexHint: geoHint(criteria) });
      } else {
        // Many matches (at least 1 in 1 000 offers): walk the sort order and keep the matches,
        // stopping after a page, rather than reading every match to sort them. The planner,
        // left to its statistics, may start from a selective-looking filter (a price band, a
        // radius) and sort 100 000 rows (1M offers: 1.1 s, walked: 2 ms).
        const hint = db.dialect === 'sqlite' ? sortIndex(criteria.sort, criteria.categories) : null;
        rows = await read({ indexHint: hint ?? undefined });
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
        // A full ANALYZE, not the sampled one of `PRAGMA optimize`: sampling 2 000 rows, SQLite
        // took `environment = ?` (one value, every row) for 1 row in 500 and walked whichever
        // index starts with it (1M offers, a country-only search: 340 ms instead of 2).
        db.dialect === 'sqlite'
          ? 'ANALYZE offers; ANALYZE offer_tags; ANALYZE offers_fts_terms'
          : // VACUUM sets the visibility map, so the covering geo index is read without the
            // table (an index-only scan); a bulk load leaves it unset until autovacuum runs.
            'VACUUM (ANALYZE) offers, offer_tags, offer_terms',
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
 * `sort=distance` over many matches: the nearest offers come from a small ring around `near`
 * (past the cursor), widened four times over until it holds a page, instead of measuring and
 * sorting every offer within the radius. A ring's offers are nearer than any offer outside it,
 * so the first ring that holds `limit + 1` offers holds the page; the last ring is the query's
 * own radius (or none), so the result is exactly that of the unringed query.
 */
async function nearestFirst<R>(
  criteria: SearchCriteria,
  read: (scope: SearchCriteria) => Promise<R[]>,
): Promise<R[]> {
  // No two points on Earth are further apart than half a great circle.
  const outer = Math.min(criteria.radiusKm ?? Number.POSITIVE_INFINITY, Math.PI * EARTH_RADIUS_KM);
  const from = criteria.after ? Number(criteria.after[0]) : 0;
  for (let width = FIRST_RING_KM; from + width < outer; width *= 4) {
    const rows = await read({ ...criteria, radiusKm: from + width });
    if (rows.length > criteria.limit) return rows;
  }
  return read(criteria);
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
