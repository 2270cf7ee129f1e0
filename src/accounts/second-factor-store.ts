import type { Database } from '../db/database.js';
import type { AccountKind } from './model.js';

export interface FactorRow {
  sealedSecret: string;
  confirmedAt: number | null;
  lastStep: number;
}

/** Second factors and recovery codes (migration 91): the TOTP secret sealed, codes hashed. */
export interface SecondFactorStore {
  get(kind: AccountKind, accountId: string): Promise<FactorRow | undefined>;
  /** A new, unconfirmed enrolment (an earlier unconfirmed one is replaced; a confirmed one stays). */
  begin(kind: AccountKind, accountId: string, sealedSecret: string, at: number): Promise<boolean>;
  /** Confirms the enrolment with its first code's step and stores the recovery codes' hashes. */
  confirm(
    kind: AccountKind,
    accountId: string,
    at: number,
    step: number,
    codeHashes: string[],
  ): Promise<boolean>;
  /** Records an accepted step; false when this step (or a later one) was accepted already: a replay. */
  advance(kind: AccountKind, accountId: string, step: number): Promise<boolean>;
  /** Spends a recovery code; false when it is unknown or spent. */
  spendCode(kind: AccountKind, accountId: string, codeHash: string, at: number): Promise<boolean>;
  unusedCodes(kind: AccountKind, accountId: string): Promise<number>;
  /** Removes the factor and its codes; false when there was none. */
  remove(kind: AccountKind, accountId: string): Promise<boolean>;
}

export function createSecondFactorStore(db: Database): SecondFactorStore {
  return {
    async get(kind, accountId) {
      const row = await db.get<{ sealed_secret: string; confirmed_at: number | null; last_step: number }>(
        'SELECT sealed_secret, confirmed_at, last_step FROM second_factors WHERE kind = ? AND account_id = ?',
        [kind, accountId],
      );
      return (
        row && {
          sealedSecret: row.sealed_secret,
          confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
          lastStep: Number(row.last_step),
        }
      );
    },
    begin(kind, accountId, sealedSecret, at) {
      return db.transaction(async (tx) => {
        await tx.run(
          'DELETE FROM second_factors WHERE kind = ? AND account_id = ? AND confirmed_at IS NULL',
          [kind, accountId],
        );
        const changed = await tx.run(
          'INSERT INTO second_factors (kind, account_id, sealed_secret, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, account_id) DO NOTHING',
          [kind, accountId, sealedSecret, at],
        );
        return changed === 1;
      });
    },
    confirm(kind, accountId, at, step, codeHashes) {
      return db.transaction(async (tx) => {
        const changed = await tx.run(
          'UPDATE second_factors SET confirmed_at = ?, last_step = ? WHERE kind = ? AND account_id = ? AND confirmed_at IS NULL',
          [at, step, kind, accountId],
        );
        if (changed !== 1) return false;
        await tx.run('DELETE FROM recovery_codes WHERE kind = ? AND account_id = ?', [kind, accountId]);
        for (const hash of codeHashes) {
          await tx.run('INSERT INTO recovery_codes (kind, account_id, code_hash) VALUES (?, ?, ?)', [
            kind,
            accountId,
            hash,
          ]);
        }
        return true;
      });
    },
    async advance(kind, accountId, step) {
      const changed = await db.run(
        'UPDATE second_factors SET last_step = ? WHERE kind = ? AND account_id = ? AND confirmed_at IS NOT NULL AND last_step < ?',
        [step, kind, accountId, step],
      );
      return changed === 1;
    },
    async spendCode(kind, accountId, codeHash, at) {
      const changed = await db.run(
        'UPDATE recovery_codes SET used_at = ? WHERE kind = ? AND account_id = ? AND code_hash = ? AND used_at IS NULL',
        [at, kind, accountId, codeHash],
      );
      return changed === 1;
    },
    async unusedCodes(kind, accountId) {
      const row = await db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM recovery_codes WHERE kind = ? AND account_id = ? AND used_at IS NULL',
        [kind, accountId],
      );
      return Number(row?.n ?? 0);
    },
    remove(kind, accountId) {
      return db.transaction(async (tx) => {
        await tx.run('DELETE FROM recovery_codes WHERE kind = ? AND account_id = ?', [kind, accountId]);
        return (
          (await tx.run('DELETE FROM second_factors WHERE kind = ? AND account_id = ?', [kind, accountId])) >
          0
        );
      });
    },
  };
}
