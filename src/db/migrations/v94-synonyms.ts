import type { Dialect } from '../database.js';

/**
 * Version 94 (issue 23): the synonyms of each environment's search (src/synonyms/). A rule's
 * words are a JSON array of strings (the first finds the others when one-way). The version row
 * of an environment is bumped with every change, in the same transaction, so that every process
 * notices a change with one read by key (src/synonyms/service.ts).
 */
export function synonymsSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { text: 'TEXT COLLATE "C"', integer: 'BIGINT' }
      : { text: 'TEXT', integer: 'INTEGER' };
  return `
CREATE TABLE search_synonyms (
  id ${t.text} PRIMARY KEY,
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  one_way ${t.integer} NOT NULL CHECK (one_way IN (0, 1)),
  words TEXT NOT NULL,
  created_at ${t.integer} NOT NULL
);
CREATE INDEX search_synonyms_environment ON search_synonyms(environment, created_at);
CREATE TABLE search_synonym_versions (
  environment TEXT PRIMARY KEY CHECK (environment IN ('production', 'testing')),
  version ${t.integer} NOT NULL
);
`;
}
