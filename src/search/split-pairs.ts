import type { Dictionary } from './dictionary.js';
import type { Index } from './search-index.js';
import { type Bits, membersOf, scratch } from './slot-sets.js';

/**
 * Compound words, the other way round from plan.ts `joinNeighbours`: a typed word also matches
 * two indexed words, one right after the other in one field, that it is made of (`smartwatch`
 * finds "smart watch", `oneill` finds "O Neill", `tshirt` finds "T Shirt"). Both parts must be
 * words some offer holds; the pair is matched by their stems (`smartwatches` also finds "smart
 * watches"), as typed (no typo), and counts as a match of the word, though not an exact one.
 */

/** A split of a typed word: the stems of its two parts. */
export type Pair = readonly [number, number];

const DIGIT = /[0-9]/;

/** Every split of `typed` into two words live offers hold. */
export function splitPairs(dict: Dictionary, typed: string): Pair[] {
  if (DIGIT.test(typed)) return [];
  const pairs: Pair[] = [];
  const live = (w: string) => {
    const id = dict.wordIds.get(w);
    return id !== undefined && (dict.wordDocs.data[id] as number) > 0
      ? (dict.wordStem.data[id] as number)
      : -1;
  };
  for (let i = 1; i < typed.length; i += 1) {
    const a = live(typed.slice(0, i));
    if (a < 0) continue;
    const b = live(typed.slice(i));
    if (b >= 0) pairs.push([a, b]);
  }
  return pairs;
}

/** Whether a pair starts at position `p` of a field ending at `to`. */
export function pairAt(
  text: Uint16Array | Int32Array,
  wordStem: Int32Array,
  p: number,
  to: number,
  pairs: readonly Pair[],
): boolean {
  if (p + 1 >= to) return false;
  const first = wordStem[text[p] as number];
  const second = wordStem[text[p + 1] as number];
  for (const [a, b] of pairs) if (first === a && second === b) return true;
  return false;
}

/** The offers holding a pair in one field (`any`), and in the title (`title`). */
export function pairSets(ix: Index, pairs: readonly Pair[]): { any: Bits; title: Bits } {
  const any = scratch();
  const title = scratch();
  const text = ix.text.data;
  const wordStem = ix.dict.wordStem.data;
  const offsets = ix.textOffsets.data;
  for (const [a, b] of pairs) {
    const candidates = holders(ix, a).andInPlace(holders(ix, b));
    for (const slot of membersOf(candidates, ix.scratchMembers())) {
      const start = offsets[2 * slot] as number;
      const middle = offsets[2 * slot + 1] as number;
      const end = offsets[2 * slot + 2] as number;
      for (let p = start; p < end; p += 1) {
        if (!pairAt(text, wordStem, p, p < middle ? middle : end, [[a, b]])) continue;
        any.add(slot);
        if (p < middle) {
          title.add(slot);
          break;
        }
      }
    }
  }
  return { any, title };
}

function holders(ix: Index, stem: number): Bits {
  const out = scratch();
  for (const w of ix.dict.stemWords[stem] as number[]) out.orInPlace(ix.sets.word.get(w));
  return out;
}
