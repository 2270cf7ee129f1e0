import { type Bits, membersOf } from '../sets/slot-sets.js';

/**
 * Membership tests for a long newest-first walk (ADR 0052). A walk over the publication order
 * tests every slot it reads against the part's bitmap: one native call each, about a third of
 * ranking a member (Tuning.rankWalkCost was 0.3), so a walk over a sparse part (1 % of the
 * slots: about a hundred steps a member) cost more than ranking the part whole and gave up at
 * once. Past `from` tests the members are copied once into a dense bitset of the slots (one bit
 * each, 128 KiB at 1M, shared and emptied after each walk): a test is then a load and a mask.
 */

let words = new Int32Array(0);
/** A walk holds the bitset (a walk inside another, if one ever ran, keeps the bitmap's test). */
let held = false;

export interface Membership {
  test(slot: number): boolean;
  /** Empties the bitset (once the walk is over). */
  done(): void;
}

/**
 * Tests of `members` (slots below `slots`), dense after `from` tests or a sixteenth of the
 * members, whichever is more (copying costs about a twentieth of a native test a member);
 * `buffer` a scratch for the copy.
 */
export function membership(members: Bits, slots: number, buffer: Int32Array, from: number): Membership {
  const after = Math.max(from, members.size / 16);
  let tests = 0;
  let dense = false;
  const length = (slots >>> 5) + 1;
  return {
    test(slot: number): boolean {
      if (dense) return ((words[slot >>> 5] as number) & (1 << (slot & 31))) !== 0;
      tests += 1;
      if (tests > after && !held) {
        held = true;
        if (words.length < length) words = new Int32Array(length);
        const all = membersOf(members, buffer);
        for (let i = 0; i < all.length; i += 1) {
          const s = all[i] as number;
          words[s >>> 5] = (words[s >>> 5] as number) | (1 << (s & 31));
        }
        dense = true;
        return ((words[slot >>> 5] as number) & (1 << (slot & 31))) !== 0;
      }
      return members.has(slot);
    },
    done(): void {
      if (dense) {
        words.fill(0, 0, length);
        held = false;
      }
      dense = false;
    },
  };
}
