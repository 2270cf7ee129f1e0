import type { RefreshTokenStore } from '../auth/refresh-token-store.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import { UsageError } from '../platform/usage-error.js';
import type { ProjectStore } from '../projects/store.js';
import { generateApiKey, hashApiKey, keyHint } from './key-format.js';
import type { KeyRecord, KeyStore } from './store.js';

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
  }): Promise<IssuedKey>;
  list(filter?: { projectId?: string; environment?: Environment }): Promise<KeyRecord[]>;
  /** Revokes the key and every refresh token it obtained. */
  revoke(id: string): Promise<KeyRecord>;
  /** The refresh permission (SPEC §3, §5): off until the operator grants it. */
  grantRefresh(id: string): Promise<KeyRecord>;
  /** Withdraws the permission and revokes every refresh token the key obtained. */
  revokeRefresh(id: string): Promise<{ key: KeyRecord; revokedRefreshTokens: number }>;
  /** Sets the key's own plan in requests per second, or with `null` returns it to its environment's default. */
  setPlan(id: string, rps: number | null): Promise<KeyRecord>;
}

/** Largest plan a key can have (requests per second); the config defaults have the same bound. */
export const MAX_PLAN_RPS = 1_000_000;

export function createKeyService(deps: {
  store: KeyStore;
  projects: ProjectStore;
  clock: Clock;
  refreshTokens: Pick<RefreshTokenStore, 'revokeForKey'>;
  /** Called after a change verifiers must see, so this process does not wait for its poll. */
  onKeyChanged?: (keyHash: string) => void | Promise<void>;
}): KeyService {
  async function found(id: string): Promise<KeyRecord> {
    const record = await deps.store.get(id);
    if (!record) throw new UsageError(`no key with id ${id}`, 'not_found');
    return record;
  }
  return {
    async issue({ projectId, environment, expiresAt = null }) {
      if (!(await deps.projects.get(projectId)))
        throw new UsageError(`no project with id ${projectId}`, 'not_found');
      const now = deps.clock.now();
      if (expiresAt !== null && expiresAt <= now) throw new UsageError('a key cannot expire in the past');
      const key = generateApiKey(environment);
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
      };
      await deps.store.insert(record);
      return { record, key };
    },
    list: (filter = {}) => deps.store.list(filter),
    async revoke(id) {
      const existing = await found(id);
      if (existing.state !== 'revoked') {
        await deps.store.revoke(id, deps.clock.now());
        await deps.onKeyChanged?.(existing.keyHash);
      }
      // Also when already revoked: a token minted in a race with the revocation ends here.
      await deps.refreshTokens.revokeForKey(id, 'key_revoked', deps.clock.now());
      return found(id);
    },
    async grantRefresh(id) {
      const existing = await found(id);
      if (existing.state === 'revoked') throw new UsageError(`key ${id} is revoked`, 'conflict');
      if (await deps.store.setRefreshAllowed(id, true)) await deps.onKeyChanged?.(existing.keyHash);
      return found(id);
    },
    async revokeRefresh(id) {
      const existing = await found(id);
      if (await deps.store.setRefreshAllowed(id, false)) await deps.onKeyChanged?.(existing.keyHash);
      const revokedRefreshTokens = await deps.refreshTokens.revokeForKey(
        id,
        'refresh_permission_withdrawn',
        deps.clock.now(),
      );
      return { key: await found(id), revokedRefreshTokens };
    },
    async setPlan(id, rps) {
      if (rps !== null && (!Number.isInteger(rps) || rps < 1 || rps > MAX_PLAN_RPS)) {
        throw new UsageError(`a plan is a whole number of requests per second from 1 to ${MAX_PLAN_RPS}`);
      }
      const existing = await found(id);
      await deps.store.setRateLimit(id, rps);
      await deps.onKeyChanged?.(existing.keyHash);
      return found(id);
    },
  };
}
