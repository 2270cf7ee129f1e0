import type { IndexView } from '../index-view.js';
import type { Plan } from './plan.js';

/**
 * Phrases and exclusions of `q`, read on an offer's words (no bitmap holds word order): the
 * per-match test of match-set.ts and the attribute rule of the relevance tuple.
 */

type Words = Uint16Array | Int32Array;

/** Phrases present and exclusions absent in the slot's words. */
export function textHolds(ix: IndexView, slot: number, plan: Plan): boolean {
  const text = ix.text.data;
  const wordStem = ix.dict.wordStem.data;
  const start = ix.textOffsets.data[2 * slot] as number;
  const middle = ix.textOffsets.data[2 * slot + 1] as number;
  const end = ix.textOffsets.data[2 * slot + 2] as number;
  for (const sequence of plan.excluded) {
    if (
      hasSequence(text, wordStem, start, middle, sequence) ||
      hasSequence(text, wordStem, middle, end, sequence)
    )
      return false;
  }
  for (const sequence of plan.phrases) {
    if (!hasSequence(text, wordStem, start, end, sequence, middle)) return false;
  }
  return true;
}

/** Whether every phrase is in the title (for the attribute rule). */
export function phrasesInTitle(ix: IndexView, slot: number, plan: Plan): boolean {
  const start = ix.textOffsets.data[2 * slot] as number;
  const middle = ix.textOffsets.data[2 * slot + 1] as number;
  for (const sequence of plan.phrases)
    if (!hasSequence(ix.text.data, ix.dict.wordStem.data, start, middle, sequence)) return false;
  return true;
}

function hasSequence(
  text: Words,
  wordStem: Int32Array,
  from: number,
  to: number,
  sequence: readonly number[],
  /** A field boundary no match may cross, or −1. */
  split = -1,
): boolean {
  const n = sequence.length;
  for (let p = from; p + n <= to; p += 1) {
    if (p < split && p + n > split) continue;
    let k = 0;
    while (k < n && wordStem[text[p + k] as number] === sequence[k]) k += 1;
    if (k === n) return true;
  }
  return false;
}
