import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery, stem } from '../analysis/text.js';
import type { EngineQuery, IndexDocument } from '../engine.js';
import { createSearchIndex, type Index, type Tuning } from '../index/search-index.js';

/**
 * The least proximity of a relevance part from the filter of stem pairs that stand next to each
 * other (ADR 0043) against the reference: `lamp` always follows `filler` in the texts (so `oak
 * lamp` is never at proximity 1 until a write puts them side by side), queries of two and three
 * words paged to the end, before and after that write.
 */

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const WORDS = ['oak', 'table', 'red', 'filler', 'lamp', 'lamps'];

const TUNINGS: Array<[string, Partial<Tuning>]> = [
  ['walks, nothing cut', { rankWalkCost: 0, proximityPartFrom: Number.POSITIVE_INFINITY }],
  // rankWalkShort 0: a walk past 8 × its need offers its part to the layers (ADR 0043 item 4).
  ['walks, parts cut', { rankWalkCost: 0, proximityPartFrom: 2, proximityPairsFrom: 3, rankWalkShort: 0 }],
  ['no filter', { rankWalkCost: 0, adjacentPairsBits: 0 }],
  ['a small filter', { rankWalkCost: 0, adjacentPairsBits: 1024 }],
];

// `lamp` and `lamps` only ever right after `filler`.
const text = fc
  .array(fc.constantFrom(...WORDS), { maxLength: 10 })
  .map((w) => w.map((word) => (word.startsWith('lamp') ? `filler ${word}` : word)).join(' '));

const docArb = (i: number): fc.Arbitrary<IndexDocument> =>
  fc
    .record({ title: text, description: text, published: fc.integer({ min: 0, max: 3 }) })
    .map((r) => textDoc(`off_${String(i).padStart(4, '0')}`, r.title, T0 + r.published * DAY, r.description));

const docsArb = fc
  .integer({ min: 20, max: 80 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => docArb(i))));

const qArb = fc.constantFrom(
  'oak lamp ',
  'oak la',
  'red oak lamp ',
  'lamp oak ',
  'table red la',
  'filler lamp ',
);

function query(q: string, limit: number): EngineQuery {
  return engineQuery(T0 + 10 * DAY, { text: parseTextQuery(q), sort: 'relevance', limit });
}

describe('adjacent stem pairs', () => {
  it('holds the pairs some text has side by side, and those of slots added since its last use', () => {
    const index = createSearchIndex({}) as Index;
    const doc = (id: string, title: string) => ({ ...docOf(id), title });
    index.upsert(doc('a', 'oak filler lamp'));
    index.upsert(doc('b', 'red table'));
    const id = (word: string) => index.dict.stemIds.get(stem(word)) as number;
    const adjoin = (a: string, b: string) => index.proximity.adjacent.mayAdjoin(index, id(a), id(b));
    expect([adjoin('oak', 'filler'), adjoin('filler', 'lamp'), adjoin('red', 'table')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([
      adjoin('oak', 'lamp'),
      adjoin('lamp', 'oak'),
      adjoin('table', 'red'),
      adjoin('lamp', 'red'),
    ]).toEqual([false, false, false, false]);
    index.upsert(doc('c', 'table oak lamp'));
    expect([adjoin('oak', 'lamp'), adjoin('table', 'oak'), adjoin('lamp', 'oak')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

function docOf(id: string): IndexDocument {
  return textDoc(id, '', T0);
}

describe.each(TUNINGS)('least proximity from adjacent pairs = reference search (%s)', (_, tuning) => {
  it('pages queries of several words to the end, before and after a write puts a pair side by side', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.array(qArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 5 }),
        (docs, qs, limit) => {
          const index = createSearchIndex(tuning);
          const live = new Map<string, IndexDocument>();
          const check = () => {
            for (const q of qs) {
              let after: EngineQuery['after'] = null;
              for (let page = 0; page < 100; page += 1) {
                const asked = { ...query(q, limit), after };
                const { matchedStems: _m, ...got } = index.search(asked, []);
                expect(got).toEqual(referenceSearch([...live.values()], asked, []));
                if (got.nextKeys === null) break;
                after = got.nextKeys;
              }
            }
          };
          for (const d of docs) {
            index.upsert(d);
            live.set(d.id, d);
          }
          check();
          // An update: the offer moves to a new slot, with `oak lamp` and `red oak` side by side.
          const first = docs[0] as IndexDocument;
          const moved = { ...first, description: `red oak lamp ${first.description}` };
          index.upsert(moved);
          live.set(moved.id, moved);
          check();
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);
});
