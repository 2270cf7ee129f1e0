import type { Database, Queryable } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { SavedQuery } from './offer-matching.js';

/** A saved search with alerts, as the percolator files it. */
export interface AlertingSearch {
  id: string;
  userId: string;
  projectId: string;
  name: string;
  query: SavedQuery;
  /** Offer writes up to this change sequence were made before it was saved: they never alert it. */
  sinceSeq: number;
  createdAt: number;
}

interface SearchRow {
  id: string;
  user_id: string;
  project_id: string;
  name: string;
  query: string;
  since_seq: number;
  created_at: number;
}

/**
 * The percolator's storage (issue 24): the saved searches with alerts, the claimed cursor of
 * each environment's offer changes, and the matches recorded once per saved search and offer.
 */
export interface PercolatorStore {
  /** Saved searches with alerts of `environment` created at or after `since`, oldest first. */
  alertingSearches(environment: Environment, since: number): Promise<AlertingSearch[]>;
  /** Takes (or renews) the environment's cursor for `by`; its value, or null when another holds it. */
  claimCursor(environment: Environment, by: string, until: number, now: number): Promise<number | null>;
  /**
   * In one transaction: records each match not recorded before (and calls `onNew` for it, which
   * records the event in the same transaction, unless the user already had the offer from
   * another saved search), then moves the cursor from `from` to `to`.
   * Rolls back and resolves false when the cursor moved meanwhile (the claim was lost).
   */
  commit(
    environment: Environment,
    by: string,
    range: { from: number; to: number },
    matches: readonly { searchId: string; offerId: string }[],
    now: number,
    onNew: (tx: Queryable, match: { searchId: string; offerId: string }) => Promise<void>,
  ): Promise<{ committed: boolean; gone: string[] }>;
}

class LostClaim extends Error {}

async function seenByUser(tx: Queryable, match: { searchId: string; offerId: string }): Promise<boolean> {
  const row = await tx.get(
    `SELECT 1 AS seen FROM saved_search_matches m JOIN saved_searches s ON s.id = m.saved_search_id
      WHERE m.offer_id = ? AND m.saved_search_id <> ?
        AND s.user_id = (SELECT user_id FROM saved_searches WHERE id = ?)`,
    [match.offerId, match.searchId, match.searchId],
  );
  return row !== undefined;
}

export function createPercolatorStore(db: Database): PercolatorStore {
  return {
    async alertingSearches(environment, since) {
      const rows = await db.all<SearchRow>(
        'SELECT id, user_id, project_id, name, query, since_seq, created_at FROM saved_searches WHERE environment = ? AND alerts = 1 AND created_at >= ? ORDER BY created_at, id',
        [environment, since],
      );
      return rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        projectId: r.project_id,
        name: r.name,
        query: JSON.parse(r.query) as SavedQuery,
        sinceSeq: Number(r.since_seq),
        createdAt: Number(r.created_at),
      }));
    },
    async claimCursor(environment, by, until, now) {
      const name = `percolate:${environment}`;
      const taken = await db.run(
        'UPDATE webhook_cursors SET claimed_by = ?, claimed_until = ? WHERE name = ? AND (claimed_until IS NULL OR claimed_until < ? OR claimed_by = ?)',
        [by, until, name, now, by],
      );
      if (taken === 0) return null;
      const row = await db.get<{ value: number }>('SELECT value FROM webhook_cursors WHERE name = ?', [name]);
      return row ? Number(row.value) : null;
    },
    async commit(environment, by, range, matches, now, onNew) {
      const gone: string[] = [];
      try {
        await db.transaction(async (tx) => {
          for (const match of matches) {
            const added = await tx.run(
              'INSERT INTO saved_search_matches (saved_search_id, offer_id, created_at) SELECT id, ?, ? FROM saved_searches WHERE id = ? AND alerts = 1 ON CONFLICT (saved_search_id, offer_id) DO NOTHING',
              [match.offerId, now, match.searchId],
            );
            // Once per saved search and offer; and an offer the user already had from another
            // of their saved searches is remembered for this one too, without a second event.
            if (added > 0 && !(await seenByUser(tx, match))) await onNew(tx, match);
            else if (
              !(await tx.get('SELECT id FROM saved_searches WHERE id = ? AND alerts = 1', [match.searchId]))
            )
              gone.push(match.searchId);
          }
          const moved = await tx.run(
            'UPDATE webhook_cursors SET value = ? WHERE name = ? AND claimed_by = ? AND value = ?',
            [range.to, `percolate:${environment}`, by, range.from],
          );
          if (moved === 0) throw new LostClaim();
        });
      } catch (error) {
        if (error instanceof LostClaim) return { committed: false, gone: [] };
        throw error;
      }
      return { committed: true, gone };
    },
  };
}
