import type { Queryable } from '../db/database.js';
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

export function tsqueryLiteral(query: TextQuery, titleOnly: boolean): string {
  const parts = query.terms.map((t) => `${quote(t)}:${titleOnly ? 'A' : 'AB'}`);
  if (query.prefix) parts.push(`${quote(query.prefix)}:*${titleOnly ? 'AC' : 'ABCD'}`);
  return parts.join(' & ');
}

const placeholders = OFFER_WRITE_COLUMNS.map(() => '?').join(', ');
const updates = OFFER_WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

export const postgresTextIndex: TextIndex = {
  match: (query) => ({ sql: 'o.search_vector @@ ?::tsquery', params: [tsqueryLiteral(query, false)] }),
  matchTitle: (query) => ({ sql: 'o.search_vector @@ ?::tsquery', params: [tsqueryLiteral(query, true)] }),
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
