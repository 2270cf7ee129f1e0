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
  revoke(id: string): Promise<KeyRecord>;
  /** Sets the key's own plan in requests per second, or with `null` returns it to its environment's default. */
  setPlan(id: string, rps: number | null): Promise<KeyRecord>;
}

/** Largest plan a key can have (requests per second); the config defaults have the same bound. */
export const MAX_PLAN_RPS = 1_000_000;

export function createKeyService(deps: {
  store: KeyStore;
  projects: ProjectStore;
  clock: Clock;
  /** Called after a change verifiers must see, so this process does not wait for its poll. */
  onKeyChanged?: (keyHash: string) => void | Promise<void>;
}): KeyService {
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
      const existing = await deps.store.get(id);
      if (!existing) throw new UsageError(`no key with id ${id}`, 'not_found');
      if (existing.state === 'revoked') return existing;
      await deps.store.revoke(id, deps.clock.now());
      await deps.onKeyChanged?.(existing.keyHash);
      const revoked = await deps.store.get(id);
      if (!revoked) throw new Error(`key ${id} vanished while being revoked`);
      return revoked;
    },
    async setPlan(id, rps) {
      if (rps !== null && (!Number.isInteger(rps) || rps < 1 || rps > MAX_PLAN_RPS)) {
        throw new UsageError(`a plan is a whole number of requests per second from 1 to ${MAX_PLAN_RPS}`);
      }
      const existing = await deps.store.get(id);
      if (!existing) throw new UsageError(`no key with id ${id}`, 'not_found');
      await deps.store.setRateLimit(id, rps);
      await deps.onKeyChanged?.(existing.keyHash);
      const updated = await deps.store.get(id);
      if (!updated) throw new Error(`key ${id} vanished while its plan was set`);
      return updated;
    },
  };
}
