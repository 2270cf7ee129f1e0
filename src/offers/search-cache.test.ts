import { describe, expect, it } from 'vitest';
import { createSearchCache } from './search-cache.js';

const entry = (version: number, bytes = 1_000) => ({
  value: `answer at ${version}`,
  bytes,
  version,
  computedAt: 0,
  validUntil: Number.POSITIVE_INFINITY,
});

describe('search cache', () => {
  it('drops the entries of older index versions when one of a newer version is stored', () => {
    const cache = createSearchCache<string>(1024 * 1024);
    for (let i = 0; i < 10; i += 1) cache.set('testing', `q${i}`, entry(1));
    expect(cache.stats().entries).toBe(10);
    cache.set('testing', 'q0', entry(2));
    expect(cache.stats().entries).toBe(1);
    expect(cache.stats().bytes).toBe(1_000 + 2 * 2 + 200);
    expect(cache.get('testing', 'q0', 2, 0)).toBe('answer at 2');
  });

  it("keeps another environment's entries when one environment's index changes", () => {
    const cache = createSearchCache<string>(1024 * 1024);
    cache.set('production', 'q', entry(7));
    cache.set('testing', 'q', entry(1));
    cache.set('testing', 'r', entry(2));
    expect(cache.stats().entries).toBe(2);
    expect(cache.get('production', 'q', 7, 0)).toBe('answer at 7');
  });

  it('keeps the estimated bytes within its budget, least recently used out first', () => {
    const cache = createSearchCache<string>(10_000);
    for (let i = 0; i < 20; i += 1) cache.set('testing', `q${i}`, entry(1));
    const { bytes, entries } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(10_000);
    expect(entries).toBe(8);
    expect(cache.get('testing', 'q19', 1, 0)).toBe('answer at 1');
    expect(cache.get('testing', 'q0', 1, 0)).toBeUndefined();
  });
});
