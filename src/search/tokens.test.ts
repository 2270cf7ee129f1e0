import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord, words } from '../offers/text.js';
import { forEachIndexWord } from './tokens.js';

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
