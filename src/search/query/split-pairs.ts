import { attributesEnd, type DictionaryView, type IndexView } from '../index-view.js';
import { type Bits, membersOf, scratch } from '../sets/slot-sets.js';

/**
 * Compound words, the other way round from plan.ts `joinNeighbours`: a typed word also matches
 * two indexed words, one right after the other in one field, that it is made of (`smartwatch`
 * finds "smart watch", `oneill` finds "O Neill", `tshirt` finds "T Shirt"). Both parts must be
 * words some offer holds; the pair is matched by their stems (`smartwatches` also finds "smart
 * watches"), as typed (no typo), and counts as a match of the word, though not an exact one.
 */

/**
 * Indexed words a unit also matches one right after the other in one field, by their stems: a
 * split pair (inexact), or a synonym of several words (synonyms.ts: counts as typed, exact).
 */
export interface Sequence {
  stems: readonly number[];
  exact: boolean;
}

const DIGIT = /[0-9]/;

/** Every split of `typed` into two words live offers hold. */
export function splitPairs(dict: DictionaryView, typed: string): Sequence[] {
  if (DIGIT.test(typed)) return [];
  const pairs: Sequence[] = [];
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
    if (b >= 0) pairs.push({ stems: [a, b], exact: false });
  }
  return pairs;
}

/** 0 when no sequence starts at position `p` of a field ending at `to`; 2 when an exact one does, else 1. */
export function sequenceAt(
  text: Uint16Array | Int32Array,
  wordStem: Int32Array,
  p: number,
  to: number,
  sequences: readonly Sequence[],
): number {
  let found = 0;
  for (const { stems, exact } of sequences) {
    if (p + stems.length > to || (found === 1 && !exact)) continue;
    let k = 0;
    while (k < stems.length && wordStem[text[p + k] as number] === stems[k]) k += 1;
    if (k < stems.length) continue;
    if (exact) return 2;
    found = 1;
  }
  return found;
}

/**
 * The offers holding a sequence in one field (`any`), in the title (`title`), in the searchable
 * attributes (`attribute`), an exact one anywhere (`exact`).
 */
export function sequenceSets(
  ix: IndexView,
  sequences: readonly Sequence[],
): { any: Bits; title: Bits; attribute: Bits; exact: Bits } {
  const any = scratch();
  const title = scratch();
  const attribute = scratch();
  const exact = scratch();
  const text = ix.text.data;
  const wordStem = ix.dict.wordStem.data;
  const offsets = ix.textOffsets.data;
  for (const sequence of sequences) {
    let candidates: Bits | null = null;
    for (const s of sequence.stems)
      candidates = candidates ? candidates.andInPlace(holders(ix, s)) : holders(ix, s);
    if (candidates === null) continue;
    const one = [sequence];
    const head = sequence.stems[0];
    for (const slot of membersOf(candidates, ix.scratchMembers())) {
      const start = offsets[2 * slot] as number;
      const middle = offsets[2 * slot + 1] as number;
      const between = attributesEnd(ix, slot, middle);
      const end = offsets[2 * slot + 2] as number;
      for (let p = start; p < end; p += 1) {
        // Only where the sequence's first stem stands (no array a position).
        if (wordStem[text[p] as number] !== head) continue;
        const to = p < middle ? middle : p < between ? between : end;
        if (sequenceAt(text, wordStem, p, to, one) === 0) continue;
        any.add(slot);
        if (sequence.exact) exact.add(slot);
        if (p < middle) {
          title.add(slot);
          break;
        }
        if (p < between) attribute.add(slot);
      }
    }
  }
  return { any, title, attribute, exact };
}

function holders(ix: IndexView, stem: number): Bits {
  const out = scratch();
  for (const w of ix.dict.stemWords[stem] as number[]) out.orInPlace(ix.sets.word.get(w));
  return out;
}
