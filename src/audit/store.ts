import type { Database, SqlValue } from '../db/database.js';
import type { ActorKind, AuditEntry, AuditFilter } from './model.js';

interface AuditRow {
  id: string;
  at: number;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: string;
  client_ip: string | null;
}

/** Append and read; there is deliberately no update or delete (the tables' triggers refuse them too). */
export interface AuditStore {
  append(entry: AuditEntry): Promise<void>;
  list(filter: AuditFilter): Promise<AuditEntry[]>;
  /** How many entries match the filter (limit and offset ignored). */
  count(filter: AuditFilter): Promise<number>;
}

export function createAuditStore(db: Database): AuditStore {
  return {
    async append(e) {
      await db.run(
        'INSERT INTO audit_log (id, at, actor_kind, actor_id, actor_email, action, target_type, target_id, detail, client_ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          e.id,
          e.at,
          e.actorKind,
          e.actorId,
          e.actorEmail,
          e.action,
          e.targetType,
          e.targetId,
          JSON.stringify(e.detail),
          e.clientIp,
        ],
      );
    },
    async count(filter) {
      const { sql, params } = whereOf(filter);
      return Number(
        (await db.get<{ n: number }>(`SELECT count(*) AS n FROM audit_log ${sql}`, params))?.n ?? 0,
      );
    },
    async list(filter) {
      const { sql, params } = whereOf(filter);
      params.push(filter.limit ?? 200, filter.offset ?? 0);
      const rows = await db.all<AuditRow>(
        `SELECT * FROM audit_log ${sql} ORDER BY seq DESC LIMIT ? OFFSET ?`,
        params,
      );
      return rows.map((r) => ({
        id: r.id,
        at: Number(r.at),
        actorKind: r.actor_kind,
        actorId: r.actor_id,
        actorEmail: r.actor_email,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        detail: JSON.parse(r.detail) as Record<string, unknown>,
        clientIp: r.client_ip,
      }));
    },
  };
}

function whereOf({ action, actor, target }: AuditFilter): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (action) {
    where.push('action LIKE ?');
    params.push(`${action}%`);
  }
  if (actor) {
    where.push('(actor_id = ? OR actor_email = ?)');
    params.push(actor, actor.toLowerCase());
  }
  if (target) {
    where.push('target_id = ?');
    params.push(target);
  }
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}
