import type { Queryable } from '../db/database.js';
import { pgArray } from '../db/pg-array.js';
import { OFFER_WRITE_COLUMNS, type TextIndex } from './store.js';
import type { AnalysedField, TextQuery } from './text.js';

/**
 * PostgreSQL: a `tsvector` column with a GIN index, built here from text.ts tokens as a
 * tsvector literal rather than by to_tsvector, so it holds exactly the tokens SQLite indexes.
 * Weights stand for the FTS5 columns: A title stems, B description stems, C title words,
 * D description words.
 */
const MAX_POSITION = 16_383; // PostgreSQL's limit for lexeme positions

const quote = (token: string) => `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export function tsvectorLiteral(title: AnalysedField, body: AnalysedField): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  const add = (tokens: readonly string[], weight: 'A' | 'B' | 'C' | 'D') => {
    for (const token of tokens) {
      position = Math.min(position + 1, MAX_POSITION);
      const list = positions.get(token) ?? [];
      list.push(`${position}${weight}`);
      positions.set(token, list);
    }
  };
  add(title.stems, 'A');
  add(body.stems, 'B');
  add(title.words, 'C');
  add(body.words, 'D');
  return [...positions].map(([token, list]) => `${quote(token)}:${list.join(',')}`).join(' ');
}

/** A stem sequence as a phrase inside one field (weight), like an FTS5 phrase in one column. */
function phrase(stems: readonly string[], weights: readonly string[]): string {
  const alternatives = weights.map((w) => `(${stems.map((s) => `${quote(s)}:${w}`).join(' <-> ')})`);
  return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' | ')})`;
}

/** The positive part of a query as a tsquery literal; null when it has none (only exclusions). */
export function tsqueryLiteral(query: TextQuery, titleOnly: boolean): string | null {
  const weights = titleOnly ? 'A' : 'AB';
  const parts = query.terms.map((t) =>
    t.stems.length === 1
      ? `${quote(t.stems[0] ?? '')}:${weights}`
      : `(${t.stems.map((s) => `${quote(s)}:${weights}`).join(' | ')})`,
  );
  for (const p of query.phrases) parts.push(phrase(p, titleOnly ? ['A'] : ['A', 'B']));
  if (query.prefix) parts.push(`${quote(query.prefix)}:*${titleOnly ? 'AC' : 'ABCD'}`);
  return parts.length === 0 ? null : parts.join(' & ');
}

function excludedLiteral(query: TextQuery): string {
  return query.excluded
    .map((e) => (e.length === 1 ? `${quote(e[0] ?? '')}:AB` : phrase(e, ['A', 'B'])))
    .join(' | ');
}

const placeholders = OFFER_WRITE_COLUMNS.map(() => '?').join(', ');
const updates = OFFER_WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

/** Element types of the columns, in `OFFER_WRITE_COLUMNS` order, for the unnest below. */
const COLUMN_TYPES: Record<(typeof OFFER_WRITE_COLUMNS)[number], string> = {
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
};

/**
 * The whole batch in one statement: each column travels as one array parameter and `unnest`
 * turns the arrays back into rows. One parse, one plan and one round trip per batch instead of
 * one per 100 rows with 2 400 parameters (ADR 0012).
 */
const UPSERT_BATCH = `INSERT INTO offers (${OFFER_WRITE_COLUMNS.join(', ')}, search_vector)
  SELECT ${OFFER_WRITE_COLUMNS.join(', ')}, search_vector::tsvector
  FROM unnest(${OFFER_WRITE_COLUMNS.map((c) => `?::${COLUMN_TYPES[c]}[]`).join(', ')}, ?::text[])
    AS batch(${OFFER_WRITE_COLUMNS.join(', ')}, search_vector)
  ON CONFLICT (id) DO UPDATE SET ${updates}, search_vector = EXCLUDED.search_vector
  RETURNING id, (xmax = 0) AS inserted`;

export const postgresTextIndex: TextIndex = {
  async upsertBatch(tx, rows, texts) {
    const columns = OFFER_WRITE_COLUMNS.map((_, j) => pgArray(rows.map((row) => row[j] ?? null)));
    const vectors = pgArray(
      rows.map((_, i) => {
        const text = texts[i];
        return text ? tsvectorLiteral(text.title, text.body) : '';
      }),
    );
    const returned = await tx.all<{ id: string; inserted: boolean }>(UPSERT_BATCH, [...columns, vectors]);
    const inserted = new Map(returned.map((row) => [row.id, row.inserted === true]));
    return rows.map((row) => inserted.get(String(row[0])) === true);
  },
  match(query) {
    const where: string[] = [];
    const params: string[] = [];
    const positive = tsqueryLiteral(query, false);
    if (positive !== null) {
      where.push('o.search_vector @@ ?::tsquery');
      params.push(positive);
    }
    if (query.excluded.length > 0) {
      where.push('NOT (o.search_vector @@ ?::tsquery)');
      params.push(excludedLiteral(query));
    }
    return { sql: where.length === 0 ? '1 = 1' : where.join(' AND '), params };
  },
  matchTitle(query) {
    const positive = tsqueryLiteral(query, true);
    return positive === null
      ? { sql: '1 = 0', params: [] }
      : { sql: 'o.search_vector @@ ?::tsquery', params: [positive] };
  },
  async upsert(tx: Queryable, row, text) {
    const result = await tx.get<{ inserted: boolean }>(
      `INSERT INTO offers (${OFFER_WRITE_COLUMNS.join(', ')}, search_vector) VALUES (${placeholders}, ?::tsvector)
       ON CONFLICT (id) DO UPDATE SET ${updates}, search_vector = EXCLUDED.search_vector
       RETURNING (xmax = 0) AS inserted`,
      [...row, tsvectorLiteral(text.title, text.body)],
    );
    return result?.inserted === true;
  },
};
