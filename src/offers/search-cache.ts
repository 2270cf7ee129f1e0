import type { Environment } from '../platform/environment.js';
import { fnv1a } from '../search/hash.js';

/**
 * Answers of recent searches, kept while they are still exactly right (issue 12, ADR 0025).
 *
 * An answer depends on the index's contents and on `now` (an active offer past its expiry counts
 * as expired). So each entry records the index version it was computed on and the first moment
 * after its `now` at which any offer's effective status changes; a lookup with another version,
 * at or past that moment, or at an earlier `now` (a clock moved back) misses. Exact by
 * construction, unlike a cache with a time to live: a hit is the answer a fresh search would give.
 *
 * Bounded by an estimate of the bytes held, least recently used first out. An answer stored at a
 * newer index version than the last one stored for its environment drops that environment's
 * older entries: a lookup is always at the current version, so they could never be hit again, and
 * under a stream of writes they would otherwise hold the whole budget until pushed out (issue 26).
 * Entries are shared between responses: never modify what `get` returns.
 *
 * An answer is kept only from its second computation (ADR 0050): the first one only marks its key
 * in a small Bloom filter, the doorkeeper. Most searches are never sent twice (a user typing, a
 * crawl, a filter combination of one visit); kept, they filled the whole budget with answers no
 * lookup would hit and pushed out the ones that repeat. A search that repeats costs one more
 * computation before it is served from here. The doorkeeper forgets everything once it has marked
 * `DOORKEEPER_KEYS` keys, so a false "seen before" (one in a few hundred keys at most) stays rare.
 */
export interface SearchCache<T> {
  get(environment: Environment, key: string, version: number, now: number): T | undefined;
  set(
    environment: Environment,
    key: string,
    entry: { value: T; version: number; computedAt: number; validUntil: number },
  ): void;
  stats(): SearchCacheStats;
}

export interface SearchCacheStats {
  hits: number;
  misses: number;
  /** Answers not kept: their key's first computation since the doorkeeper's last reset. */
  declined: number;
  entries: number;
  bytes: number;
}

interface Entry<T> {
  value: T;
  bytes: number;
  version: number;
  computedAt: number;
  validUntil: number;
}

/** Per-entry bookkeeping on top of the value's own estimate (the key, the Map slot, the entry object). */
const ENTRY_OVERHEAD = 200;

/** The doorkeeper's bits (256 KiB) and how many keys it marks before it starts again empty. */
const DOORKEEPER_BITS = 2 ** 21;
export const DOORKEEPER_KEYS = 100_000;

/**
 * Whether a key was marked since the last reset, marking it (a Bloom filter of three probes by
 * double hashing two 32-bit hashes of the key's UTF-16 units: FNV-1a and a multiply-xor hash).
 * False positives only, never a false negative.
 */
function createDoorkeeper() {
  const bits = new Uint32Array(DOORKEEPER_BITS / 32);
  let marked = 0;
  return (key: string): boolean => {
    const a = fnv1a(key);
    let b = 0x9747b28c;
    for (let i = 0; i < key.length; i += 1) {
      b = Math.imul(b ^ key.charCodeAt(i), 0x5bd1e995);
      b ^= b >>> 15;
    }
    b |= 1; // odd: the probes walk the whole power-of-two table
    let seen = true;
    for (let probe = 0; probe < 3; probe += 1) {
      const bit = (a + probe * b) & (DOORKEEPER_BITS - 1);
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      if (((bits[word] as number) & mask) === 0) {
        seen = false;
        bits[word] = (bits[word] as number) | mask;
      }
    }
    if (!seen) {
      marked += 1;
      if (marked > DOORKEEPER_KEYS) {
        bits.fill(0);
        marked = 0;
      }
    }
    return seen;
  };
}

/**
 * `sizeOf` estimates the bytes a value holds; it is asked only for the answers the cache keeps
 * (most first computations are declined, and sizing an answer is ~1 % of computing it).
 */
export function createSearchCache<T>(maxBytes: number, sizeOf: (value: T) => number): SearchCache<T> {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least
  // recently used.
  const entries = new Map<string, Entry<T>>();
  /** The index version of the entries last stored, per environment. */
  const versions = new Map<Environment, number>();
  const seenBefore = createDoorkeeper();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let declined = 0;

  const drop = (key: string, entry: Entry<T>) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };

  return {
    get(environment, key, version, now) {
      const k = `${environment}\n${key}`;
      const entry = entries.get(k);
      if (entry === undefined) {
        misses += 1;
        return undefined;
      }
      if (entry.version !== version || now < entry.computedAt || now >= entry.validUntil) {
        drop(k, entry);
        misses += 1;
        return undefined;
      }
      entries.delete(k);
      entries.set(k, entry);
      hits += 1;
      return entry.value;
    },
    set(environment, key, entry) {
      if (maxBytes <= 0) return;
      if (versions.get(environment) !== entry.version) {
        versions.set(environment, entry.version);
        const prefix = `${environment}\n`;
        for (const [k, e] of entries) if (e.version !== entry.version && k.startsWith(prefix)) drop(k, e);
      }
      const k = `${environment}\n${key}`;
      if (!seenBefore(k)) {
        declined += 1;
        return;
      }
      const size = sizeOf(entry.value) + key.length * 2 + ENTRY_OVERHEAD;
      if (size > maxBytes / 8) return; // one answer never takes over the cache
      const old = entries.get(k);
      if (old) drop(k, old);
      entries.set(k, { ...entry, bytes: size });
      bytes += size;
      for (const [oldest, e] of entries) {
        if (bytes <= maxBytes) break;
        drop(oldest, e);
      }
    },
    stats: () => ({ hits, misses, declined, entries: entries.size, bytes }),
  };
}
