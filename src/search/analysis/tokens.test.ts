import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord, words } from './text.js';
import { forEachIndexWord, forEachIndexWordId, tokenHash, WordIds } from './tokens.js';

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
      unit: fc.constantFrom(
        'a',
        'B',
        ' ',
        'é',
        'the',
        '-',
        'Z9',
        'x'.repeat(65),
        'ß',
        '\u0301',
        '32',
        'gb',
        'feet',
        ' in ',
        '.',
        "'",
        '"',
        '’s',
        '5.5',
        '″',
      ),
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
    // Two words of letters only (a digit would be cut from the letters) with one hash, found
    // once by a search over pseudo-random 8-letter words (FNV-1a over 32 bits).
    const pair: [string, string] = ['qnpocbhw', 'qxaqcjrj'];
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

  it('give each index its own word ids, the same as a lookup per word, across clears of the memo', () => {
    // Two indexes' dictionaries (ids handed out in order of first sight, from bases apart) fed
    // alternately, a word common to both, more distinct words than the memo holds, and
    // non-ASCII texts (the general path) between.
    const dictionaries = [new Map<string, number>(), new Map<string, number>()];
    const idOf = (d: Map<string, number>, base: number) => (w: string) => {
      const id = d.get(w) ?? base + d.size;
      d.set(w, id);
      return id;
    };
    const ids = dictionaries.map((d, i) => new WordIds(idOf(d, i * 1_000_000)));
    const distinct = Array.from({ length: 150_000 }, (_, i) => `w${i.toString(36)}x`);
    for (let start = 0; start < distinct.length; start += 1000) {
      const chunk = distinct.slice(start, start + 1000);
      const which = (start / 1000) % 2;
      const d = dictionaries[which] as Map<string, number>;
      for (const text of [
        `${chunk.join(' The ')} ${chunk[0]?.toUpperCase()} Sofa`,
        `café ${chunk[1]} ${chunk[0]} sofa`,
      ]) {
        const got: number[] = [];
        forEachIndexWordId(text, ids[which] as WordIds, (id) => got.push(id));
        const expected = words(text)
          .filter((w) => !isStopWord(w))
          .map((w) => d.get(w));
        expect(got).toEqual(expected);
      }
    }
  });
});
