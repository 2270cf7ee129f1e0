import type { Dialect } from '../database.js';

/**
 * Version 12 (issue 12): the change sequence the in-memory search index follows. Every offer
 * write bumps `change_counters('offers:<environment>')` inside its transaction and stamps the
 * rows it writes with the new values; the counter's row lock orders concurrent writers, so a
 * process reading "change_seq > last seen" never skips a commit (the same pattern as api_keys).
 * Rows written before this version keep 0: the index reads every row at start anyway, and only
 * later changes need a sequence. No backfill, so the migration is instant at any size.
 */
export function offerChangeSequence(dialect: Dialect): string {
  const integer = dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  return `
ALTER TABLE offers ADD COLUMN change_seq ${integer} NOT NULL DEFAULT 0;
CREATE INDEX offers_change_seq ON offers(environment, change_seq);
INSERT INTO change_counters (name, value) VALUES ('offers:production', 0);
INSERT INTO change_counters (name, value) VALUES ('offers:testing', 0);
`;
}

/**
 * Version 13 (issue 12): the SQL text search goes. The in-memory engine answers every search,
 * so the text indexes (FTS5, tsvector/GIN), the term and prefix vocabularies, the tag rows and
 * the search-only indexes are dropped; offers keeps its rows, its keys and the change index.
 */
export function dropSqlSearch(dialect: Dialect): string {
  const common = `
DROP TABLE offer_tags;
DROP TABLE offer_terms;
DROP INDEX offers_published;
DROP INDEX offers_price;
DROP INDEX offers_category_published;
DROP INDEX offers_updated;
DROP INDEX offers_city;
DROP INDEX offers_geo;
DROP INDEX offers_country;
`;
  return dialect === 'sqlite'
    ? `${common}
DROP TABLE offers_fts;
DROP TABLE offers_fts_terms;
ALTER TABLE offers DROP COLUMN title_stems;
ALTER TABLE offers DROP COLUMN title_words;
`
    : `${common}
DROP INDEX offers_search;
ALTER TABLE offers DROP COLUMN search_vector;
`;
}
