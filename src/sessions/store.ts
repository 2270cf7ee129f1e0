import type { Database } from '../db/database.js';
import type { SessionKind, WebSession } from './model.js';

interface SessionRow {
  id: string;
  kind: SessionKind;
  account_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}

export interface SessionStore {
  insert(session: WebSession, tokenHash: string): Promise<void>;
  /** A session that has not ended, by the hash of its token. */
  findLive(tokenHash: string): Promise<WebSession | undefined>;
  touch(id: string, at: number): Promise<void>;
  end(id: string, at: number): Promise<void>;
  /** Ends every live session of an account; resolves to how many. */
  endAll(kind: SessionKind, accountId: string, at: number): Promise<number>;
}

export function createSessionStore(db: Database): SessionStore {
  return {
    async insert(s, tokenHash) {
      await db.run(
        'INSERT INTO web_sessions (id, token_hash, kind, account_id, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [s.id, tokenHash, s.kind, s.accountId, s.csrfToken, s.createdAt, s.lastSeenAt],
      );
    },
    async findLive(tokenHash) {
      const row = await db.get<SessionRow>(
        'SELECT id, kind, account_id, csrf_token, created_at, last_seen_at FROM web_sessions WHERE token_hash = ? AND ended_at IS NULL',
        [tokenHash],
      );
      return (
        row && {
          id: row.id,
          kind: row.kind,
          accountId: row.account_id,
          csrfToken: row.csrf_token,
          createdAt: Number(row.created_at),
          lastSeenAt: Number(row.last_seen_at),
        }
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
