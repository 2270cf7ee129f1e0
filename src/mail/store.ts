import type { Queryable } from '../db/database.js';

export interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  sealed_body: string;
  attempts: number;
}

/** The mail outbox (migration 91): written inside the caller's transaction, drained after it commits. */
export interface OutboxStore {
  insert(
    tx: Queryable,
    row: { id: string; recipient: string; subject: string; sealedBody: string; at: number },
  ): Promise<void>;
  /** Ids of messages due now (unsent, next attempt reached), oldest first. */
  due(now: number, limit: number): Promise<string[]>;
  /** Takes a due message for `leaseMs` (another process will not take it meanwhile); undefined if taken. */
  claim(id: string, now: number, leaseMs: number): Promise<OutboxRow | undefined>;
  /** Sent: the sealed body is dropped, only the envelope stays. */
  markSent(id: string, at: number): Promise<void>;
  markFailed(id: string, attempts: number, nextAt: number, error: string): Promise<void>;
  pending(): Promise<number>;
}

export function createOutboxStore(db: Queryable): OutboxStore {
  return {
    async insert(tx, row) {
      await tx.run(
        'INSERT INTO mail_outbox (id, recipient, subject, sealed_body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)',
        [row.id, row.recipient, row.subject, row.sealedBody, row.at, row.at],
      );
    },
    async due(now, limit) {
      const rows = await db.all<{ id: string }>(
        'SELECT id FROM mail_outbox WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?',
        [now, limit],
      );
      return rows.map((r) => r.id);
    },
    async claim(id, now, leaseMs) {
      const changed = await db.run(
        'UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ? AND sent_at IS NULL AND next_attempt_at <= ?',
        [now + leaseMs, id, now],
      );
      if (changed === 0) return undefined;
      const row = await db.get<OutboxRow>(
        'SELECT id, recipient, subject, sealed_body, attempts FROM mail_outbox WHERE id = ?',
        [id],
      );
      return row && { ...row, attempts: Number(row.attempts) };
    },
    async markSent(id, at) {
      await db.run("UPDATE mail_outbox SET sent_at = ?, sealed_body = '', last_error = NULL WHERE id = ?", [
        at,
        id,
      ]);
    },
    async markFailed(id, attempts, nextAt, error) {
      await db.run('UPDATE mail_outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?', [
        attempts,
        nextAt,
        error.slice(0, 500),
        id,
      ]);
    },
    async pending() {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail_outbox WHERE sent_at IS NULL');
      return Number(row?.n ?? 0);
    },
  };
}
