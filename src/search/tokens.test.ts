import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord, words } from '../offers/text.js';
import { forEachIndexWord, tokenHash } from './tokens.js';

const indexWords = (text: string) => {
  const out: string[] = [];
  forEachIndexWord(text, (w) => out.push(w));
  return out;
};

describe('index words', () => {
  it('are the words of offers/text.ts without stop words, for any text', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      maxLength: 200,
    });
    const mixed = fc.string({
      unit: fc.constantFrom('a', 'B', ' ', 'é', 'the', '-', 'Z9', 'x'.repeat(65), 'ß', '\u0301'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(ascii, mixed), (text) => {
        expect(indexWords(text)).toEqual(words(text).filter((w) => !isStopWord(w)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('index words, memoised', () => {
  it('give the same words however often a word is seen, in any case, across clears of the memo', () => {
    // More distinct words than the memo holds (it is cleared when half full), each seen twice
    // in other cases, with stop words and over-long tokens between them.
    const distinct = Array.from({ length: 150_000 }, (_, i) => `w${i.toString(36)}x`);
    const long = 'y'.repeat(64);
    for (let start = 0; start < distinct.length; start += 1000) {
      const chunk = distinct.slice(start, start + 1000);
      const text = `${chunk.join(' The ')} ${long} ${long}z ${chunk.map((w) => w.toUpperCase()).join(', ')}`;
      expect(indexWords(text)).toEqual(words(text).filter((w) => !isStopWord(w)));
    }
  });

  it('tell apart words of the same length and hash', () => {
    const byHash = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i += 1) {
      const word = `q${i.toString(36).padStart(6, '0')}`;
      const other = byHash.get(tokenHash(word));
      if (other !== undefined) pair = [other, word];
      else byHash.set(tokenHash(word), word);
    }
    const [a, b] = pair;
    expect(tokenHash(a)).toBe(tokenHash(b));
    expect(indexWords(`${a} ${b} ${b.toUpperCase()} ${a}`)).toEqual([a, b, b, a]);
  });

  it('hand over the same string for the same word (the memo is used)', () => {
    const seen: string[] = [];
    forEachIndexWord('Garden garden GARDEN', (w) => seen.push(w));
    expect(seen).toEqual(['garden', 'garden', 'garden']);
    // Same object: a copy per occurrence would be a fresh allocation each time.
    expect(new Set(seen).size).toBe(1);
  });

  it('allow a visitor to analyse another text meanwhile', () => {
    const outer: string[] = [];
    const inner: string[] = [];
    forEachIndexWord('red chair, blue table', (w) => {
      outer.push(w);
      forEachIndexWord('the Oak desk', (v) => inner.push(v));
    });
    expect(outer).toEqual(['red', 'chair', 'blue', 'table']);
    expect(inner).toEqual(Array.from({ length: 4 }, () => ['oak', 'desk']).flat());
  });
});
