import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankIds, sortSlots } from './slot-sort.js';

/** The comparator order the native sorts replace: value, then id, then the list's order (stable). */
function byComparator(slots: number[], values: Float64Array, ids: readonly string[]): number[] {
  return [...slots].sort((a, b) => {
    const x = values[a] as number;
    const y = values[b] as number;
    if (x !== y) return x < y ? -1 : 1;
    const p = ids[a] as string;
    const q = ids[b] as string;
    return p < q ? -1 : p > q ? 1 : 0;
  });
}

// Ids sharing prefixes of every length, equal ids (a replaced offer's dead and live slots),
// characters past 8 bits, and values with many ties, −0 beside 0, ±∞ and neighbours.
const idArb = fc.oneof(
  fc.stringMatching(/^off_[ab]{0,6}$/),
  fc.stringMatching(/^off_[a-c0-9]{4,7}$/),
  fc.string({
    unit: fc.constantFrom('a', 'b', '\u0000', '\u00ff', '\u0100', '\u4e00', '\ud83d'),
    maxLength: 6,
  }),
);
const valueArb = fc.oneof(
  fc.integer({ min: 0, max: 4 }),
  fc.constantFrom(-0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5, -2),
  // Values apart only in their last bits (the packed key drops them: the comparator fixes them).
  fc.constantFrom(1, 1 + 2 ** -52, 1 + 2 ** -50, -1 - 2 ** -52, -1),
  fc.double({ noNaN: true }),
);

describe('slot sort', () => {
  it('orders any slots like the (value, id) comparator, ties and equal ids included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(valueArb, idArb, fc.boolean()), { maxLength: 300, size: 'max' }),
        (rows) => {
          const values = Float64Array.from(rows.map(([v]) => v));
          const ids = rows.map(([, id]) => id);
          // A subset of the slots, ascending: the live ones of an index, or a tail.
          const slots = rows.map((_, s) => s).filter((s) => rows[s]?.[2] === true);
          const list = Int32Array.from(slots);
          const ranks = rankIds(list, ids);
          expect([...ranks].sort((a, b) => a - b)).toEqual(slots.map((_, i) => i));
          expect([...sortSlots(list, values, ranks)]).toEqual(byComparator(slots, values, ids));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('ranks ids in string order, equal ids by their position in the list', () => {
    const ids = ['off_b', 'off_a', 'off_b', 'x', 'off_ab', 'off_a\u0100', 'off_a\u00ff'];
    const ranks = rankIds(Int32Array.from([0, 1, 2, 3, 4, 5, 6]), ids);
    expect([...ranks]).toEqual([4, 0, 5, 6, 1, 3, 2]);
  });
});
