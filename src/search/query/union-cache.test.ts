import { describe, expect, it } from 'vitest';
import { textDoc } from '../../../test/support/engine-query.js';
import { createSearchIndex, type Index } from '../index/search-index.js';
import { releaseScratch } from '../sets/slot-sets.js';
import type { UnionField } from './union-cache.js';

const T = Date.parse('2026-11-27T00:00:00Z');

/** The kept union of these words' stems, as ids of offers (the scratch released after). */
function unionIds(index: Index, field: UnionField, words: string[]): string[] {
  const stems = words.map((w) => index.dict.stemIds.get(w) as number);
  const bits = index.unions.union(index, field, stems);
  const ids = [...bits.toArray()].map((slot) => index.ids[slot] as string).sort();
  releaseScratch();
  return ids;
}

describe('kept unions of words (ADR 0047)', () => {
  const build = () => {
    const index = createSearchIndex({ unionsFrom: 0 }) as Index;
    index.upsert(textDoc('a', 'red apple', T, 'fresh cherry'));
    index.upsert(textDoc('b', 'green cherry', T + 1));
    index.upsert(textDoc('c', 'blue car', T + 2, 'red paint'));
    return index;
  };

  it('holds every offer with one of the words, by field', () => {
    const index = build();
    expect(unionIds(index, 'word', ['red', 'cherri'])).toEqual(['a', 'b', 'c']);
    expect(unionIds(index, 'title', ['red', 'cherri'])).toEqual(['a', 'b']);
  });

  it('stays exact through writes, removals and rewrites made after it was kept', () => {
    const index = build();
    expect(unionIds(index, 'title', ['red', 'cherri'])).toEqual(['a', 'b']);
    index.upsert(textDoc('d', 'red kite', T + 3));
    index.upsert(textDoc('e', 'yellow kite', T + 4, 'red tail'));
    index.remove('b');
    // Rewritten without the word: its old slot leaves, its new one does not come in.
    index.upsert(textDoc('a', 'ripe apple', T + 5));
    expect(unionIds(index, 'title', ['red', 'cherri'])).toEqual(['d']);
    expect(unionIds(index, 'word', ['red', 'cherri'])).toEqual(['c', 'd', 'e']);
  });

  it('keeps within its bytes, the least recently used dropped first', () => {
    const small = () => {
      const index = createSearchIndex({ unionsFrom: 0, unionBytes: 1 }) as Index;
      index.upsert(textDoc('a', 'red apple', T));
      index.upsert(textDoc('b', 'green cherry', T + 1));
      return index;
    };
    const kept = (index: Index) => (index.unions as { size: number }).size;
    const first = small();
    unionIds(first, 'word', ['red']);
    unionIds(first, 'word', ['red', 'cherri']);
    const alone = small();
    unionIds(alone, 'word', ['red', 'cherri']);
    // Over the cap, only the union used last is kept.
    expect(kept(alone)).toBeGreaterThan(0);
    expect(kept(first)).toBe(kept(alone));
  });

  it('hands out a copy: changing it changes nothing kept', () => {
    const index = build();
    const stems = ['red', 'cherri'].map((w) => index.dict.stemIds.get(w) as number);
    index.unions.union(index, 'word', stems).clear();
    releaseScratch();
    expect(unionIds(index, 'word', ['red', 'cherri'])).toEqual(['a', 'b', 'c']);
  });
});
