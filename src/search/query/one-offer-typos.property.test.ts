import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { within } from './one-offer-edits.js';

/** Optimal string alignment distance, every cell computed: what `within`'s band must agree with. */
function distances(typed: string, key: string): number[][] {
  const d = Array.from({ length: key.length + 1 }, (_, i) =>
    Array.from({ length: typed.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= key.length; i += 1)
    for (let j = 1; j <= typed.length; j += 1) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      let v = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + (typed[j - 1] === key[i - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && typed[j - 1] === key[i - 2] && typed[j - 2] === key[i - 1])
        v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = v;
    }
  return d;
}

/** Words over a small alphabet, so that near words are common. */
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 1, maxLength: 12 });

describe('one-offer typo reach (the banded walk)', () => {
  it('agrees with the full distance table, whole words and prefixes, budgets 0 to 2', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 2 }), (typed, key, budget) => {
        const d = distances(typed, key);
        const whole = (d[key.length] as number[])[typed.length] as number;
        const prefix = Math.min(...d.map((row) => row[typed.length] as number));
        expect(within(typed, key, budget, false)).toBe(whole <= budget);
        expect(within(typed, key, budget, true)).toBe(prefix <= budget);
      }),
      { numRuns: 20_000 },
    );
  });
});
