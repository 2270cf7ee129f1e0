import { bumpCounter, readCounter } from '../db/counters.js';
import type { Database, Queryable } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { KeyKind } from './key-format.js';
import type { KeyRecord, KeyState } from './model.js';
import type { FixedFilters } from './publishable.js';

interface KeyRow {
  id: string;
  project_id: string;
  environment: Environment;
  key_hash: string;
  hint: string;
  state: KeyState;
  refresh_allowed: number;
  rate_limit_rps: number | null;
  expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  kind: KeyKind;
  write_allowed: number;
  allowed_origins: string;
  fixed_filters: string;
  previous_key_hash: string | null;
  previous_expires_at: number | null;
}

const COLUMNS =
  'id, project_id, environment, key_hash, hint, state, refresh_allowed, rate_limit_rps, expires_at, created_at, last_used_at, revoked_at, kind, write_allowed, allowed_origins, fixed_filters, previous_key_hash, previous_expires_at';

function fromRow(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    environment: row.environment,
    keyHash: row.key_hash,
    hint: row.hint,
    state: row.state,
    refreshAllowed: Number(row.refresh_allowed) === 1,
    rateLimitRps: row.rate_limit_rps === null ? null : Number(row.rate_limit_rps),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    kind: row.kind,
    writeAllowed: Number(row.write_allowed) === 1,
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    fixedFilters: JSON.parse(row.fixed_filters) as FixedFilters,
    previousKeyHash: row.previous_key_hash,
    previousExpiresAt: row.previous_expires_at === null ? null : Number(row.previous_expires_at),
  };
}

export interface KeyStore {
  insert(record: KeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  get(id: string): Promise<KeyRecord | undefined>;
  list(filter: { projectId?: string; environment?: Environment }): Promise<KeyRecord[]>;
  /** Revokes an active key; false when it was not active (already revoked or unknown). */
  revoke(id: string, at: number, alsoWrite?: (tx: Queryable) => Promise<void>): Promise<boolean>;
  /** Grants or withdraws the refresh permission; false when it already had that value. */
  setRefreshAllowed(id: string, allowed: boolean): Promise<boolean>;
  /** Grants or withdraws the `offers:write` scope; false when it already had that value. */
  setWriteAllowed(id: string, allowed: boolean): Promise<boolean>;
  /** Allowed origins of the active publishable keys of an environment (CORS preflights). */
  publishableOrigins(environment: Environment): Promise<string[]>;
  /** Sets (or with `null` clears) the key's own rate-limit plan; false when no such key. */
  setRateLimit(id: string, rps: number | null): Promise<boolean>;
  /**
   * A new secret for an active key: `newHash` becomes the key's hash and the current one its
   * previous hash, accepted until `previousExpiresAt`. False when the key is not active.
   */
  roll(
    id: string,
    roll: { newHash: string; newHint: string; previousExpiresAt: number },
    alsoWrite?: (tx: Queryable) => Promise<void>,
  ): Promise<boolean>;
  /** Hashes of keys changed after counter value `since`, and the newest counter value seen. */
  /** Keys changed since `since`: their ids, and the hashes their rows hold now (a new key's too). */
  changedSince(since: number): Promise<{ ids: string[]; hashes: string[]; latest: number }>;
  currentChangeSeq(): Promise<number>;
  recordLastUse(uses: ReadonlyMap<string, number>): Promise<void>;
}

export function createKeyStore(db: Database): KeyStore {
  return {
    async insert(record) {
      await db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        await tx.run(
          `INSERT INTO api_keys (${COLUMNS}, change_seq) VALUES (${COLUMNS.split(',')
            .map(() => '?')
            .join(', ')}, ?)`,
          [
            record.id,
            record.projectId,
            record.environment,
            record.keyHash,
            record.hint,
            record.state,
            record.refreshAllowed ? 1 : 0,
            record.rateLimitRps,
            record.expiresAt,
            record.createdAt,
            record.lastUsedAt,
            record.revokedAt,
            record.kind,
            record.writeAllowed ? 1 : 0,
            JSON.stringify(record.allowedOrigins),
            JSON.stringify(record.fixedFilters),
            record.previousKeyHash,
            record.previousExpiresAt,
            seq,
          ],
        );
      });
    },
    async findByHash(keyHash) {
      // The current secret, or the previous one of a rolled key (the verifier checks its overlap).
      const row = await db.get<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ? OR previous_key_hash = ?`,
        [keyHash, keyHash],
      );
      return row && fromRow(row);
    },
    async get(id) {
      const row = await db.get<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, [id]);
      return row && fromRow(row);
    },
    async list({ projectId, environment }) {
      const where: string[] = [];
      const params: string[] = [];
      if (projectId) {
        where.push('project_id = ?');
        params.push(projectId);
      }
      if (environment) {
        where.push('environment = ?');
        params.push(environment);
      }
      const rows = await db.all<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`,
        params,
      );
      return rows.map(fromRow);
    },
    async revoke(id, at, alsoWrite) {
      return db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        const changed = await tx.run(
          "UPDATE api_keys SET state = 'revoked', revoked_at = ?, change_seq = ? WHERE id = ? AND state = 'active'",
          [at, seq, id],
        );
        if (changed > 0) await alsoWrite?.(tx);
        return changed > 0;
      });
    },
    async setRefreshAllowed(id, allowed) {
      return db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        const changed = await tx.run(
          'UPDATE api_keys SET refresh_allowed = ?, change_seq = ? WHERE id = ? AND refresh_allowed <> ?',
          [allowed ? 1 : 0, seq, id, allowed ? 1 : 0],
        );
        return changed > 0;
      });
    },
    async setWriteAllowed(id, allowed) {
      return db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        const changed = await tx.run(
          'UPDATE api_keys SET write_allowed = ?, change_seq = ? WHERE id = ? AND write_allowed <> ?',
          [allowed ? 1 : 0, seq, id, allowed ? 1 : 0],
        );
        return changed > 0;
      });
    },
    async publishableOrigins(environment) {
      const rows = await db.all<{ allowed_origins: string }>(
        "SELECT allowed_origins FROM api_keys WHERE environment = ? AND kind = 'publishable' AND state = 'active'",
        [environment],
      );
      return [...new Set(rows.flatMap((r) => JSON.parse(r.allowed_origins) as string[]))];
    },
    async setRateLimit(id, rps) {
      // A plan change is one verifiers must see (their cached record carries the plan).
      return db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        return (
          (await tx.run('UPDATE api_keys SET rate_limit_rps = ?, change_seq = ? WHERE id = ?', [
            rps,
            seq,
            id,
          ])) > 0
        );
      });
    },
    async changedSince(since) {
      const rows = await db.all<{
        id: string;
        key_hash: string;
        previous_key_hash: string | null;
        change_seq: number;
      }>(
        'SELECT id, key_hash, previous_key_hash, change_seq FROM api_keys WHERE change_seq > ? ORDER BY change_seq',
        [since],
      );
      const last = rows.at(-1);
      // A rolled key changed under both its hashes: caches may hold either.
      const hashes = rows.flatMap((r) =>
        r.previous_key_hash ? [r.key_hash, r.previous_key_hash] : [r.key_hash],
      );
      return { ids: rows.map((r) => r.id), hashes, latest: last ? Number(last.change_seq) : since };
    },
    async roll(id, { newHash, newHint, previousExpiresAt }, alsoWrite) {
      return db.transaction(async (tx) => {
        const seq = await bumpCounter(tx, 'api_keys');
        const changed = await tx.run(
          "UPDATE api_keys SET previous_key_hash = key_hash, previous_expires_at = ?, key_hash = ?, hint = ?, change_seq = ? WHERE id = ? AND state = 'active'",
          [previousExpiresAt, newHash, newHint, seq, id],
        );
        if (changed > 0) await alsoWrite?.(tx);
        return changed > 0;
      });
    },
    currentChangeSeq: () => readCounter(db, 'api_keys'),
    async recordLastUse(uses) {
      if (uses.size === 0) return;
      // Last use is bookkeeping, not a change verifiers must see: change_seq stays untouched.
      await db.transaction(async (tx) => {
        for (const [id, at] of uses) {
          await tx.run(
            'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
            [at, id, at],
          );
        }
      });
    },
  };
}
