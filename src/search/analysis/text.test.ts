import { describe, expect, it } from 'vitest';
import { analyseField, parseTextQuery, typoCandidates, words } from './text.js';
import { catalogueWords } from './text-rules.js';

const term = (word: string, s = word) => ({ word, stems: [s] });

describe('text analysis', () => {
  it('folds case and diacritics and splits on punctuation', () => {
    // A hyphenated word is its parts, then the parts joined after the text's other words.
    expect(words('Café-Bar, MÜNCHEN 2019!')).toEqual(['cafe', 'bar', 'munchen', '2019', 'cafebar']);
  });

  it('gives plain ASCII text (its fast path) the same words as the full Unicode folding', () => {
    const unicodeWords = (text: string) =>
      catalogueWords(
        text
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
        false,
      ).filter((w) => w.length > 0 && w.length <= 64);
    let ascii = '';
    for (let code = 0; code < 128; code += 1) ascii += `x${String.fromCharCode(code)}Y${code}`;
    for (const text of [ascii, 'Oak desk, 120×60', 'A_B-c.d/e\tf\ng', `${'a'.repeat(65)} ok`, '']) {
      expect(words(text)).toEqual(unicodeWords(text));
    }
  });

  it('stems, drops stop words and keeps unstemmed forms for prefix search', () => {
    expect(analyseField('The running shoes of a champion')).toEqual({
      stems: ['run', 'shoe', 'champion'],
      words: ['running', 'shoes'],
    });
  });

  it('treats the last word as a prefix unless the query ends in a space', () => {
    expect(parseTextQuery('red bicycles')).toEqual({
      terms: [term('red')],
      prefix: 'bicycles',
      phrases: [],
      excluded: [],
    });
    expect(parseTextQuery('red bicycles ')).toEqual({
      terms: [term('red'), term('bicycles', 'bicycl')],
      prefix: null,
      phrases: [],
      excluded: [],
    });
    expect(parseTextQuery('b')).toEqual({ terms: [term('b')], prefix: null, phrases: [], excluded: [] });
  });

  it('reads quoted phrases and excluded words and phrases', () => {
    expect(parseTextQuery('"dining chairs" -oak -"for kids" lamp')).toEqual({
      terms: [],
      prefix: 'lamp',
      phrases: [['dine', 'chair']],
      excluded: [['oak'], ['kid']],
    });
    // A one-word phrase is a word; an unclosed quote is punctuation; a lone minus is nothing.
    expect(parseTextQuery('"chairs" "desk - ')).toEqual({
      terms: [term('chairs', 'chair'), term('desk')],
      prefix: null,
      phrases: [],
      excluded: [],
    });
    // A hyphen inside a word does not exclude.
    expect(parseTextQuery('e-bike ')?.excluded).toEqual([]);
  });

  it('keeps a query of only exclusions, and drops stop words inside phrases', () => {
    expect(parseTextQuery('-lamp')).toEqual({ terms: [], prefix: null, phrases: [], excluded: [['lamp']] });
    expect(parseTextQuery('"table from a cafe"')?.phrases).toEqual([['tabl', 'cafe']]);
  });

  it('returns null for punctuation and stop words only', () => {
    expect(parseTextQuery('!!! ...')).toBeNull();
    expect(parseTextQuery('the and of')).toBeNull();
    expect(parseTextQuery('')).toBeNull();
    expect(parseTextQuery('"the" -"of"')).toBeNull();
  });

  it('lists the stems one edit away from a word', () => {
    const candidates = typoCandidates('chiars');
    expect(candidates).toContain('chair'); // transposition, then stemmed
    expect(typoCandidates('lamb')).toContain('lamp'); // substitution
    expect(typoCandidates('lamp')).not.toContain('lamp');
    expect(typoCandidates('bicyles')).toContain('bicycl'); // insertion
  });
});
