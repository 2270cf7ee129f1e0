import type { Dialect } from '../database.js';

/**
 * Version 92 (issue 23, ADR 0029): the search settings of each environment. The attributes
 * search knows (declared by the operator: type and capabilities), and one row of settings per
 * environment whose `version` every change bumps in the same transaction: a serving process
 * compares it with its index's to know a re-index is due.
 */
export function searchAttributesSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { text: 'TEXT COLLATE "C"', integer: 'BIGINT' }
      : { text: 'TEXT', integer: 'INTEGER' };
  return `
CREATE TABLE search_attributes (
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  name ${t.text} NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean')),
  facet INTEGER NOT NULL CHECK (facet IN (0, 1)),
  sortable INTEGER NOT NULL CHECK (sortable IN (0, 1)),
  searchable INTEGER NOT NULL CHECK (searchable IN (0, 1)),
  created_at ${t.integer} NOT NULL,
  updated_at ${t.integer} NOT NULL,
  PRIMARY KEY (environment, name)
);
CREATE TABLE search_settings (
  environment TEXT PRIMARY KEY CHECK (environment IN ('production', 'testing')),
  -- 'attr.NAME:desc' or 'attr.NAME:asc'; NULL: no tie-break before the newest.
  rank_by ${t.text},
  version ${t.integer} NOT NULL,
  updated_at ${t.integer} NOT NULL
);
`;
}
