import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { parseTextQuery } from '../analysis/text.js';
import type { IndexDocument, TypoTolerance } from '../engine.js';
import { createSearchIndex } from '../index/search-index.js';

/** The typo policy (`typoTolerance`, docs/search.md): one example per rule and its edges. */

const T0 = Date.UTC(2026, 0, 1);
let serial = 0;
function doc(title: string): IndexDocument {
  serial += 1;
  return textDoc(`off_${String(serial).padStart(4, '0')}`, title, T0 - serial);
}

function search(titles: string[], q: string, typoTolerance: TypoTolerance = 'auto', category?: string) {
  const index = createSearchIndex();
  const docs = titles.map(doc);
  docs.forEach((d, i) => {
    index.upsert(i === 0 && category ? { ...d, category } : d);
  });
  const byId = new Map(docs.map((d) => [d.id, d.title]));
  const result = index.search(
    engineQuery(T0, {
      text: parseTextQuery(q),
      sort: 'relevance',
      typoTolerance,
      categories: category ? [category] : [],
    }),
    ['category'],
  );
  return { titles: result.ids.map((id) => byId.get(id)).sort(), total: result.total, facets: result.facets };
}

describe('typoTolerance=auto (the default)', () => {
  const catalogue = ['iPhone 13 case', 'Phone holder', 'Cordless phone'];

  it('matches a word the index holds as typed without its typo variants: totals and facets count only those', () => {
    const found = search(catalogue, 'iphone ');
    expect(found.titles).toEqual(['iPhone 13 case']);
    expect(found.total).toBe(1);
    expect(found.facets.category).toEqual([{ value: 'misc', count: 1 }]);
    expect(search(catalogue, 'iphone ', 'all').total).toBe(3);
  });

  it('counts the stem as typed: chairs holds chair, so chair is not widened to chain', () => {
    expect(search(['Oak chairs', 'Bike chain'], 'chair ').titles).toEqual(['Oak chairs']);
  });

  it('corrects a word the index does not hold (chiars, iphnoe)', () => {
    expect(search(['Oak chairs'], 'chiars ').titles).toEqual(['Oak chairs']);
    expect(search(catalogue, 'iphnoe ').titles).toEqual(['iPhone 13 case']);
  });

  it('narrows the word being typed too when some indexed word starts with it', () => {
    expect(search(['Iphone case', 'Ipshone case'], 'iphon').titles).toEqual(['Iphone case']);
    expect(search(['Iphone case', 'Ipshone case'], 'iphon', 'all').titles).toEqual([
      'Iphone case',
      'Ipshone case',
    ]);
  });

  it('tries typo variants for every word when the query as typed matches nothing', () => {
    // "phone" and "dinning" are both held; together they match nothing until corrected.
    const titles = ['Dinning room', 'Dining table phone'];
    expect(search(titles, 'dinning phone ').titles).toEqual(['Dining table phone']);
    // Filters count: nothing in that category holds the words as typed.
    expect(search(['Iphone case', 'Phone case'], 'phone ', 'auto', 'jobs').titles).toEqual(['Iphone case']);
  });
});

describe('typoTolerance=off and all', () => {
  it('off corrects nothing, not even an unknown word or an empty result', () => {
    expect(search(['Oak chairs'], 'chiars ', 'off').titles).toEqual([]);
    expect(search(['Oak chairs'], 'chiar', 'off').titles).toEqual([]);
  });

  it('all widens a held word too (the second edition)', () => {
    expect(search(['Dinning room', 'Dining table'], 'dinning ', 'all').titles).toEqual([
      'Dining table',
      'Dinning room',
    ]);
  });

  it('keeps the budget edges: 4 letters exact, 5 and 8 one edit (not two), 9 two edits', () => {
    expect(search(['Desk lamp'], 'lamo ', 'all').titles).toEqual([]);
    expect(search(['Desk lamp'], 'lammp ', 'all').titles).toEqual(['Desk lamp']);
    expect(search(['Garden chairs'], 'chairx ', 'all').titles).toEqual(['Garden chairs']);
    expect(search(['Cabinets'], 'cabinetz ', 'all').titles).toEqual(['Cabinets']);
    expect(search(['Wardrobes'], 'wardrobze ', 'all').titles).toEqual(['Wardrobes']);
    expect(search(['Wardrobes'], 'wardrpbez ', 'all').titles).toEqual(['Wardrobes']);
    expect(search(['Wardrobes'], 'wardrbze ', 'all').titles).toEqual([]);
    expect(search(['Large refrigerator'], 'refrigaretor ', 'all').titles).toEqual(['Large refrigerator']);
    expect(search(['Large refrigerator'], 'refrigaratorrr ', 'all').titles).toEqual([]);
  });
});

describe('numbers', () => {
  it('are never corrected, in any mode: 12345 does not find 12346, nor 2020 2021', () => {
    for (const mode of ['auto', 'all', 'off'] as const) {
      expect(search(['Part 12346'], '12345 ', mode).titles).toEqual([]);
      expect(search(['Calendar 2021'], '2020 ', mode).titles).toEqual([]);
      expect(search(['Part 12346'], '12345', mode).titles).toEqual([]);
    }
    expect(search(['Part 12345'], '12345 ').titles).toEqual(['Part 12345']);
  });
});
