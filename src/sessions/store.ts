import type { Database } from '../db/database.js';
import type { SessionKind, SessionPending, WebSession } from './model.js';

interface SessionRow {
  id: string;
  kind: SessionKind;
  account_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
  pending: SessionPending;
}

const COLUMNS = 'id, kind, account_id, csrf_token, created_at, last_seen_at, ip, user_agent, pending';
const fromRow = (row: SessionRow): WebSession => ({
  id: row.id,
  kind: row.kind,
  accountId: row.account_id,
  csrfToken: row.csrf_token,
  createdAt: Number(row.created_at),
  lastSeenAt: Number(row.last_seen_at),
  ip: row.ip,
  userAgent: row.user_agent,
  pending: row.pending ?? null,
});

export interface SessionStore {
  insert(session: WebSession, tokenHash: string): Promise<void>;
  /** A session that has not ended, by the hash of its token. */
  findLive(tokenHash: string): Promise<WebSession | undefined>;
  touch(id: string, at: number): Promise<void>;
  end(id: string, at: number): Promise<void>;
  /** Issue 27: the live sessions of an account, most recently seen first. */
  listLive(kind: SessionKind, accountId: string): Promise<WebSession[]>;
  clearPending(id: string): Promise<void>;
  /** Ends one session of this account; false when it is not a live session of theirs. */
  endOne(kind: SessionKind, accountId: string, id: string, at: number): Promise<boolean>;
  /** Ends every live session of an account; resolves to how many. */
  endAll(kind: SessionKind, accountId: string, at: number): Promise<number>;
}

export function createSessionStore(db: Database): SessionStore {
  return {
    async insert(s, tokenHash) {
      await db.run(
        `INSERT INTO web_sessions (${COLUMNS}, token_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          s.id,
          s.kind,
          s.accountId,
          s.csrfToken,
          s.createdAt,
          s.lastSeenAt,
          s.ip,
          s.userAgent,
          s.pending,
          tokenHash,
        ],
      );
    },
    async findLive(tokenHash) {
      const row = await db.get<SessionRow>(
        `SELECT ${COLUMNS} FROM web_sessions WHERE token_hash = ? AND ended_at IS NULL`,
        [tokenHash],
      );
      return row && fromRow(row);
    },
    async listLive(kind, accountId) {
      const rows = await db.all<SessionRow>(
        `SELECT ${COLUMNS} FROM web_sessions WHERE kind = ? AND account_id = ? AND ended_at IS NULL ORDER BY last_seen_at DESC, id`,
        [kind, accountId],
      );
      return rows.map(fromRow);
    },
    async clearPending(id) {
      await db.run('UPDATE web_sessions SET pending = NULL WHERE id = ?', [id]);
    },
    async endOne(kind, accountId, id, at) {
      return (
        (await db.run(
          'UPDATE web_sessions SET ended_at = ? WHERE id = ? AND kind = ? AND account_id = ? AND ended_at IS NULL',
          [at, id, kind, accountId],
        )) > 0
      );
    },
    async touch(id, at) {
      await db.run('UPDATE web_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [
        at,
        id,
        at,
      ]);
    },
    async end(id, at) {
      await db.run('UPDATE web_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL', [at, id]);
    },
    endAll(kind, accountId, at) {
      return db.run(
        'UPDATE web_sessions SET ended_at = ? WHERE kind = ? AND account_id = ? AND ended_at IS NULL',
        [at, kind, accountId],
      );
    },
  };
}
