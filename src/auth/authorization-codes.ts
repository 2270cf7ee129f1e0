import { createHash } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { LoginOrigin } from './token-families.js';

/**
 * Authorization codes (RFC 6749 §4.1.2): only the SHA-256 of a code is stored; a code
 * is single-use, lives 60 s and is bound to the client (key), the redirect URI and the PKCE
 * challenge. `familyId` is the grant the code starts: the tokens exchanged for it carry it, so a
 * replayed code can revoke them (RFC 6749 §4.1.2: "SHOULD revoke … all tokens previously issued").
 */
export const CODE_TTL_MS = 60_000;

/** A code as issued: `vac_` + 43 base62 characters; anything else is not looked up. */
export const CODE_FORMAT = /^vac_[0-9A-Za-z]{43}$/;

export interface AuthorizationCode {
  codeHash: string;
  familyId: string;
  keyId: string;
  userId: string;
  environment: Environment;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  nonce: string | null;
  /** Epoch ms of the login (the ID token's `auth_time`). */
  authTime: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** The browser that signed in: the session the code opens names it. */
  origin: LoginOrigin;
}

export interface AuthorizationCodeStore {
  insert(code: AuthorizationCode): Promise<void>;
  find(codeHash: string): Promise<AuthorizationCode | undefined>;
  /** Marks the code used; false when it was used already (a replay, or a lost race). */
  consume(codeHash: string, at: number): Promise<boolean>;
}

export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

interface Row {
  code_hash: string;
  family_id: string;
  key_id: string;
  user_id: string;
  environment: Environment;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  nonce: string | null;
  auth_time: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  login_ip: string;
  login_user_agent: string;
}

const COLUMNS =
  'code_hash, family_id, key_id, user_id, environment, redirect_uri, code_challenge, scope, nonce, auth_time, created_at, expires_at, used_at, login_ip, login_user_agent';

export function createAuthorizationCodeStore(db: Database): AuthorizationCodeStore {
  return {
    async insert(c) {
      // Codes live a minute; the table is kept small as new ones arrive.
      await db.run('DELETE FROM authorization_codes WHERE expires_at < ?', [c.createdAt - 3_600_000]);
      await db.run(
        `INSERT INTO authorization_codes (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          c.codeHash,
          c.familyId,
          c.keyId,
          c.userId,
          c.environment,
          c.redirectUri,
          c.codeChallenge,
          c.scope,
          c.nonce,
          c.authTime,
          c.createdAt,
          c.expiresAt,
          c.usedAt,
          c.origin.ip,
          c.origin.userAgent,
        ],
      );
    },
    async find(codeHash) {
      const r = await db.get<Row>(`SELECT ${COLUMNS} FROM authorization_codes WHERE code_hash = ?`, [
        codeHash,
      ]);
      if (!r) return undefined;
      return {
        codeHash: r.code_hash,
        familyId: r.family_id,
        keyId: r.key_id,
        userId: r.user_id,
        environment: r.environment,
        redirectUri: r.redirect_uri,
        codeChallenge: r.code_challenge,
        scope: r.scope,
        nonce: r.nonce,
        authTime: Number(r.auth_time),
        createdAt: Number(r.created_at),
        expiresAt: Number(r.expires_at),
        usedAt: r.used_at === null ? null : Number(r.used_at),
        origin: { ip: r.login_ip, userAgent: r.login_user_agent },
      };
    },
    async consume(codeHash, at) {
      return (
        (await db.run('UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [
          at,
          codeHash,
        ])) > 0
      );
    },
  };
}
