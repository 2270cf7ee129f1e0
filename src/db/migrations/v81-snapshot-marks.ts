import type { Dialect } from '../database.js';

/**
 * Version 81 (issue 12, ADR 0024): the marks of the search-index snapshots. A process records a
 * random token here (committed) before it writes a snapshot carrying that token, and loads a
 * snapshot only if its token is still here. A restored backup rolls this table back with the
 * rest: a snapshot taken on the timeline the restore discarded is never mistaken for one of this
 * database's history, whatever its change counter does. Kept small: the newest marks per
 * environment only (src/offers/snapshot-marks.ts).
 */
export function snapshotMarksSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { seq: 'BIGSERIAL PRIMARY KEY', text: 'TEXT COLLATE "C"', integer: 'BIGINT' }
      : { seq: 'INTEGER PRIMARY KEY', text: 'TEXT', integer: 'INTEGER' };
  return `
CREATE TABLE search_snapshot_marks (
  -- The order of the marks, for keeping the newest (the clocks of several machines can disagree).
  seq ${t.seq},
  token ${t.text} NOT NULL UNIQUE,
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  -- The change sequence of the environment the snapshot reflects (the header's applied).
  applied ${t.integer} NOT NULL,
  created_at ${t.integer} NOT NULL
);
CREATE INDEX search_snapshot_marks_environment ON search_snapshot_marks(environment, seq);
`;
}
