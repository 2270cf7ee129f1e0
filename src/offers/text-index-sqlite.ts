import type { Queryable, SqlValue } from '../db/database.js';
import { type Fragment, OFFER_WRITE_COLUMNS, type TextIndex } from './store.js';
import type { AnalysedField, TextQuery } from './text.js';

const EMPTY: AnalysedField = { stems: [], words: [] };

/**
 * SQLite: a contentless FTS5 table keyed by `offers.seq` (columns: title stems, description
 * stems, and their unstemmed words for prefix search). Tokens come from text.ts and hold only
 * letters and digits, so quoting them in an FTS5 string is always safe.
 */
const quoted = (tokens: readonly string[]) => `"${tokens.join(' ')}"`;

/** The positive part of a query as FTS5 syntax; null when it has none (only exclusions). */
function ftsQuery(query: TextQuery, titleOnly: boolean): string | null {
  const stems = titleOnly ? '{title}' : '{title body}';
  const parts = query.terms.map((t) =>
    t.stems.length === 1
      ? `${stems} : ${quoted(t.stems)}`
      : `${stems} : (${t.stems.map((s) => quoted([s])).join(' OR ')})`,
  );
  // FTS5 phrases match consecutive tokens within one column, as the tsquery twin does.
  for (const phrase of query.phrases) parts.push(`${stems} : ${quoted(phrase)}`);
  if (query.prefix) {
    const columns = titleOnly ? 'title title_words' : 'title body title_words body_words';
    const terms = query.prefixTerms;
    parts.push(
      terms && terms.length > 0
        ? `{${columns}} : (${terms.map((t) => quoted([t])).join(' OR ')})`
        : `{${columns}} : "${query.prefix}"*`,
    );
  }
  return parts.length === 0 ? null : parts.join(' AND ');
}

/**
 * The title-tier test of a walked row (relevance tier 1), on the row's own title tokens: a
 * per-row FTS5 query costs 0.1–0.8 ms for a common word (it reads the word's posting list up to
 * the row), this a few string searches. `title_stems` and `title_words` hold the title's FTS5
 * tokens, space-delimited on both ends, so a term is ` stem `, a phrase ` s1 s2 ` (consecutive
 * stems, as in the FTS5 column) and a prefix ` pre` at the start of any token. `1 = 0` when the
 * query has nothing positive to match in a title (as `ftsQuery` would be null).
 */
function titleInRow(query: TextQuery): Fragment {
  const parts: string[] = [];
  const params: string[] = [];
  const has = (column: string, needle: string) => {
    params.push(needle);
    return `instr(o.${column}, ?) > 0`;
  };
  for (const term of query.terms)
    parts.push(`(${term.stems.map((s) => has('title_stems', ` ${s} `)).join(' OR ')})`);
  for (const phrase of query.phrases) parts.push(has('title_stems', ` ${phrase.join(' ')} `));
  if (query.prefix) {
    parts.push(`(${has('title_stems', ` ${query.prefix}`)} OR ${has('title_words', ` ${query.prefix}`)})`);
  }
  return { sql: parts.length === 0 ? '1 = 0' : parts.join(' AND '), params };
}

/** A title's tokens as stored in offers.title_stems / title_words (see `titleInRow`). */
export const titleTokens = (title: AnalysedField): [string, string] => [
  ` ${title.stems.join(' ')} `,
  ` ${title.words.join(' ')} `,
];

const FTS_MATCH = 'o.seq IN (SELECT rowid FROM offers_fts WHERE offers_fts MATCH ?)';
const FTS_MATCH_ROW = 'EXISTS (SELECT 1 FROM offers_fts WHERE offers_fts MATCH ? AND rowid = o.seq)';
const placeholders = OFFER_WRITE_COLUMNS.map(() => '?').join(', ');
const updates = OFFER_WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = ?`)
  .join(', ');

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
/** Above any character that can follow a prefix in UTF-8 byte order (SQLite's BINARY). */
const AFTER_PREFIX = String.fromCodePoint(0x10ffff);

const ftsValues = (seq: number, text: { title: AnalysedField; body: AnalysedField }): SqlValue[] => [
  seq,
  text.title.stems.join(' '),
  text.body.stems.join(' '),
  text.title.words.join(' '),
  text.body.words.join(' '),
];
/** The offer columns plus the title's tokens (`titleInRow`), which only SQLite keeps in the row. */
const COLUMNS = `${OFFER_WRITE_COLUMNS.join(', ')}, title_stems, title_words`;
const INSERT_OFFER = `INSERT INTO offers (${COLUMNS}) VALUES (${placeholders}, ?, ?) RETURNING seq`;
/** With the seq given: RETURNING doubles the cost of an insert on SQLite (ADR 0012). */
const INSERT_OFFER_AT = `INSERT INTO offers (seq, ${COLUMNS}) VALUES (?, ${placeholders}, ?, ?)`;
const UPDATE_OFFER = `UPDATE offers SET ${updates}, title_stems = ?, title_words = ? WHERE seq = ?`;
const DELETE_FTS = 'DELETE FROM offers_fts WHERE rowid = ?';
const INSERT_FTS =
  'INSERT INTO offers_fts (rowid, title, body, title_words, body_words) VALUES (?, ?, ?, ?, ?)';

export const sqliteTextIndex: TextIndex = {
  /**
   * One short statement per row, each prepared once per connection: SQLite runs in process, so
   * a multi-row statement saves no round trip, and its hundreds of bound parameters cost more
   * to build than they save. New offers get the next seqs (rowids) from here rather than from
   * RETURNING, which costs as much again as the insert itself (ADR 0012); the transaction holds
   * the write lock (BEGIN IMMEDIATE), so nobody else can take them meanwhile.
   */
  async upsertBatch(tx, rows, texts) {
    const ids = rows.map((r) => String(r[0]));
    const seqOf = new Map<string, number>();
    for (const chunk of chunks(ids, 500)) {
      const found = await tx.all<{ id: string; seq: number }>(
        `SELECT id, seq FROM offers WHERE id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of found) seqOf.set(row.id, row.seq);
    }
    const inserted = ids.map((id) => !seqOf.has(id));
    let lastSeq = Number((await tx.get<{ n: number }>('SELECT max(seq) AS n FROM offers'))?.n ?? 0);
    for (const [i, row] of rows.entries()) {
      const text = texts[i] ?? { title: EMPTY, body: EMPTY };
      let seq = seqOf.get(ids[i] ?? '');
      if (seq === undefined) {
        seq = ++lastSeq;
        await tx.run(INSERT_OFFER_AT, [seq, ...row, ...titleTokens(text.title)]);
      } else {
        await tx.run(UPDATE_OFFER, [...row.slice(1), ...titleTokens(text.title), seq]);
        await tx.run(DELETE_FTS, [seq]);
      }
      await tx.run(INSERT_FTS, ftsValues(seq, text));
    }
    return inserted;
  },
  tokenTable: 'offers_fts_terms',
  prefixTerms(prefix, max) {
    return {
      sql: 'SELECT term FROM offers_fts_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?',
      params: [prefix, prefix + AFTER_PREFIX, max + 1],
    };
  },
  match(query) {
    const where: string[] = [];
    const params: string[] = [];
    const positive = ftsQuery(query, false);
    if (positive !== null) {
      where.push(FTS_MATCH);
      params.push(positive);
    }
    if (query.excluded.length > 0) {
      where.push(`o.seq NOT IN (SELECT rowid FROM offers_fts WHERE offers_fts MATCH ?)`);
      params.push(query.excluded.map((e) => `{title body} : ${quoted(e)}`).join(' OR '));
    }
    return { sql: where.length === 0 ? '1 = 1' : where.join(' AND '), params };
  },
  perRow: {
    match(query) {
      const where: string[] = [];
      const params: string[] = [];
      const positive = ftsQuery(query, false);
      if (positive !== null) {
        where.push(FTS_MATCH_ROW);
        params.push(positive);
      }
      if (query.excluded.length > 0) {
        where.push(`NOT ${FTS_MATCH_ROW}`);
        params.push(query.excluded.map((e) => `{title body} : ${quoted(e)}`).join(' OR '));
      }
      return { sql: where.length === 0 ? '1 = 1' : where.join(' AND '), params };
    },
    matchTitle(query) {
      const positive = ftsQuery(query, true);
      if (positive === null) return { sql: '1 = 0', params: [] };
      const inRow = titleInRow(query);
      // Rows written before migration 11 have no title tokens: FTS5 answers for them.
      return {
        sql: `(${inRow.sql} OR (o.title_stems IS NULL AND ${FTS_MATCH_ROW}))`,
        params: [...inRow.params, positive],
      };
    },
  },
  countTextMatches(query, cap, titleOnly) {
    const positive = ftsQuery(query, titleOnly);
    if (positive === null) return null;
    return {
      sql: 'SELECT count(*) AS n FROM (SELECT rowid FROM offers_fts WHERE offers_fts MATCH ? LIMIT ?) c',
      params: [positive, cap],
    };
  },
  drivingJoin(query) {
    const positive = ftsQuery(query, false);
    if (positive === null) return null;
    const sql = ['offers_fts MATCH ?'];
    const params: string[] = [positive];
    if (query.excluded.length > 0) {
      sql.push('o.seq NOT IN (SELECT rowid FROM offers_fts WHERE offers_fts MATCH ?)');
      params.push(query.excluded.map((e) => `{title body} : ${quoted(e)}`).join(' OR '));
    }
    // CROSS JOIN: SQLite keeps this order, the text index outside.
    return {
      from: 'offers_fts CROSS JOIN offers o ON o.seq = offers_fts.rowid',
      sql: sql.join(' AND '),
      params,
    };
  },
  matchTitle(query) {
    const positive = ftsQuery(query, true);
    return positive === null ? { sql: '1 = 0', params: [] } : { sql: FTS_MATCH, params: [positive] };
  },
  async upsert(tx: Queryable, row, text) {
    const existing = await tx.get<{ seq: number }>('SELECT seq FROM offers WHERE id = ?', [row[0] ?? null]);
    let seq: number;
    if (existing) {
      seq = existing.seq;
      await tx.run(UPDATE_OFFER, [...row.slice(1), ...titleTokens(text.title), seq]);
      await tx.run(DELETE_FTS, [seq]);
    } else {
      const inserted = await tx.get<{ seq: number }>(INSERT_OFFER, [...row, ...titleTokens(text.title)]);
      if (!inserted) throw new Error('insert returned no row');
      seq = inserted.seq;
    }
    await tx.run(INSERT_FTS, ftsValues(seq, text));
    return !existing;
  },
};
