import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idKey } from './id-keys.js';
import { rankIds } from './slot-sort.js';
import { SortedOrder } from './sorted-order.js';

/** A SortedOrder over plain arrays the test writes to (values, ids, alive flags by slot). */
function orderOver(minTail: number, nativeFrom: number, placeRatio: number) {
  const values: number[] = [];
  const ids: string[] = [];
  const alive: number[] = [];
  const order = new SortedOrder(
    () => Float64Array.from(values),
    ids,
    () => Float64Array.from(ids, idKey),
    () => Uint8Array.from(alive),
    minTail,
    nativeFrom,
    placeRatio,
  );
  return { values, ids, alive, order };
}

/**
 * The walk against a sort of the live slots, with folds forced early (minTail 0), writes and
 * whole rebuilds (a bulk load's end) in between; tails and folds sorted with the comparator or
 * natively (nativeFrom 0).
 */
describe('SortedOrder', () => {
  it('walks the live slots in (value, id) order from any cursor, both directions, across folds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            {
              weight: 6,
              arbitrary: fc.record({
                kind: fc.constant('add' as const),
                value: fc.integer({ min: 0, max: 6 }),
                // Ids that share their first code units, differ in them, end early, or go beyond
                // ASCII: each way idKey (id-keys.ts) decides or leaves it to the strings.
                prefix: fc.oneof(
                  fc.constantFrom('off_', 'off_0', 'off_00000', ''),
                  fc.string({ unit: 'binary', maxLength: 9 }),
                ),
              }),
            },
            fc.record({ kind: fc.constant('kill' as const), at: fc.nat() }),
            { weight: 1, arbitrary: fc.record({ kind: fc.constant('rebuild' as const) }) },
            fc.record({
              kind: fc.constant('walk' as const),
              descending: fc.boolean(),
              // A page, or everything from the cursor on.
              k: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(1000)),
              cursor: fc.option(fc.nat()),
            }),
          ),
          { maxLength: 200 },
        ),
        fc.constantFrom(0, 256),
        // Folds as early as can be, or late: tails grow, and slots are placed into them.
        fc.constantFrom(0, 40),
        // New slots placed into the tail whenever it holds as many, or only past 32 times as many.
        fc.constantFrom(1, 32),
        (steps, nativeFrom, minTail, placeRatio) => {
          const { values, ids, alive, order } = orderOver(minTail, nativeFrom, placeRatio);
          for (const step of steps) {
            if (step.kind === 'add') {
              values.push(step.value);
              ids.push(`${step.prefix}${String(values.length % 7).padStart(2, '0')}_${values.length}`);
              alive.push(1);
            } else if (step.kind === 'kill') {
              if (values.length > 0) alive[step.at % values.length] = 0;
            } else if (step.kind === 'rebuild') {
              const live = Int32Array.from(values.map((_, s) => s).filter((s) => alive[s] === 1));
              order.rebuild(values.length, live, rankIds(live, ids));
            } else {
              const live = values.map((_, s) => s).filter((s) => alive[s] === 1);
              const cmp = (a: number, b: number) =>
                (values[a] as number) - (values[b] as number) ||
                ((ids[a] as string) < (ids[b] as string) ? -1 : 1);
              live.sort(cmp);
              if (step.descending) live.reverse();
              let from = 0;
              let after: { value: number; id: string } | null = null;
              if (step.cursor !== null && live.length > 0) {
                const c = live[step.cursor % live.length] as number;
                after = { value: values[c] as number, id: ids[c] as string };
                from = live.indexOf(c) + 1;
              }
              const expected = live.slice(from, from + step.k);
              const got = order.walk(values.length, step.descending, after, (s) => alive[s] === 1, step.k);
              expect(got).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('SortedOrder tail', () => {
  it('places slots written between walks into the sorted tail, before, between and after its slots', () => {
    // Folds only past 10 000 pending slots: everything below stays in the tail.
    const { values, ids, alive, order } = orderOver(10_000, 256, 4);
    const byOrder = (a: number, b: number) =>
      (values[a] as number) - (values[b] as number) || ((ids[a] as string) < (ids[b] as string) ? -1 : 1);
    for (let round = 0; round < 60; round += 1) {
      const writes = round < 10 ? 8 : 1 + (round % 3);
      for (let j = 0; j < writes; j += 1) {
        values.push((round * 7 + j * 3) % 5);
        ids.push(`off_${String((round * 13 + j) % 17).padStart(2, '0')}_${values.length}`);
        alive.push(1);
      }
      const all = values.map((_, s) => s).sort(byOrder);
      expect(order.walk(values.length, false, null, () => true, 10_000)).toEqual(all);
      expect(order.walk(values.length, true, null, () => true, 10_000)).toEqual([...all].reverse());
    }
  });
});

describe('idKey', () => {
  it('orders like the strings wherever the keys differ, and never against them', () => {
    const id = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.string({ maxLength: 12 }),
      fc.string({
        unit: fc.constantFrom('o', 'f', '_', 'A', 'z', '0', '\u007f', '\u0080', '\uffff', '\u0000'),
      }),
    );
    fc.assert(
      fc.property(id, id, (a, b) => {
        const ka = idKey(a);
        const kb = idKey(b);
        if (ka < kb) expect(a < b).toBe(true);
        if (a < b) expect(ka <= kb).toBe(true);
        expect(Number.isSafeInteger(ka)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
