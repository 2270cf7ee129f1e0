import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import type { IndexDocument, TypoTolerance } from '../engine.js';
import { createSearchIndex } from '../index/search-index.js';
import { highlight } from './highlight.js';
import { parseTextQuery, words } from './text.js';

/** The catalogue rules of text analysis (docs/search.md), one example each, with their edges. */

const T0 = Date.UTC(2026, 0, 1);
let serial = 0;
function doc(title: string): IndexDocument {
  serial += 1;
  return textDoc(`off_${String(serial).padStart(4, '0')}`, title, T0 - serial);
}

/** Titles found for `q` among `titles`, in relevance order. */
function found(titles: string[], q: string, typoTolerance: TypoTolerance = 'auto'): string[] {
  const index = createSearchIndex();
  const docs = titles.map(doc);
  for (const d of docs) index.upsert(d);
  const byId = new Map(docs.map((d) => [d.id, d.title]));
  const text = parseTextQuery(q);
  const result = index.search(engineQuery(T0, { text, sort: 'relevance', typoTolerance, limit: 100 }), []);
  return result.ids.map((id) => byId.get(id) as string);
}

const sorted = (xs: string[]) => [...xs].sort();

describe('numbers', () => {
  it('are words of their own, cut from letters glued to them: 32gb ≡ 32 gb, both ways', () => {
    const catalogue = ['SanDisk 32GB card', 'Card 32 GB', 'Card 64GB', 'Card 320GB'];
    for (const q of ['32gb ', '32 gb ', '32GB', '32 GB'])
      expect(sorted(found(catalogue, q)), q).toEqual(['Card 32 GB', 'SanDisk 32GB card']);
    expect(words('PS5 u2720q')).toEqual(['ps', '5', 'u', '2720', 'q']);
  });

  it('keep a decimal whole: 5.5 inch does not find 5 inch', () => {
    expect(found(['Phone 5.5 inch', 'Phone 5 inch', 'Knife 5 in 5 parts'], '5.5 inch ')).toEqual([
      'Phone 5.5 inch',
    ]);
    expect(words('v2.0, 1.2.3 and e.g. end.')).toEqual(['v', '2.0', '1.2.3', 'and', 'e', 'g', 'end']);
  });

  it('are never corrected: 32 does not find 33, nor 12345 12346', () => {
    expect(found(['Card 33 GB'], '32 gb ', 'all')).toEqual([]);
    expect(found(['Part 12346'], '12345 ', 'all')).toEqual([]);
  });

  it('while typing, a letter just glued to a number is not yet required (32g finds 32GB)', () => {
    expect(parseTextQuery('32g')).toEqual({ terms: [], prefix: '32', phrases: [], excluded: [] });
    expect(found(['SanDisk 32GB card'], '32g')).toEqual(['SanDisk 32GB card']);
  });
});

describe('units after a number', () => {
  it("6' ≡ 6ft ≡ 6 ft ≡ 6 feet ≡ 6 foot", () => {
    const catalogue = [
      "Ladder 6'",
      'Cable 6ft',
      'Table 6 ft',
      'Tree 6 feet',
      'Sofa 6 foot',
      'Cable 3ft',
      'Feet warmer 6',
    ];
    for (const q of ["6' ", '6ft ', '6 ft ', '6 feet ', '6 foot ', '6FT'])
      expect(sorted(found(catalogue, q)), q).toEqual([
        'Cable 6ft',
        "Ladder 6'",
        'Sofa 6 foot',
        'Table 6 ft',
        'Tree 6 feet',
      ]);
  });

  it('55" ≡ 55 in ≡ 55 inch ≡ 55 inches (and 55″), but 3 in 1 is no inch', () => {
    const catalogue = [
      'TV 55"',
      'TV 55 in',
      'TV 55-Inch',
      'TV 55 Inches',
      'TV 55″',
      'TV 65"',
      'Charger 55 in 1',
    ];
    for (const q of ['55" ', '55 in ', '55 inch ', '55inches ', '55-inch '])
      expect(sorted(found(catalogue, q)), q).toEqual([
        'TV 55 Inches',
        'TV 55 in',
        'TV 55"',
        'TV 55-Inch',
        'TV 55″',
      ]);
    expect(words('3-in-1 charger, 3 in 1')).toEqual(['3', 'in', '1', 'charger', '3', 'in', '1']);
  });

  it('a quote mark closing a phrase after a number is no inch mark: "iphone 13" is a phrase', () => {
    expect(parseTextQuery('"iphone 13"')?.phrases).toEqual([['iphon', '13']]);
    expect(found(['Apple iPhone 13 case', 'iPhone 12 with 13 cases'], '"iphone 13"')).toEqual([
      'Apple iPhone 13 case',
    ]);
    // After a closed phrase, a quote mark after a number is inches again.
    const tvs = ['Smart TV 55"', 'Smart TV 55 inch', 'Smart TV 65"'];
    expect(sorted(found(tvs, '"smart tv" 55" '))).toEqual(['Smart TV 55 inch', 'Smart TV 55"']);
  });

  it('a quoted phrase holding a hyphenated word matches it where the offer has its parts', () => {
    const catalogue = ['USB-C cable 1m', 'USB cable for C ports', 'Cable USB-C'];
    expect(found(catalogue, '"usb-c cable"')).toEqual(['USB-C cable 1m']);
  });

  it('1tb ≡ 1 terabyte, 32gb ≡ 32 gigabytes; a unit word without a number stays a word', () => {
    expect(sorted(found(['SSD 1TB', 'SSD 1 terabyte', 'SSD 2TB'], '1 terabyte '))).toEqual([
      'SSD 1 terabyte',
      'SSD 1TB',
    ]);
    expect(found(['Card 32GB'], '32 gigabytes ')).toEqual(['Card 32GB']);
    expect(words('a foot of snow, feet')).toEqual(['a', 'foot', 'of', 'snow', 'feet']);
  });
});

describe('compound words', () => {
  it('two adjacent query words also match their concatenation: otter box finds OtterBox', () => {
    expect(
      sorted(found(['OtterBox Defender', 'Otter Box case', 'Otter plush', 'Lunch box'], 'otter box ')),
    ).toEqual(['Otter Box case', 'OtterBox Defender']);
    // While the second is typed, too.
    expect(found(['OtterBox Defender'], 'otter bo')).toEqual(['OtterBox Defender']);
  });

  it('a query word also matches an indexed hyphenated or split pair: tshirt finds T-Shirt and T Shirt', () => {
    const catalogue = ['Cotton T-Shirt', 'Cotton T Shirt', 'Cotton Tshirt', 'Flannel shirt'];
    expect(sorted(found(catalogue, 'tshirt '))).toEqual([
      'Cotton T Shirt',
      'Cotton T-Shirt',
      'Cotton Tshirt',
    ]);
    expect(sorted(found(catalogue, 't-shirt '))).toEqual([
      'Cotton T Shirt',
      'Cotton T-Shirt',
      'Cotton Tshirt',
    ]);
    expect(found(['Men smart watch band', 'Smart phone watch'], 'smartwatch ')).toEqual([
      'Men smart watch band',
    ]);
  });

  it('usb-c ≡ usb c ≡ usbc', () => {
    const catalogue = ['Cable USB-C', 'Cable USB C', 'Cable USBC', 'Cable USB A'];
    for (const q of ['usb-c ', 'usbc ', 'usb c '])
      expect(sorted(found(catalogue, q)), q).toEqual(['Cable USB C', 'Cable USB-C', 'Cable USBC']);
  });

  it('counts as exact, one rank below the words as typed', () => {
    // Newest first among equals would put the older "Tshirt" last without the exactness rule.
    expect(found(['Cotton T Shirt', 'Cotton Tshirt'], 'tshirt ')).toEqual([
      'Cotton Tshirt',
      'Cotton T Shirt',
    ]);
    expect(found(['Otterbox case', 'Otter box case'], 'otter box ')).toEqual([
      'Otter box case',
      'Otterbox case',
    ]);
  });

  it('a hyphen at the start of a word excludes it; at its end it is ignored', () => {
    expect(found(['USB hub', 'USB-C hub'], 'usb -usbc ')).toEqual(['USB hub']);
    expect(found(['USB hub', 'USB-C hub'], 'usb- ').length).toBe(2);
    expect(words('-bike e- -')).toEqual(['bike', 'e']);
  });
});

describe('possessives and apostrophes', () => {
  it("men's is men, and an apostrophe at the end goes (kids')", () => {
    expect(words("Men's Kids' O'Neill's")).toEqual(['men', 'kids', 'oneill']);
    expect(sorted(found(["Men's watch band", 'Mens band', "Women's band"], "men's band "))).toEqual([
      "Men's watch band",
      'Mens band',
    ]);
    expect(found(["Kids' coat"], 'kids ')).toEqual(["Kids' coat"]);
  });

  it("o'neill matches oneill and o neill", () => {
    const catalogue = ["O'Neill hoodie", 'ONeill jacket', 'O Neill shorts', 'Neill shirt'];
    for (const q of ["o'neill ", 'oneill ', 'o neill '])
      expect(sorted(found(catalogue, q)), q).toEqual(['O Neill shorts', "O'Neill hoodie", 'ONeill jacket']);
  });

  it('a query never requires a one-letter word it produced by splitting', () => {
    expect(parseTextQuery("men's smartwatch band ")?.terms.map((t) => t.word)).toEqual([
      'men',
      'smartwatch',
      'band',
    ]);
    expect(parseTextQuery('t-shirt ')?.terms.map((t) => t.word)).toEqual(['tshirt']);
  });
});

describe('highlighting', () => {
  it('marks the whole catalogue word a rule matched', () => {
    const q = parseTextQuery('tshirt 32 gb ') ?? undefined;
    if (!q) throw new Error('query');
    const marked = highlight({ title: 'Cotton T-Shirt, 32GB', description: '' }, q, ['tshirt', '32', 'gb']);
    expect(marked.title).toBe('Cotton <mark>T-Shirt</mark>, <mark>32GB</mark>');
  });

  it('marks only what the typo policy matched: iphone does not mark phone under auto', () => {
    const index = createSearchIndex();
    index.upsert(doc('iPhone 13 phone case'));
    const q = parseTextQuery('iphone ');
    if (!q) throw new Error('query');
    const result = index.search(engineQuery(T0, { text: q, sort: 'relevance' }), []);
    const marked = highlight({ title: 'iPhone 13 phone case', description: '' }, q, result.matchedStems);
    expect(marked.title).toBe('<mark>iPhone</mark> 13 phone case');
  });
});
