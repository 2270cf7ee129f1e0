import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { RecordEvent } from '../platform/events.js';
import { newId } from '../platform/ids.js';
import { UsageError } from '../platform/usage-error.js';
import type { ProjectStore } from '../projects/store.js';
import { keyRefusal } from './active-key.js';
import { generateApiKey, hashApiKey, type KeyKind, keyHint } from './key-format.js';
import type { KeyRecord } from './model.js';
import { type FixedFilters, parseAllowedOrigins } from './publishable.js';
import { ROLL_OVERLAPS } from './roll-overlap.js';
import type { KeyStore } from './store.js';

export interface IssuedKey {
  record: KeyRecord;
  /** The secret. Returned once, here, and never again: only its hash is stored. */
  key: string;
}

export interface KeyService {
  issue(input: {
    projectId: string;
    environment: Environment;
    expiresAt?: number | null;
    /** Default `secret`. A publishable key needs `allowedOrigins` (issue 16). */
    kind?: KeyKind;
    allowedOrigins?: readonly string[];
    fixedFilters?: FixedFilters;
  }): Promise<IssuedKey>;
  list(filter?: { projectId?: string; environment?: Environment }): Promise<KeyRecord[]>;
  get(id: string): Promise<KeyRecord | undefined>;
  /** The key whose secret hashes to `keyHash` (current or previous secret). */
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** The key if it may serve `environment` now (active-key.ts), else null: re-read, never cached. */
  activeKey(id: string, environment: Environment): Promise<KeyRecord | null>;
  /** Revokes the key and every refresh token it obtained. */
  revoke(id: string): Promise<KeyRecord>;
  /** The refresh permission: off until the operator grants it. */
  grantRefresh(id: string): Promise<KeyRecord>;
  /** Withdraws the permission and revokes every refresh token the key obtained. */
  revokeRefresh(id: string): Promise<{ key: KeyRecord; revokedRefreshTokens: number }>;
  /** The `offers:write` scope: secret keys only, granted by the operator. */
  grantWrite(id: string): Promise<KeyRecord>;
  revokeWrite(id: string): Promise<KeyRecord>;
  /** Sets the key's own plan in requests per second, or with `null` returns it to its environment's default. */
  setPlan(id: string, rps: number | null): Promise<KeyRecord>;
  /**
   * A new secret for the key (issue 15), shown once; the old secret keeps working for
   * `overlapMs` (0: refused at once). Same id, plan, permissions and scopes: refresh tokens
   * and access tokens it obtained stay valid.
   */
  roll(id: string, overlapMs: number): Promise<IssuedKey>;
}

/** Largest plan a key can have (requests per second); the config defaults have the same bound. */
export const MAX_PLAN_RPS = 1_000_000;

export function createKeyService(deps: {
  store: KeyStore;
  projects: ProjectStore;
  clock: Clock;
  /** The auth server's refresh tokens (auth/refresh-token-store.ts), as far as keys end them. */
  refreshTokens: {
    revokeForKey(
      keyId: string,
      reason: 'key_revoked' | 'refresh_permission_withdrawn',
      at: number,
    ): Promise<number>;
  };
  /**
   * Called after a change verifiers must see, so this process does not wait for its poll: the
   * key's id (caches evict every secret of it) and the hash its row now holds (a new key's).
   */
  onKeyChanged?: (key: { id: string; keyHash: string }) => void | Promise<void>;
  /** Issue 24: `key.revoked` and `key.rolled`, recorded in the change's own transaction. */
  recordEvent?: RecordEvent;
  /** Why a publishable key's `attr.*` fixed filters fail the environment's declarations, or null. */
  fixedFilterProblem?: (
    environment: Environment,
    attributes: Record<string, string[]>,
  ) => Promise<string | null>;
}): KeyService {
  const event =
    (key: KeyRecord, type: 'key.revoked' | 'key.rolled', data: Record<string, unknown>) =>
    (tx: Parameters<RecordEvent>[0]) =>
      deps.recordEvent?.(tx, {
        projectId: key.projectId,
        environment: key.environment,
        type,
        data: { keyId: key.id, kind: key.kind, ...data },
      }) ?? Promise.resolve();
  async function found(id: string): Promise<KeyRecord> {
    const record = await deps.store.get(id);
    if (!record) throw new UsageError(`no key with id ${id}`, 'not_found');
    return record;
  }
  return {
    get: (id) => deps.store.get(id),
    findByHash: (keyHash) => deps.store.findByHash(keyHash),
    async activeKey(id, environment) {
      const key = await deps.store.get(id);
      return key && keyRefusal(key, environment, deps.clock.now()) === null ? key : null;
    },
    async issue({ projectId, environment, expiresAt = null, kind = 'secret', allowedOrigins, fixedFilters }) {
      if (!(await deps.projects.get(projectId)))
        throw new UsageError(`no project with id ${projectId}`, 'not_found');
      const now = deps.clock.now();
      if (expiresAt !== null && expiresAt <= now) throw new UsageError('a key cannot expire in the past');
      const publishable = kind === 'publishable';
      if (!publishable && (allowedOrigins?.length || Object.keys(fixedFilters ?? {}).length)) {
        throw new UsageError('allowed origins and fixed filters are for publishable keys only');
      }
      const problem = await deps.fixedFilterProblem?.(environment, fixedFilters?.attributes ?? {});
      if (problem) throw new UsageError(problem);
      const key = generateApiKey(environment, kind);
      const record: KeyRecord = {
        id: newId('key'),
        projectId,
        environment,
        keyHash: hashApiKey(key),
        hint: keyHint(key),
        state: 'active',
        refreshAllowed: false,
        rateLimitRps: null,
        expiresAt,
        createdAt: now,
        lastUsedAt: null,
        revokedAt: null,
        kind,
        writeAllowed: false,
        allowedOrigins: publishable ? parseAllowedOrigins(allowedOrigins ?? []) : [],
        fixedFilters: publishable ? (fixedFilters ?? {}) : {},
        previousKeyHash: null,
        previousExpiresAt: null,
      };
      await deps.store.insert(record);
      // A new publishable key brings origins every instance's CORS must know (issue 16).
      if (publishable) await deps.onKeyChanged?.(record);
      return { record, key };
    },
    async roll(id, overlapMs) {
      if (!(Object.values(ROLL_OVERLAPS) as number[]).includes(overlapMs)) {
        throw new UsageError('the overlap is none, 1h, 24h or 7d');
      }
      const existing = await found(id);
      if (existing.state !== 'active') throw new UsageError(`key ${id} is revoked`, 'conflict');
      const key = generateApiKey(existing.environment, existing.kind);
      const previousExpiresAt = deps.clock.now() + overlapMs;
      const rolled = await deps.store.roll(
        id,
        { newHash: hashApiKey(key), newHint: keyHint(key), previousExpiresAt },
        event(existing, 'key.rolled', {
          hint: keyHint(key),
          previousSecretExpiresAt: new Date(previousExpiresAt).toISOString(),
        }),
      );
      if (!rolled) throw new UsageError(`key ${id} is revoked`, 'conflict');
      // Caches holding the old hash must learn its end (at once or after the overlap).
      await deps.onKeyChanged?.(existing);
      return { record: await found(id), key };
    },
    list: (filter = {}) => deps.store.list(filter),
    async revoke(id) {
      const existing = await found(id);
      if (existing.state !== 'revoked') {
        const at = deps.clock.now();
        await deps.store.revoke(
          id,
          at,
          event(existing, 'key.revoked', { hint: existing.hint, revokedAt: new Date(at).toISOString() }),
        );
        await deps.onKeyChanged?.(existing);
      }
      // Also when already revoked: a token minted in a race with the revocation ends here.
      await deps.refreshTokens.revokeForKey(id, 'key_revoked', deps.clock.now());
      return found(id);
    },
    async grantRefresh(id) {
      const existing = await found(id);
      if (existing.state === 'revoked') throw new UsageError(`key ${id} is revoked`, 'conflict');
      if (await deps.store.setRefreshAllowed(id, true)) await deps.onKeyChanged?.(existing);
      return found(id);
    },
    async revokeRefresh(id) {
      const existing = await found(id);
      if (await deps.store.setRefreshAllowed(id, false)) await deps.onKeyChanged?.(existing);
      const revokedRefreshTokens = await deps.refreshTokens.revokeForKey(
        id,
        'refresh_permission_withdrawn',
        deps.clock.now(),
      );
      return { key: await found(id), revokedRefreshTokens };
    },
    async grantWrite(id) {
      const existing = await found(id);
      if (existing.state === 'revoked') throw new UsageError(`key ${id} is revoked`, 'conflict');
      if (existing.kind !== 'secret') {
        throw new UsageError(`key ${id} is publishable: only secret keys may write offers`, 'conflict');
      }
      if (await deps.store.setWriteAllowed(id, true)) await deps.onKeyChanged?.(existing);
      return found(id);
    },
    async revokeWrite(id) {
      const existing = await found(id);
      if (await deps.store.setWriteAllowed(id, false)) await deps.onKeyChanged?.(existing);
      return found(id);
    },
    async setPlan(id, rps) {
      if (rps !== null && (!Number.isInteger(rps) || rps < 1 || rps > MAX_PLAN_RPS)) {
        throw new UsageError(`a plan is a whole number of requests per second from 1 to ${MAX_PLAN_RPS}`);
      }
      const existing = await found(id);
      await deps.store.setRateLimit(id, rps);
      await deps.onKeyChanged?.(existing);
      return found(id);
    },
  };
}
