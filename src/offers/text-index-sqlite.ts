import type { Queryable } from '../db/database.js';
import { OFFER_WRITE_COLUMNS, type TextIndex } from './store.js';
import type { TextQuery } from './text.js';

/**
 * SQLite: a contentless FTS5 table keyed by `offers.seq` (columns: title stems, description
 * stems, and their unstemmed words for prefix search). Tokens come from text.ts and hold only
 * letters and digits, so quoting them in an FTS5 string is always safe.
 */
function ftsQuery(query: TextQuery, titleOnly: boolean): string {
  const parts = query.terms.map((t) => `{${titleOnly ? 'title' : 'title body'}} : "${t}"`);
  if (query.prefix)
    parts.push(
      `{${titleOnly ? 'title title_words' : 'title body title_words body_words'}} : "${query.prefix}"*`,
    );
  return parts.join(' AND ');
}

const FTS_MATCH = 'o.seq IN (SELECT rowid FROM offers_fts WHERE offers_fts MATCH ?)';
const placeholders = OFFER_WRITE_COLUMNS.map(() => '?').join(', ');
const updates = OFFER_WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = ?`)
  .join(', ');

export const sqliteTextIndex: TextIndex = {
  match: (query) => ({ sql: FTS_MATCH, params: [ftsQuery(query, false)] }),
  matchTitle: (query) => ({ sql: FTS_MATCH, params: [ftsQuery(query, true)] }),
  async upsert(tx: Queryable, row, text) {
    const [id, ...rest] = row;
    const existing = await tx.get<{ seq: number }>('SELECT seq FROM offers WHERE id = ?', [id ?? null]);
    let seq: number;
    if (existing) {
      seq = existing.seq;
      await tx.run(`UPDATE offers SET ${updates} WHERE seq = ?`, [...rest, seq]);
      await tx.run('DELETE FROM offers_fts WHERE rowid = ?', [seq]);
    } else {
      const inserted = await tx.get<{ seq: number }>(
        `INSERT INTO offers (${OFFER_WRITE_COLUMNS.join(', ')}) VALUES (${placeholders}) RETURNING seq`,
        row,
      );
      if (!inserted) throw new Error('insert returned no row');
      seq = inserted.seq;
    }
    await tx.run(
      'INSERT INTO offers_fts (rowid, title, body, title_words, body_words) VALUES (?, ?, ?, ?, ?)',
      [
        seq,
        text.title.stems.join(' '),
        text.body.stems.join(' '),
        text.title.words.join(' '),
        text.body.words.join(' '),
      ],
    );
    return !existing;
  },
};
