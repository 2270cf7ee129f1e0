import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery } from '../analysis/text.js';
import type { AttributeFilter, FacetRequest, IndexDocument, SearchSchema } from '../engine.js';
import { createSearchIndex, type Index } from '../index/search-index.js';
import { FEW_NUMBERS } from './columns.js';

/**
 * A number attribute of few distinct small integers (issue 23): its range is the union of the
 * sets per value and its facet counts and stats the counts of those sets among the matches; the
 * same answers as the reference's pass, up to FEW_NUMBERS values, and past them (or on a
 * fraction) the column drops its sets and tests each match again.
 */
const SCHEMA: SearchSchema = {
  attributes: [
    { name: 'year', type: 'number', facet: true, sort: true, searchable: false },
    { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
  ],
};
const T0 = Date.UTC(2026, 0, 1);
const NOW = T0 + 86_400_000;

function doc(i: number, year: unknown): IndexDocument {
  return {
    ...textDoc(`o${i}`, i % 3 === 0 ? 'oak table' : 'road bike', T0 - i * 1000),
    price: (i % 17) * 10_000,
    status: i % 11 === 0 ? 'withdrawn' : 'active',
    attributes: { ...(year === undefined ? {} : { year }), brand: i % 2 === 0 ? 'Acme' : 'Zorglub' },
  };
}

const FACETS: FacetRequest[] = ['attr.year', 'attr.brand', 'price'];
const range = (min: number | null, max: number | null, values: number[] = []): AttributeFilter[] => [
  { name: 'year', values, min, max },
];
const QUERIES = [
  engineQuery(NOW, { attributes: range(2005, 2012) }),
  engineQuery(NOW, { attributes: range(2010, null), priceMax: 80_000 }),
  engineQuery(NOW, { attributes: range(null, 2003, [1990, 2001, 2003, 2999]) }),
  engineQuery(NOW, { attributes: range(3000, 4000) }),
  engineQuery(NOW, {
    attributes: range(-5, 2020),
    text: parseTextQuery('oak '),
    sort: '-attr.year',
  }),
  engineQuery(NOW, {}),
];

function expectReference(index: Index, docs: Map<string, IndexDocument>): void {
  for (const query of QUERIES) {
    const { matchedStems: _, ...got } = index.search(query, FACETS);
    expect(got).toEqual(referenceSearch([...docs.values()], query, FACETS, SCHEMA));
  }
}

describe('a number attribute of few values', () => {
  it('filters, counts and states its stats from the sets per value, the same as the pass, through writes', () => {
    const index = createSearchIndex({}, SCHEMA) as Index;
    const docs = new Map<string, IndexDocument>();
    const put = (d: IndexDocument) => {
      index.upsert(d);
      docs.set(d.id, d);
    };
    // Years 2000–2024, some offers without one, negative and zero values among them.
    for (let i = 0; i < 400; i += 1)
      put(doc(i, i % 9 === 0 ? undefined : i % 50 === 0 ? -3 : 2000 + (i % 25)));
    put(doc(400, 0));
    const column = index.attributes.byName.get('year');
    expect(column?.few?.values.length).toBeGreaterThan(20);
    expectReference(index, docs);
    index.finishBuild();
    expectReference(index, docs);
    // Removals and updates to another value leave the sets exact.
    for (let i = 0; i < 400; i += 7) {
      index.remove(`o${i}`);
      docs.delete(`o${i}`);
    }
    for (let i = 1; i < 400; i += 13) put(doc(i, 2024 - (i % 5)));
    expect(column?.few).not.toBeNull();
    expectReference(index, docs);
  });

  it(`drops the sets past ${FEW_NUMBERS} values or on a fraction, answering the same`, () => {
    for (const extra of [Array.from({ length: FEW_NUMBERS }, (_, k) => 3000 + k), [2011.5], [2 ** 30]]) {
      const index = createSearchIndex({}, SCHEMA) as Index;
      const docs = new Map<string, IndexDocument>();
      for (let i = 0; i < 200; i += 1) {
        const d = doc(i, 2000 + (i % 20));
        index.upsert(d);
        docs.set(d.id, d);
      }
      expect(index.attributes.byName.get('year')?.few).not.toBeNull();
      extra.forEach((year, k) => {
        const d = doc(1000 + k, year);
        index.upsert(d);
        docs.set(d.id, d);
      });
      expect(index.attributes.byName.get('year')?.few).toBeNull();
      expectReference(index, docs);
    }
  });
});
