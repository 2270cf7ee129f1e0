import { describe, expect, it } from 'vitest';
import { boundedCache } from './bounded-cache.js';

describe('boundedCache', () => {
  it('creates once per key, and never holds more than its bound (oldest evicted first)', () => {
    const created: string[] = [];
    const cache = boundedCache(3, (key) => {
      created.push(key);
      return key.toUpperCase();
    });
    expect([cache.get('a'), cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', 'A', 'B', 'C']);
    expect(created).toEqual(['a', 'b', 'c']);
    cache.get('d');
    expect(cache.size).toBe(3);
    cache.get('b'); // still held
    cache.get('a'); // evicted by d, created again
    expect(created).toEqual(['a', 'b', 'c', 'd', 'a']);
    for (let i = 0; i < 100; i += 1) cache.get(`k${i}`);
    expect(cache.size).toBe(3);
  });
});
