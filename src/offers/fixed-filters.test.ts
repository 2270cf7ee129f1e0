import { describe, expect, it } from 'vitest';
import { applyFixedFilters } from './fixed-filters.js';

describe('applyFixedFilters (issue 16)', () => {
  const filters = { category: ['books', 'music'], tag: ['used'], country: 'FR' };

  it('fills in what the request leaves open and adds the key’s tags', () => {
    expect(applyFixedFilters({ tag: ['signed'] }, filters)).toEqual({
      ok: true,
      query: { category: ['books', 'music'], tag: ['signed', 'used'], country: 'FR' },
    });
  });

  it('lets a request narrow: a subset of categories, the same country in any case', () => {
    expect(applyFixedFilters({ category: ['music'], country: 'fr' }, filters)).toEqual({
      ok: true,
      query: { category: ['music'], tag: ['used'], country: 'fr' },
    });
  });

  it('refuses to widen, naming each parameter with the prefix of a multi-search query', () => {
    expect(
      applyFixedFilters({ category: ['music', 'garden'], country: 'DE' }, filters, 'queries[2].'),
    ).toEqual({
      ok: false,
      errors: [
        { parameter: 'queries[2].category', message: 'this key searches only category books, music' },
        { parameter: 'queries[2].country', message: 'this key searches only country FR' },
      ],
    });
  });

  it('changes nothing without filters', () => {
    const query = { category: ['garden'], city: 'Lyon' };
    expect(applyFixedFilters(query, {})).toEqual({ ok: true, query });
  });

  it('fixes declared attributes (issue 23): fills them in, lets a request ask for a subset, folded', () => {
    const byBrand = { attributes: { brand: ['Acme', 'Zorg Co'] } };
    expect(applyFixedFilters({}, byBrand)).toEqual({
      ok: true,
      query: { 'attr.brand': ['Acme', 'Zorg Co'] },
    });
    expect(applyFixedFilters({ 'attr.brand': 'ACME' }, byBrand)).toEqual({
      ok: true,
      query: { 'attr.brand': 'ACME' },
    });
    expect(applyFixedFilters({ 'attr.brand': ['acme', 'other'] }, byBrand, 'queries[0].')).toEqual({
      ok: false,
      errors: [
        { parameter: 'queries[0].attr.brand', message: 'this key searches only attr.brand Acme, Zorg Co' },
      ],
    });
  });
});
