import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery } from '../analysis/text.js';
import { type EngineQuery, type IndexDocument, NO_ATTRIBUTES, type SearchSchema } from '../engine.js';
import { createSearchIndex, type Tuning } from '../index/search-index.js';

/**
 * Relevance parts cut by the proximity of their word pairs (ADR 0040) against the reference:
 * texts of a few words at every distance from each other, in both orders, queries of two and
 * three words (the last one a prefix or not) paged to the end, with writes after the layers
 * were first read (an entry then reads the new slots on its next use); without and with a
 * searchable attribute of the same words (ADR 0042: the parts' three sides of the attribute rule).
 */

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const WORDS = ['oak', 'table', 'desk', 'lamp', 'red', 'filler', 'other', 'tables'];

const TUNINGS: Array<[string, Partial<Tuning>]> = [
  ['every pair read from the text', { proximityPartFrom: 0, proximityPairsFrom: Number.POSITIVE_INFINITY }],
  ['every pair kept', { proximityPartFrom: 0, proximityPairsFrom: 0 }],
  ['every pair kept, none for long', { proximityPartFrom: 0, proximityPairsFrom: 0, proximityBytes: 0 }],
  ['kept from 3 offers, walks everywhere', { proximityPartFrom: 2, proximityPairsFrom: 3, rankWalkCost: 0 }],
  // A walk past 8 × its need offers its part to the layers of pairs needed before (ADR 0043).
  ['walks cut early', { proximityPartFrom: 2, proximityPairsFrom: 3, rankWalkCost: 0, rankWalkShort: 0 }],
];

const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' '));

const docArb = (i: number): fc.Arbitrary<IndexDocument> =>
  fc
    .record({
      title: text,
      description: text,
      material: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }).map((w) => w.join(' ')),
      published: fc.integer({ min: 0, max: 3 }),
    })
    .map((r) => ({
      ...textDoc(`off_${String(i).padStart(4, '0')}`, r.title, T0 + r.published * DAY, r.description),
      attributes: { material: r.material },
    }));

const SCHEMAS: Array<[string, SearchSchema]> = [
  ['no searchable attribute', NO_ATTRIBUTES],
  [
    'a searchable attribute',
    { attributes: [{ name: 'material', type: 'string', facet: false, sort: false, searchable: true }] },
  ],
];

const docsArb = fc
  .integer({ min: 20, max: 90 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => docArb(i))));

const qArb = fc.constantFrom(
  'oak table ',
  'table oak ',
  'oak ta',
  'red oak desk ',
  'lamp red ta',
  'desk desk ',
  'oak lamp',
);

function query(q: string, limit: number): EngineQuery {
  return engineQuery(T0 + 10 * DAY, { text: parseTextQuery(q), sort: 'relevance', limit });
}

describe.each(
  TUNINGS.flatMap(([name, tuning]) =>
    SCHEMAS.map(([declared, schema]) => [`${name}, ${declared}`, tuning, schema] as const),
  ),
)('proximity parts = reference search (%s)', (_, tuning, schema) => {
  it('pages queries of several words to the end, before and after writes', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.array(qArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 6 }),
        (docs, qs, limit) => {
          const index = createSearchIndex(tuning, schema);
          const live = new Map<string, IndexDocument>();
          const half = docs.length >> 1;
          const check = () => {
            for (const q of qs) {
              let after: EngineQuery['after'] = null;
              for (let page = 0; page < 100; page += 1) {
                const asked = { ...query(q, limit), after };
                const { matchedStems: _m, ...got } = index.search(asked, []);
                expect(got).toEqual(referenceSearch([...live.values()], asked, [], schema));
                if (got.nextKeys === null) break;
                after = got.nextKeys;
              }
            }
          };
          for (const d of docs.slice(0, half)) {
            index.upsert(d);
            live.set(d.id, d);
          }
          check();
          for (const d of docs.slice(half)) {
            index.upsert(d);
            live.set(d.id, d);
          }
          // An update: the offer moves to a new slot, its old one dead.
          const first = docs[0] as IndexDocument;
          const moved = { ...first, title: `oak table ${first.title}` };
          index.upsert(moved);
          live.set(moved.id, moved);
          check();
        },
      ),
      { numRuns: 60 },
    );
  }, 300_000);
});
