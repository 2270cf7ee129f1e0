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
  /**
   * Saved searches with alerts of `environment` created at or after `since`, oldest first;
   * with `known`, only those it does not know (their ids are read first, then only the others'
   * rows: a round re-reads the last minutes' searches, which a burst of saves makes many).
   */
  alertingSearches(
    environment: Environment,
    since: number,
    known?: (id: string) => boolean,
  ): Promise<AlertingSearch[]>;
  /** Takes (or renews) the environment's cursor for `by`; its value, or null when another holds it. */
  claimCursor(environment: Environment, by: string, until: number, now: number): Promise<number | null>;
  /** Gives up `by`'s claims (it stops): another instance, or the next process, claims at once. */
  releaseCursors(by: string): Promise<void>;
  /**
   * In one transaction: records each match not recorded before, calls `onNew` once with those
   * to alert (which records their events in the same transaction): not a user's offer they
   * already had from another of their saved searches, nor twice for one user and offer; then
   * moves the cursor from `from` to `to`. `gone`: searches deleted or without alerts now.
   * Rolls back and resolves false when the cursor moved meanwhile (the claim was lost).
   */
  commit(
    environment: Environment,
    by: string,
    range: { from: number; to: number },
    matches: readonly { searchId: string; offerId: string }[],
    now: number,
    onNew: (tx: Queryable, matches: readonly { searchId: string; offerId: string }[]) => Promise<void>,
  ): Promise<{ committed: boolean; gone: string[] }>;
}

class LostClaim extends Error {}

const SEARCH_ROWS = 'SELECT id, user_id, project_id, name, query, since_seq, created_at FROM saved_searches';
const OLDEST_FIRST = ' ORDER BY created_at, id';

const searchFrom = (r: SearchRow): AlertingSearch => ({
  id: r.id,
  userId: r.user_id,
  projectId: r.project_id,
  name: r.name,
  query: JSON.parse(r.query) as SavedQuery,
  sinceSeq: Number(r.since_seq),
  createdAt: Number(r.created_at),
});

type Match = { searchId: string; offerId: string };

/** Matches per statement (two parameters each). */
const CHUNK = 500;

export function createPercolatorStore(db: Database): PercolatorStore {
  return {
    async alertingSearches(environment, since, known) {
      const where = 'environment = ? AND alerts = 1 AND created_at >= ?';
      if (known === undefined)
        return (
          await db.all<SearchRow>(`${SEARCH_ROWS} WHERE ${where}${OLDEST_FIRST}`, [environment, since])
        ).map(searchFrom);
      const ids = await db.all<{ id: string }>(`SELECT id FROM saved_searches WHERE ${where}`, [
        environment,
        since,
      ]);
      const unknown = ids.map((r) => r.id).filter((id) => !known(id));
      const rows: SearchRow[] = [];
      for (let from = 0; from < unknown.length; from += CHUNK) {
        const chunk = unknown.slice(from, from + CHUNK);
        rows.push(
          ...(await db.all<SearchRow>(
            `${SEARCH_ROWS} WHERE id IN (${chunk.map(() => '?').join(', ')}) AND alerts = 1`,
            chunk,
          )),
        );
      }
      return rows
        .map(searchFrom)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
    async releaseCursors(by) {
      await db.run(
        'UPDATE webhook_cursors SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?',
        [by],
      );
    },
    async commit(environment, by, range, matches, now, onNew) {
      const gone = new Set<string>();
      // An offer's earlier matches are found by the offer's index, always: SQLite's planner, with
      // statistics taken while the table was small (a new deployment, the bench's fresh data set),
      // walked every match recorded for each pair checked (an alerts burst slowed as it went:
      // 10 000 matches walked per pair, seconds per page; ADR 0055). PostgreSQL plans on its own
      // statistics, kept fresh by autovacuum.
      const byOffer = db.dialect === 'sqlite' ? 'INDEXED BY saved_search_matches_offer' : '';
      try {
        await db.transaction(async (tx) => {
          const alert: Match[] = [];
          /** (user, offer) pairs alerted by this commit: a user's second search matching it is not. */
          const alerted = new Set<string>();
          for (let from = 0; from < matches.length; from += CHUNK) {
            const chunk = matches.slice(from, from + CHUNK);
            const values = `WITH v (search_id, offer_id) AS (VALUES ${chunk.map(() => '(?, ?)').join(', ')})`;
            const pairs = chunk.flatMap((m) => [m.searchId, m.offerId]);
            // Before the insert: the searches that still alert, and whether their user already had
            // the offer from another of their saved searches (remembered for this one too, no event).
            const known = await tx.all<{
              search_id: string;
              offer_id: string;
              user_id: string;
              seen: number;
            }>(
              `${values} SELECT v.search_id, v.offer_id, s.user_id,
                 CASE WHEN EXISTS (SELECT 1 FROM saved_search_matches m ${byOffer} JOIN saved_searches o ON o.id = m.saved_search_id
                   WHERE m.offer_id = v.offer_id AND m.saved_search_id <> v.search_id AND o.user_id = s.user_id) THEN 1 ELSE 0 END AS seen
               FROM v JOIN saved_searches s ON s.id = v.search_id WHERE s.alerts = 1`,
              pairs,
            );
            // Once per saved search and offer.
            const added = await tx.all<{ saved_search_id: string; offer_id: string }>(
              `${values} INSERT INTO saved_search_matches (saved_search_id, offer_id, created_at)
               SELECT s.id, v.offer_id, CAST(? AS BIGINT) FROM v JOIN saved_searches s ON s.id = v.search_id WHERE s.alerts = 1
               ON CONFLICT (saved_search_id, offer_id) DO NOTHING RETURNING saved_search_id, offer_id`,
              [...pairs, now],
            );
            const key = (a: string, b: string) => `${a}\u0001${b}`;
            const users = new Map(known.map((k) => [key(k.search_id, k.offer_id), k]));
            const inserted = new Set(added.map((a) => key(a.saved_search_id, a.offer_id)));
            for (const match of chunk) {
              const k = users.get(key(match.searchId, match.offerId));
              if (k === undefined) gone.add(match.searchId);
              else if (inserted.has(key(match.searchId, match.offerId)) && Number(k.seen) === 0) {
                const userOffer = key(k.user_id, match.offerId);
                if (alerted.has(userOffer)) continue;
                alerted.add(userOffer);
                alert.push(match);
              }
            }
          }
          // Their events, in the same transaction.
          if (alert.length > 0) await onNew(tx, alert);
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
      return { committed: true, gone: [...gone] };
    },
  };
}
