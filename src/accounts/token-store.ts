import type { Database, Queryable } from '../db/database.js';
import type { AccountKind, TokenProblem, TokenPurpose } from './model.js';

interface TokenRow {
  kind: AccountKind;
  account_id: string;
  expires_at: number;
  used_at: number | null;
}

/** Single-use account tokens (migration 91): only the SHA-256 of a token is ever stored. */
export interface AccountTokenStore {
  insert(
    tx: Queryable,
    row: {
      hash: string;
      purpose: TokenPurpose;
      kind: AccountKind;
      accountId: string;
      at: number;
      expiresAt: number;
    },
  ): Promise<void>;
  /** The token's account while it is unused and unexpired, or why not. */
  peek(
    hash: string,
    purpose: TokenPurpose,
    now: number,
  ): Promise<{ kind: AccountKind; accountId: string } | { problem: TokenProblem }>;
  /** Marks it used (once: a second caller gets `used`), in the caller's transaction. */
  consume(
    tx: Queryable,
    hash: string,
    purpose: TokenPurpose,
    now: number,
  ): Promise<{ kind: AccountKind; accountId: string } | { problem: TokenProblem }>;
  /** Every unused token of this purpose for the account stops working (a reset done, a new link). */
  retire(
    tx: Queryable,
    kind: AccountKind,
    accountId: string,
    purpose: TokenPurpose,
    now: number,
  ): Promise<void>;
}

export function createAccountTokenStore(db: Database): AccountTokenStore {
  async function read(q: Queryable, hash: string, purpose: TokenPurpose, now: number) {
    const row = await q.get<TokenRow>(
      'SELECT kind, account_id, expires_at, used_at FROM account_tokens WHERE token_hash = ? AND purpose = ?',
      [hash, purpose],
    );
    if (!row) return { problem: 'unknown' as const };
    if (row.used_at !== null) return { problem: 'used' as const };
    if (Number(row.expires_at) <= now) return { problem: 'expired' as const };
    return { kind: row.kind, accountId: row.account_id };
  }
  return {
    async insert(tx, r) {
      await tx.run(
        'INSERT INTO account_tokens (token_hash, purpose, kind, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
        [r.hash, r.purpose, r.kind, r.accountId, r.at, r.expiresAt],
      );
    },
    peek: (hash, purpose, now) => read(db, hash, purpose, now),
    async consume(tx, hash, purpose, now) {
      const found = await read(tx, hash, purpose, now);
      if ('problem' in found) return found;
      const changed = await tx.run(
        'UPDATE account_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
        [now, hash, now],
      );
      return changed === 1 ? found : { problem: 'used' };
    },
    async retire(tx, kind, accountId, purpose, now) {
      await tx.run(
        'UPDATE account_tokens SET used_at = ? WHERE kind = ? AND account_id = ? AND purpose = ? AND used_at IS NULL',
        [now, kind, accountId, purpose],
      );
    },
  };
}
