import type { Database } from '../db/database.js';
import type { Environment } from '../platform/environment.js';

/** A search-index snapshot's mark in the database it was taken from (migration 81, ADR 0024). */
export interface SnapshotMark {
  environment: Environment;
  /** Random and unguessable; the snapshot's header carries it. */
  token: string;
  /** The change sequence the snapshot reflects. */
  applied: number;
  /** Epoch milliseconds. */
  createdAt: number;
}

/**
 * The marks a snapshot is checked against: a mark is committed before its snapshot is written,
 * and a snapshot is loaded only while its mark is found. A restored backup lacks every mark made
 * after its moment, so it never takes a snapshot of the discarded timeline for its own.
 */
export interface SnapshotMarks {
  /** Records a mark (committed when this resolves) and forgets the environment's oldest ones. */
  add(mark: SnapshotMark): Promise<void>;
  /** The environment's mark with this token, or null (never made on this timeline, or forgotten). */
  find(environment: Environment, token: string): Promise<SnapshotMark | null>;
}

/**
 * Marks kept per environment. Every snapshot file still on some machine (one per environment and
 * snapshot directory) needs its mark, and a file is only replaced by a newer one: 1 000 snapshot
 * writes since a file's own is far more than a deployment's processes make between two starts
 * (a few per process and day), yet the table stays a few hundred kB. A mark forgotten too soon
 * costs one full build, never a wrong index.
 */
export const SNAPSHOT_MARKS_KEPT = 1000;

export function createSnapshotMarks(db: Database, kept = SNAPSHOT_MARKS_KEPT): SnapshotMarks {
  return {
    async add({ environment, token, applied, createdAt }) {
      await db.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO search_snapshot_marks (token, environment, applied, created_at) VALUES (?, ?, ?, ?)',
          [token, environment, applied, createdAt],
        );
        // Everything at or below the newest mark past the kept ones (none: nothing to forget).
        await tx.run(
          `DELETE FROM search_snapshot_marks WHERE environment = ? AND seq <= (
             SELECT seq FROM search_snapshot_marks WHERE environment = ? ORDER BY seq DESC LIMIT 1 OFFSET ?
           )`,
          [environment, environment, kept],
        );
      });
    },

    async find(environment, token) {
      const row = await db.getByKey<{ applied: number; created_at: number }>(
        'SELECT applied, created_at FROM search_snapshot_marks WHERE token = ? AND environment = ?',
        [token, environment],
      );
      return row ? { environment, token, applied: row.applied, createdAt: row.created_at } : null;
    },
  };
}
