import type { Database } from '../db/database.js';
import type { Environment } from '../platform/environment.js';

/** A refresh token as stored: only the SHA-256 of the token (SPEC §5). */
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
}

export type RevokeReason =
  | 'revoked_by_client'
  | 'reuse_detected'
  | 'key_revoked'
  | 'refresh_permission_withdrawn'
  | 'password_changed'
  | 'user_disabled';

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
}

const COLUMNS =
  'id, token_hash, family_id, user_id, key_id, environment, created_at, expires_at, used_at, revoked_at, revoked_reason';
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
});

export interface RefreshTokenStore {
  insert(record: RefreshTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Marks a token spent (rotation); false when it was already spent: the caller lost a race or sees reuse. */
  markUsed(id: string, at: number): Promise<boolean>;
  /** Each returns how many live tokens it revoked. */
  revokeFamily(familyId: string, reason: RevokeReason, at: number): Promise<number>;
  revokeForKey(keyId: string, reason: RevokeReason, at: number): Promise<number>;
  revokeForUser(userId: string, reason: RevokeReason, at: number): Promise<number>;
}

export function createRefreshTokenStore(db: Database): RefreshTokenStore {
  const revokeWhere = async (where: string, value: string, reason: RevokeReason, at: number) =>
    db.run(
      `UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE ${where} = ? AND revoked_at IS NULL`,
      [at, reason, value],
    );
  return {
    async insert(r) {
      await db.run(`INSERT INTO refresh_tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
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
    revokeFamily: (familyId, reason, at) => revokeWhere('family_id', familyId, reason, at),
    revokeForKey: (keyId, reason, at) => revokeWhere('key_id', keyId, reason, at),
    revokeForUser: (userId, reason, at) => revokeWhere('user_id', userId, reason, at),
  };
}
