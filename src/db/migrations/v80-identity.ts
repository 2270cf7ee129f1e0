import type { Dialect } from '../database.js';

/**
 * Version 80 (issue 12, ADR 0024): the database's identity, a random id set once when this
 * migration runs. A search-index snapshot records the identity of the database it was taken
 * from and is only loaded against that database: another database (a copy, a fresh one under
 * the same DATA_DIR, another DATABASE_URL) gets a full build. A copy of a database keeps its
 * identity; a restored backup is caught by the snapshot marks instead (migration 81).
 */
export function identitySchema(dialect: Dialect): string {
  const randomId = dialect === 'postgres' ? 'gen_random_uuid()::text' : 'lower(hex(randomblob(16)))';
  const text = dialect === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT';
  return `
CREATE TABLE database_identity (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  id ${text} NOT NULL
);
INSERT INTO database_identity (one, id) VALUES (1, ${randomId});
`;
}
