import type { Database, Queryable, SqlValue } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { ApplicationState, KeyApplication } from './model.js';

interface ApplicationRow {
  id: string;
  project_id: string;
  environment: Environment;
  wants_refresh: number;
  refresh_reason: string;
  state: ApplicationState;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: number | null;
  key_id: string | null;
  key_sealed: string | null;
  revealed_at: number | null;
  created_at: number;
}

const num = (v: number | null) => (v === null ? null : Number(v));

function fromRow(r: ApplicationRow): KeyApplication {
  return {
    id: r.id,
    projectId: r.project_id,
    environment: r.environment,
    wantsRefresh: Number(r.wants_refresh) === 1,
    refreshReason: r.refresh_reason,
    state: r.state,
    decisionReason: r.decision_reason,
    decidedBy: r.decided_by,
    decidedAt: num(r.decided_at),
    keyId: r.key_id,
    keyWaiting: r.key_sealed !== null,
    revealedAt: num(r.revealed_at),
    createdAt: Number(r.created_at),
  };
}

export interface ApplicationStore {
  insert(a: KeyApplication): Promise<void>;
  get(id: string): Promise<KeyApplication | undefined>;
  list(filter: { state?: ApplicationState; projectIds?: readonly string[] }): Promise<KeyApplication[]>;
  /** Moves a pending application to approved or rejected; false when it was no longer pending. */
  decide(
    id: string,
    d: {
      state: 'approved' | 'rejected';
      reason: string | null;
      by: string;
      at: number;
      keyId: string | null;
      keySealed: string | null;
    },
    /** Issue 24: written in the decision's transaction when the decision is made. */
    alsoWrite?: (tx: Queryable) => Promise<void>,
  ): Promise<boolean>;
  /** Takes the sealed key out (at most once: the value is erased in the same statement's transaction). */
  takeSealedKey(id: string, at: number): Promise<string | null>;
}

export function createApplicationStore(db: Database): ApplicationStore {
  return {
    async insert(a) {
      await db.run(
        'INSERT INTO key_applications (id, project_id, environment, wants_refresh, refresh_reason, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [a.id, a.projectId, a.environment, a.wantsRefresh ? 1 : 0, a.refreshReason, a.state, a.createdAt],
      );
    },
    async get(id) {
      const row = await db.get<ApplicationRow>('SELECT * FROM key_applications WHERE id = ?', [id]);
      return row && fromRow(row);
    },
    async list({ state, projectIds }) {
      const where: string[] = [];
      const params: SqlValue[] = [];
      if (state) {
        where.push('state = ?');
        params.push(state);
      }
      if (projectIds) {
        if (projectIds.length === 0) return [];
        where.push(`project_id IN (${projectIds.map(() => '?').join(', ')})`);
        params.push(...projectIds);
      }
      const rows = await db.all<ApplicationRow>(
        `SELECT * FROM key_applications ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`,
        params,
      );
      return rows.map(fromRow);
    },
    async decide(id, d, alsoWrite) {
      return db.transaction(async (tx) => {
        const changed = await tx.run(
          "UPDATE key_applications SET state = ?, decision_reason = ?, decided_by = ?, decided_at = ?, key_id = ?, key_sealed = ? WHERE id = ? AND state = 'pending'",
          [d.state, d.reason, d.by, d.at, d.keyId, d.keySealed, id],
        );
        if (changed > 0) await alsoWrite?.(tx);
        return changed > 0;
      });
    },
    async takeSealedKey(id, at) {
      return db.transaction(async (tx) => {
        const row = await tx.get<{ key_sealed: string | null }>(
          'SELECT key_sealed FROM key_applications WHERE id = ?',
          [id],
        );
        if (!row?.key_sealed) return null;
        const taken = await tx.run(
          'UPDATE key_applications SET key_sealed = NULL, revealed_at = ? WHERE id = ? AND key_sealed IS NOT NULL',
          [at, id],
        );
        return taken > 0 ? row.key_sealed : null;
      });
    },
  };
}
