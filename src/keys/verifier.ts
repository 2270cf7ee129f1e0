import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { keyRefusal } from './active-key.js';
import { hashApiKey, parseApiKey } from './key-format.js';
import type { KeyRecord } from './model.js';
import type { KeyStore } from './store.js';

export type VerifyFailure =
  | { ok: false; code: 'api_key_invalid'; reason: 'malformed' | 'checksum' | 'unknown' }
  | { ok: false; code: 'api_key_revoked' | 'api_key_expired' }
  | { ok: false; code: 'api_key_wrong_environment'; keyEnvironment: Environment };

export type VerifyResult = { ok: true; key: KeyRecord } | VerifyFailure;

export interface KeyVerifier {
  /**
   * Synchronous when the answer is known without the store (a malformed key, or a cached
   * record: the hot path, issue #3); a promise when the store must be read.
   */
  verify(rawKey: string, environment: Environment): VerifyResult | Promise<VerifyResult>;
  /**
   * Drops a key at once (this process or another changed it): given its id, every secret of it
   * cached under any hash (issue 26: a rolled key's older secrets included); given a hash, that one.
   */
  evict(keyIdOrHash: string): void;
  /**
   * Whether some active publishable key of `environment` allows `origin` (issue 16). CORS
   * preflights carry no key, so they are answered from this union, kept in memory: no
   * database call per preflight. Loaded by `start`, reloaded when a poll sees key changes.
   */
  allowsOrigin(environment: Environment, origin: string): boolean;
  /** Reloads the allowed origins now (this process changed a publishable key). */
  reloadOrigins(): Promise<void>;
  /** Polls the store for keys changed elsewhere and evicts them; runs on a timer after `start`. */
  refresh(): Promise<void>;
  start(): Promise<void>;
  /** Stops polling and writes pending last-use times. */
  stop(): Promise<void>;
  readonly stats: { hits: number; misses: number };
}

interface CacheEntry {
  key: KeyRecord | null;
  loadedAt: number;
}

export interface KeyVerifierOptions {
  store: KeyStore;
  clock: Clock;
  /** Poll period for changes made by other processes; ≤ 1000 ms keeps the 1 s promise. */
  refreshMs: number;
  /** Safety net: a cached key is re-read at least this often even if no change was seen. */
  maxAgeMs?: number;
  /** Unknown keys are remembered this long, so a flood of random valid-checksum keys stays cheap. */
  negativeMaxAgeMs?: number;
  maxEntries?: number;
  lastUseFlushMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Verifies API keys without a database round trip on the hot path (issue #2): results are cached
 * by key hash; every `refreshMs` one indexed query fetches the hashes of keys changed since the
 * last poll (a change counter, see migrations) and evicts them, so a key revoked by any process
 * (the CLI, another instance) is refused everywhere within one poll period.
 */
export function createKeyVerifier(options: KeyVerifierOptions): KeyVerifier {
  const { store, clock } = options;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const negativeMaxAgeMs = options.negativeMaxAgeMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 50_000;
  const cache = new Map<string, CacheEntry>();
  /** Every hash cached for a key id: a change of the key evicts them all, whatever the row holds now. */
  const hashesById = new Map<string, Set<string>>();
  const lastUse = new Map<string, number>();
  const stats = { hits: 0, misses: 0 };
  let watermark = 0;
  // Bumped by every eviction. A lookup that started before an eviction may have read the row
  // before the change committed, so its result answers that one request but is not cached.
  let generation = 0;
  let timers: NodeJS.Timeout[] = [];
  // The poll the timer started, if it is still running: `stop` waits for it, so a poll that
  // began before `stop` cannot evict after it.
  let polling: Promise<void> | null = null;
  let origins: Record<Environment, ReadonlySet<string>> = { production: new Set(), testing: new Set() };
  // One reload at a time; a change seen during a reload asks for one more after it.
  let reloading: Promise<void> | null = null;
  let reloadAgain = false;

  async function loadOrigins(): Promise<void> {
    const [production, testing] = await Promise.all([
      store.publishableOrigins('production'),
      store.publishableOrigins('testing'),
    ]);
    origins = { production: new Set(production), testing: new Set(testing) };
  }

  // After `stop`, nothing starts reading the store: the database is about to close, and a read
  // left in flight on a closing connection would never settle.
  let stopped = false;
  function reloadOrigins(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (reloading) {
      reloadAgain = true;
      return reloading;
    }
    reloading = (async () => {
      try {
        do {
          reloadAgain = false;
          await loadOrigins();
        } while (reloadAgain);
      } finally {
        reloading = null;
      }
    })();
    return reloading;
  }

  /** The cached entry while it is fresh (counted as a hit), else undefined. */
  function cached(keyHash: string, now: number): CacheEntry | undefined {
    const entry = cache.get(keyHash);
    if (entry && now - entry.loadedAt < (entry.key ? maxAgeMs : negativeMaxAgeMs)) {
      stats.hits += 1;
      return entry;
    }
    return undefined;
  }

  async function load(keyHash: string, now: number): Promise<KeyRecord | null> {
    stats.misses += 1;
    const startedAt = generation;
    const key = (await store.findByHash(keyHash)) ?? null;
    if (generation !== startedAt) return key;
    if (cache.size >= maxEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) drop(oldest.value);
    }
    drop(keyHash);
    cache.set(keyHash, { key, loadedAt: now });
    if (key) {
      const hashes = hashesById.get(key.id) ?? new Set<string>();
      hashes.add(keyHash);
      hashesById.set(key.id, hashes);
    }
    return key;
  }

  /** Forgets one cached hash (and its place in `hashesById`). */
  function drop(keyHash: string): void {
    const id = cache.get(keyHash)?.key?.id;
    cache.delete(keyHash);
    if (id === undefined) return;
    const hashes = hashesById.get(id);
    hashes?.delete(keyHash);
    if (hashes?.size === 0) hashesById.delete(id);
  }

  /** Forgets a key id's every cached hash, or one hash. */
  function evict(keyIdOrHash: string): void {
    for (const hash of [...(hashesById.get(keyIdOrHash) ?? [])]) drop(hash);
    drop(keyIdOrHash);
  }

  async function flushLastUse(): Promise<void> {
    if (lastUse.size === 0) return;
    const batch = new Map(lastUse);
    lastUse.clear();
    await store.recordLastUse(batch);
  }

  const report = (error: unknown) => options.onError?.(error);

  /** The checks after the record is found, in the order of ADR 0004. */
  function decide(
    key: KeyRecord | null,
    environment: Environment,
    now: number,
    keyHash: string,
  ): VerifyResult {
    if (!key) return { ok: false, code: 'api_key_invalid', reason: 'unknown' };
    // The previous secret of a rolled key (issue 15) works until its overlap ends, then is revoked.
    if (keyHash !== key.keyHash && (key.previousExpiresAt === null || key.previousExpiresAt <= now)) {
      return { ok: false, code: 'api_key_revoked' };
    }
    const refusal = keyRefusal(key, environment, now);
    if (refusal === 'api_key_wrong_environment') {
      return { ok: false, code: refusal, keyEnvironment: key.environment };
    }
    if (refusal) return { ok: false, code: refusal };
    lastUse.set(key.id, now);
    return { ok: true, key };
  }

  return {
    stats,
    verify(rawKey, environment) {
      const now = clock.now();
      const keyHash = hashApiKey(rawKey);
      const entry = cached(keyHash, now);
      // The hot path (issue #3): a raw key whose SHA-256 is that of a stored key *is* that key,
      // well-formed by construction, so its format and checksum need no second look; and a
      // cached answer is decided synchronously, with no promise.
      if (entry?.key) return decide(entry.key, environment, now, keyHash);
      const parsed = parseApiKey(rawKey);
      if (!parsed.ok) return { ok: false, code: 'api_key_invalid', reason: parsed.reason };
      if (entry) return decide(null, environment, now, keyHash);
      return load(keyHash, now).then((key) => decide(key, environment, clock.now(), keyHash));
    },
    evict(keyIdOrHash) {
      generation += 1;
      evict(keyIdOrHash);
    },
    allowsOrigin: (environment, origin) => origins[environment].has(origin),
    reloadOrigins,
    async refresh() {
      const { ids, hashes, latest } = await store.changedSince(watermark);
      if (hashes.length > 0 || ids.length > 0) generation += 1;
      for (const id of ids) evict(id);
      for (const hash of hashes) evict(hash);
      watermark = latest;
      if (hashes.length > 0) await reloadOrigins();
    },
    async start() {
      stopped = false;
      // Everything cached from now on is newer than the current counter value.
      watermark = await store.currentChangeSeq();
      await loadOrigins();
      const poll = setInterval(() => {
        if (polling) return;
        polling = this.refresh()
          .catch(report)
          .finally(() => {
            polling = null;
          });
      }, options.refreshMs);
      const flush = setInterval(() => flushLastUse().catch(report), options.lastUseFlushMs ?? 5_000);
      poll.unref();
      flush.unref();
      timers = [poll, flush];
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      await polling;
      await reloading?.catch(report);
      await flushLastUse().catch(report);
    },
  };
}
