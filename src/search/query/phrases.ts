import { attributesEnd, type IndexView } from '../index-view.js';
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
  const between = attributesEnd(ix, slot, middle);
  const end = ix.textOffsets.data[2 * slot + 2] as number;
  for (const sequence of plan.excluded) {
    if (
      hasSequence(text, wordStem, start, middle, sequence) ||
      hasSequence(text, wordStem, middle, between, sequence) ||
      hasSequence(text, wordStem, between, end, sequence)
    )
      return false;
  }
  for (const sequence of plan.phrases) {
    if (!hasSequence(text, wordStem, start, end, sequence, middle, between)) return false;
  }
  return true;
}

/**
 * The attribute rule's value of the phrases (0: every one in the title; 1: each in the title or
 * the searchable attributes; 2: else), the best field of each, the worst of them.
 */
export function phrasesField(ix: IndexView, slot: number, plan: Plan): number {
  const text = ix.text.data;
  const wordStem = ix.dict.wordStem.data;
  const start = ix.textOffsets.data[2 * slot] as number;
  const middle = ix.textOffsets.data[2 * slot + 1] as number;
  const between = attributesEnd(ix, slot, middle);
  let worst = 0;
  for (const sequence of plan.phrases) {
    if (hasSequence(text, wordStem, start, middle, sequence)) continue;
    if (between > middle && hasSequence(text, wordStem, middle, between, sequence)) worst = 1;
    else return 2;
  }
  return worst;
}

function hasSequence(
  text: Words,
  wordStem: Int32Array,
  from: number,
  to: number,
  sequence: readonly number[],
  /** Field boundaries no match may cross, or −1. */
  split = -1,
  split2 = -1,
): boolean {
  const n = sequence.length;
  for (let p = from; p + n <= to; p += 1) {
    if ((p < split && p + n > split) || (p < split2 && p + n > split2)) continue;
    let k = 0;
    while (k < n && wordStem[text[p + k] as number] === sequence[k]) k += 1;
    if (k === n) return true;
  }
  return false;
}
