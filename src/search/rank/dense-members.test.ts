import { describe, expect, it } from 'vitest';
import { Bitmap } from '../sets/slot-sets.js';
import { membership } from './dense-members.js';

/** dense-members.ts (ADR 0052): the same answers as the bitmap's own test, before and after the copy. */
describe('membership for a long walk', () => {
  const slots = 5_000;
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it('answers as the bitmap does once copied, and leaves nothing behind for the next walk', () => {
    const next = random(7);
    const sets = [0.01, 0.3, 0.9].map((density) => {
      const set = new Bitmap();
      for (let s = 0; s < slots; s += 1) if (next() < density) set.add(s);
      return set;
    });
    const buffer = new Int32Array(16);
    for (const set of sets) {
      // Copied after 3 tests (and a sixteenth of the members): most tests below read the copy.
      const m = membership(set, slots, buffer, 3);
      for (let i = 0; i < slots; i += 1) {
        const slot = (i * 7_919) % slots;
        expect(m.test(slot)).toBe(set.has(slot));
      }
      m.done();
    }
  });
});
