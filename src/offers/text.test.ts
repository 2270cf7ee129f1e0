import { describe, expect, it } from 'vitest';
import { analyseField, parseTextQuery, words } from './text.js';

describe('text analysis', () => {
  it('folds case and diacritics and splits on punctuation', () => {
    expect(words('Café-Bar, MÜNCHEN 2019!')).toEqual(['cafe', 'bar', 'munchen', '2019']);
  });

  it('stems, drops stop words and keeps unstemmed forms for prefix search', () => {
    expect(analyseField('The running shoes of a champion')).toEqual({
      stems: ['run', 'shoe', 'champion'],
      words: ['running', 'shoes'],
    });
  });

  it('treats the last word as a prefix unless the query ends in a space', () => {
    expect(parseTextQuery('red bicycles')).toEqual({ terms: ['red'], prefix: 'bicycles' });
    expect(parseTextQuery('red bicycles ')).toEqual({ terms: ['red', 'bicycl'], prefix: null });
    expect(parseTextQuery('b')).toEqual({ terms: ['b'], prefix: null });
  });

  it('returns null for punctuation and stop words only', () => {
    expect(parseTextQuery('!!! ...')).toBeNull();
    expect(parseTextQuery('the and of')).toBeNull();
    expect(parseTextQuery('')).toBeNull();
  });
});
