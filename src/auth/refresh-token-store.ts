import { bumpCounter } from '../db/counters.js';
import type { Database, Queryable } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import { MAX_LISTED_SESSIONS, MAX_USER_AGENT, type TokenFamilyStore } from './token-families.js';

/** A refresh token as stored: only the SHA-256 of the token. */
export interface RefreshTokenRecord {
  id: string;
  tokenHash: string;
  familyId: string;
  userId: string;
  keyId: string;
  environment: Environment;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
  revokedReason: string | null;
  /** The scope of an OAuth grant (space-separated); null for a `/connect` login. */
  scope: string | null;
}

export type RevokeReason =
  | 'revoked_by_client'
  | 'reuse_detected'
  | 'key_revoked'
  | 'refresh_permission_withdrawn'
  | 'password_changed'
  | 'user_disabled'
  | 'code_replayed'
  | 'ended_by_user';

interface Row {
  id: string;
  token_hash: string;
  family_id: string;
  user_id: string;
  key_id: string;
  environment: Environment;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  revoked_reason: string | null;
  scope: string | null;
}

/** A session as listed: its family joined with its key's project. */
interface SessionRow {
  family_id: string;
  key_id: string;
  project_name: string;
  created_at: number;
  last_used_at: number;
  ip: string;
  user_agent: string;
}

const COLUMNS =
  'id, token_hash, family_id, user_id, key_id, environment, created_at, expires_at, used_at, revoked_at, revoked_reason, scope';
const num = (v: number | null) => (v === null ? null : Number(v));
const fromRow = (r: Row): RefreshTokenRecord => ({
  id: r.id,
  tokenHash: r.token_hash,
  familyId: r.family_id,
  userId: r.user_id,
  keyId: r.key_id,
  environment: r.environment,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  usedAt: num(r.used_at),
  revokedAt: num(r.revoked_at),
  revokedReason: r.revoked_reason,
  scope: r.scope,
});

/** The refresh tokens, and the families (logins, `user_sessions`) they belong to. */
export interface RefreshTokenStore extends TokenFamilyStore {
  insert(record: RefreshTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Marks a token spent (rotation); false when it was already spent: the caller lost a race or sees reuse. */
  markUsed(id: string, at: number): Promise<boolean>;
  /**
   * Each returns how many live tokens it revoked, and denylists the families it touched (every
   * family for `revokeFamily`, even one without refresh tokens) so their access tokens are
   * refused too; `onFamiliesRevoked` then tells this process and the others.
   */
  revokeFamily(familyId: string, reason: RevokeReason, at: number): Promise<number>;
  revokeForKey(keyId: string, reason: RevokeReason, at: number): Promise<number>;
  revokeForUser(userId: string, reason: RevokeReason, at: number): Promise<number>;
}

export interface RefreshTokenStoreOptions {
  /** How long a revoked family stays denylisted: the access-token lifetime plus the clock skew. */
  denylistMs: number;
  /** After a revocation has committed: refresh the local denylist and tell the other processes. */
  onFamiliesRevoked?: () => void | Promise<void>;
}

export function createRefreshTokenStore(db: Database, options: RefreshTokenStoreOptions): RefreshTokenStore {
  /** Denylists the families matched by `select` (a SELECT of family ids), in the caller's transaction. */
  async function denylist(
    tx: Queryable,
    select: { sql: string; params: (string | number)[] },
    reason: RevokeReason,
    at: number,
  ) {
    const seq = await bumpCounter(tx, 'token_families');
    // Rows past their use are pruned as new ones arrive: the table holds ~10 h of revocations.
    await tx.run('DELETE FROM revoked_token_families WHERE expires_at <= ?', [at]);
    await tx.run(
      `INSERT INTO revoked_token_families (family_id, reason, revoked_at, expires_at, change_seq)
       SELECT f.family_id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM (${select.sql}) f WHERE true
       ON CONFLICT (family_id) DO NOTHING`,
      [reason, at, at + options.denylistMs, seq, ...select.params],
    );
  }
  /**
   * The families' sessions end with them, in the same transaction (before their tokens are
   * marked). Withdrawing the refresh permission ends only the families that hold refresh tokens:
   * a grant without `offline_access` keeps its access token, so its session stays listed. A
   * revoked key, a new password or a disabled user end every access token: every session goes.
   */
  const endSessions = (tx: Queryable, where: string, value: string, at: number, reason?: RevokeReason) =>
    reason === 'refresh_permission_withdrawn'
      ? tx.run(
          `UPDATE user_sessions SET revoked_at = ? WHERE ${where} = ? AND revoked_at IS NULL AND family_id IN
             (SELECT family_id FROM refresh_tokens WHERE ${where} = ? AND revoked_at IS NULL)`,
          [at, value, value],
        )
      : tx.run(`UPDATE user_sessions SET revoked_at = ? WHERE ${where} = ? AND revoked_at IS NULL`, [
          at,
          value,
        ]);
  const revokeWhere = async (where: string, value: string, reason: RevokeReason, at: number) => {
    const revoked = await db.transaction(async (tx) => {
      await endSessions(tx, where, value, at, reason);
      await denylist(
        tx,
        {
          sql: `SELECT DISTINCT family_id FROM refresh_tokens WHERE ${where} = ? AND revoked_at IS NULL`,
          params: [value],
        },
        reason,
        at,
      );
      return tx.run(
        `UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE ${where} = ? AND revoked_at IS NULL`,
        [at, reason, value],
      );
    });
    await options.onFamiliesRevoked?.();
    return revoked;
  };
  return {
    async insert(r) {
      await db.run(`INSERT INTO refresh_tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        r.id,
        r.tokenHash,
        r.familyId,
        r.userId,
        r.keyId,
        r.environment,
        r.createdAt,
        r.expiresAt,
        r.usedAt,
        r.revokedAt,
        r.revokedReason,
        r.scope,
      ]);
    },
    async findByHash(tokenHash) {
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM refresh_tokens WHERE token_hash = ?`, [
        tokenHash,
      ]);
      return row && fromRow(row);
    },
    async markUsed(id, at) {
      return (
        (await db.run('UPDATE refresh_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL', [at, id])) > 0
      );
    },
    async revokeFamily(familyId, reason, at) {
      const revoked = await db.transaction(async (tx) => {
        await denylist(tx, { sql: 'SELECT CAST(? AS TEXT) AS family_id', params: [familyId] }, reason, at);
        await endSessions(tx, 'family_id', familyId, at);
        return tx.run(
          'UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE family_id = ? AND revoked_at IS NULL',
          [at, reason, familyId],
        );
      });
      await options.onFamiliesRevoked?.();
      return revoked;
    },
    revokeForKey: (keyId, reason, at) => revokeWhere('key_id', keyId, reason, at),
    revokeForUser: (userId, reason, at) => revokeWhere('user_id', userId, reason, at),
    async recordFamily(f) {
      // The user's sessions that have expired are of no more use: kept few as new ones arrive.
      await db.run('DELETE FROM user_sessions WHERE user_id = ? AND expires_at <= ?', [f.userId, f.at]);
      await db.run(
        `INSERT INTO user_sessions (family_id, user_id, key_id, environment, created_at, last_used_at, expires_at, ip, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (family_id) DO NOTHING`,
        [
          f.familyId,
          f.userId,
          f.keyId,
          f.environment,
          f.at,
          f.at,
          f.expiresAt,
          f.origin.ip,
          f.origin.userAgent.slice(0, MAX_USER_AGENT),
        ],
      );
    },
    async touchFamily(familyId, at, expiresAt) {
      await db.run(
        `UPDATE user_sessions SET last_used_at = ?,
           expires_at = CASE WHEN expires_at < ? THEN ? ELSE expires_at END
         WHERE family_id = ?`,
        [at, expiresAt, expiresAt, familyId],
      );
    },
    async activeSessions(userId, environment, now, familyId) {
      const rows = await db.all<SessionRow>(
        `SELECT s.family_id, s.key_id, p.name AS project_name, s.created_at, s.last_used_at, s.ip, s.user_agent
         FROM user_sessions s JOIN api_keys k ON k.id = s.key_id JOIN projects p ON p.id = k.project_id
         WHERE s.user_id = ? AND s.environment = ? AND s.revoked_at IS NULL AND s.expires_at > ?
           AND k.state = 'active' ${familyId === undefined ? '' : 'AND s.family_id = ?'}
         ORDER BY s.created_at DESC, s.family_id DESC LIMIT ${MAX_LISTED_SESSIONS}`,
        [userId, environment, now, ...(familyId === undefined ? [] : [familyId])],
      );
      return rows.map((r) => ({
        id: r.family_id,
        keyId: r.key_id,
        projectName: r.project_name,
        createdAt: Number(r.created_at),
        lastUsedAt: Number(r.last_used_at),
        ip: r.ip,
        userAgent: r.user_agent,
      }));
    },
  };
}
