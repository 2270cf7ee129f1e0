import { describe, expect, it } from 'vitest';
import { createPooledIds, createRandomBase62Pool, newId, randomBase62 } from './ids.js';

describe('random base62', () => {
  it('makes strings of the asked length from the base62 alphabet, each one different', () => {
    const random = createRandomBase62Pool(8); // a tiny pool: every few ids refill it
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      const id = random(20);
      expect(id).toMatch(/^[0-9A-Za-z]{20}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(1000);
    expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it('uses every character about equally (no modulo bias)', () => {
    const random = createRandomBase62Pool();
    const counts = new Map<string, number>();
    for (const c of random(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1000 expected per character; 6 standard deviations (~190) either side.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });
});

describe('pooled ids', () => {
  it('have the shape newId gives the same prefix, each one different', () => {
    const next = createPooledIds('msg');
    const ids = Array.from({ length: 500 }, next);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(500);
    expect(newId('msg')).toMatch(/^msg_[0-9A-Za-z]{20}$/);
  });
});
