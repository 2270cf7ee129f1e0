import { describe, expect, it } from 'vitest';
import { createSearchCache, DOORKEEPER_KEYS, type SearchCache } from './search-cache.js';

const entry = (version: number) => ({
  value: `answer at ${version}`,
  version,
  computedAt: 0,
  validUntil: Number.POSITIVE_INFINITY,
});

/** An answer computed twice, as the cache keeps it (the first computation only marks its key). */
const store = (cache: SearchCache<string>, key: string, e: ReturnType<typeof entry>) => {
  cache.set('testing', key, e);
  cache.set('testing', key, e);
};

describe('search cache', () => {
  it("keeps an answer from its query's second computation, not its first", () => {
    const cache = createSearchCache<string>(1024 * 1024, () => 1_000);
    cache.set('testing', 'q', entry(1));
    expect(cache.get('testing', 'q', 1, 0)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0, declined: 1 });
    cache.set('testing', 'q', entry(1));
    expect(cache.get('testing', 'q', 1, 0)).toBe('answer at 1');
    // The key, not the answer: computed again at a newer index version, it is kept at once.
    cache.set('testing', 'q', entry(2));
    expect(cache.get('testing', 'q', 2, 0)).toBe('answer at 2');
    // Per environment: the same query in production is a first computation there.
    cache.set('production', 'q', entry(1));
    expect(cache.get('production', 'q', 1, 0)).toBeUndefined();
  });

  it('holds nothing under searches that never repeat, and forgets its marks after many keys', () => {
    const cache = createSearchCache<string>(1024 * 1024, () => 1_000);
    for (let i = 0; i < DOORKEEPER_KEYS; i += 1) cache.set('testing', `never ${i}`, entry(1));
    const { entries, declined } = cache.stats();
    // A Bloom filter's false positives only: a few keys of 100 000 let in on their first computation.
    expect(entries).toBeLessThan(DOORKEEPER_KEYS / 200);
    expect(declined).toBe(DOORKEEPER_KEYS - entries);
    // Marked before the reset, then DOORKEEPER_KEYS other keys: `again` is new to the doorkeeper.
    cache.set('testing', 'again', entry(1));
    for (let i = 0; i <= DOORKEEPER_KEYS; i += 1) cache.set('testing', `other ${i}`, entry(1));
    const before = cache.stats().declined;
    cache.set('testing', 'again', entry(1));
    expect(cache.stats().declined).toBe(before + 1);
  });

  it('drops the entries of older index versions when one of a newer version is stored', () => {
    const cache = createSearchCache<string>(1024 * 1024, () => 1_000);
    for (let i = 0; i < 10; i += 1) store(cache, `q${i}`, entry(1));
    expect(cache.stats().entries).toBe(10);
    cache.set('testing', 'q0', entry(2));
    expect(cache.stats().entries).toBe(1);
    expect(cache.stats().bytes).toBe(1_000 + 2 * 2 + 200);
    expect(cache.get('testing', 'q0', 2, 0)).toBe('answer at 2');
  });

  it("keeps another environment's entries when one environment's index changes", () => {
    const cache = createSearchCache<string>(1024 * 1024, () => 1_000);
    cache.set('production', 'q', entry(7));
    cache.set('production', 'q', entry(7));
    store(cache, 'q', entry(1));
    store(cache, 'r', entry(2));
    expect(cache.stats().entries).toBe(2);
    expect(cache.get('production', 'q', 7, 0)).toBe('answer at 7');
  });

  it('keeps the estimated bytes within its budget, least recently used out first', () => {
    const cache = createSearchCache<string>(10_000, () => 1_000);
    for (let i = 0; i < 20; i += 1) store(cache, `q${i}`, entry(1));
    const { bytes, entries } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(10_000);
    expect(entries).toBe(8);
    expect(cache.get('testing', 'q19', 1, 0)).toBe('answer at 1');
    expect(cache.get('testing', 'q0', 1, 0)).toBeUndefined();
  });

  it('sizes only the answers it keeps', () => {
    const sized: string[] = [];
    const cache = createSearchCache<string>(1024 * 1024, (value) => {
      sized.push(value);
      return 1_000;
    });
    for (let i = 0; i < 100; i += 1) cache.set('testing', `once ${i}`, entry(1));
    expect(sized.length).toBe(cache.stats().entries); // the doorkeeper's rare false positives only
    cache.set('testing', 'twice', entry(1));
    cache.set('testing', 'twice', entry(1));
    expect(sized.length).toBe(cache.stats().entries);
    expect(cache.get('testing', 'twice', 1, 0)).toBe('answer at 1');
  });
});
