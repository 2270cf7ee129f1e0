import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.js';
import { generateApiKey, hashApiKey } from './key-format.js';
import type { KeyRecord } from './model.js';
import type { KeyStore } from './store.js';
import { createKeyVerifier } from './verifier.js';

/** An in-memory store whose next lookup can be held open, to interleave it with a revocation. */
function fakeStore(record: KeyRecord) {
  let seq = 0;
  let changedAt = 0;
  let hold: Promise<void> | null = null;
  const store: KeyStore = {
    insert: async () => undefined,
    async findByHash(hash) {
      // The row is read when the query starts; the answer arrives when `hold` lets it go.
      const snapshot = hash === record.keyHash ? { ...record } : undefined;
      if (hold) await hold;
      return snapshot;
    },
    get: async () => record,
    list: async () => [record],
    revoke: async () => false,
    setRateLimit: async () => false,
    roll: async () => false,
    async changedSince(since) {
      return changedAt > since
        ? { ids: [record.id], hashes: [record.keyHash], latest: changedAt }
        : { ids: [], hashes: [], latest: since };
    },
    currentChangeSeq: async () => seq,
    recordLastUse: async () => undefined,
    setRefreshAllowed: async () => false,
    setWriteAllowed: async () => false,
    publishableOrigins: async () => [],
  };
  return {
    store,
    holdNextRead() {
      let release: () => void = () => undefined;
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
      return release;
    },
    revoke() {
      record.state = 'revoked';
      seq += 1;
      changedAt = seq;
    },
  };
}

describe('key verifier cache', () => {
  it('does not cache a record read before a revocation that a poll evicted meanwhile', async () => {
    const key = generateApiKey('testing');
    const record: KeyRecord = {
      id: 'key_1',
      projectId: 'prj_1',
      environment: 'testing',
      keyHash: hashApiKey(key),
      hint: 'vk_test_…',
      state: 'active',
      refreshAllowed: false,
      rateLimitRps: null,
      expiresAt: null,
      createdAt: 0,
      lastUsedAt: null,
      revokedAt: null,
      kind: 'secret',
      writeAllowed: false,
      allowedOrigins: [],
      fixedFilters: {},
      previousKeyHash: null,
      previousExpiresAt: null,
    };
    const fake = fakeStore(record);
    const verifier = createKeyVerifier({ store: fake.store, clock: new ManualClock(), refreshMs: 500 });
    await verifier.start();
    try {
      const release = fake.holdNextRead();
      const inFlight = verifier.verify(key, 'testing');
      // While the lookup is in flight, the key is revoked elsewhere and this process polls.
      fake.revoke();
      await verifier.refresh();
      release();
      // The in-flight request raced the revocation and may pass …
      expect((await inFlight).ok).toBe(true);
      // … but its stale record must not be cached: the next request sees the revocation.
      expect(await verifier.verify(key, 'testing')).toEqual({ ok: false, code: 'api_key_revoked' });
    } finally {
      await verifier.stop();
    }
  });
});
