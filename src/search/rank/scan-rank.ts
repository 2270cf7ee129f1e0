import { attributesEnd, type IndexView } from '../index-view.js';
import { packRank } from '../query/cursor-keys.js';
import { phrasesField } from '../query/phrases.js';
import type { Plan, Unit } from '../query/plan.js';
import { sequenceAt } from '../query/split-pairs.js';
import { PROXIMITY_CAP } from '../rules.js';

/** Ranking one match from its words (relevance.ts's scans of several units or phrases). */

/**
 * A word's bit in `IndexView.wordBits`, beside its units' bits, when its stem is the first of a
 * unit's sequence: only there can a sequence start (ADR 0048), so only there are they read.
 */
export const SEQUENCE_START = 1 << 30;
/** The units' bits of a `wordBits` value (unit u: bit u; sequences' exactness takes bits 16 on). */
const UNIT_BITS = 0xffff;

/**
 * Bit u set when a sequence of unit u starts at position p (split-pairs.ts); the same bit 16
 * places up when that sequence is exact (a synonym).
 */
function sequenceBits(
  plan: Plan,
  text: Uint16Array | Int32Array,
  wordStem: Int32Array,
  p: number,
  to: number,
): number {
  let bits = 0;
  plan.units.forEach((unit, u) => {
    if (unit.sequences.length === 0) return;
    const found = sequenceAt(text, wordStem, p, to, unit.sequences);
    if (found > 0) bits |= 1 << u;
    if (found === 2) bits |= 1 << (u + 16);
  });
  return bits;
}

/**
 * The packed relevance tuple of one offer, from its words (typos, proximity, attribute, inexact).
 * Fields: 0 the title, 1 the searchable attributes, 2 the description; each unit's attribute is
 * the first field holding it, the tuple's the worst of the units' and the phrases' (ADR 0042).
 */
export function scanRank(ix: IndexView, slot: number, plan: Plan): number {
  const text = ix.text.data;
  const wordStem = ix.dict.wordStem.data;
  const wordBits = ix.wordBits;
  const start = ix.textOffsets.data[2 * slot] as number;
  const middle = ix.textOffsets.data[2 * slot + 1] as number;
  const between = attributesEnd(ix, slot, middle);
  const end = ix.textOffsets.data[2 * slot + 2] as number;
  const units = plan.units;
  const n = units.length;
  const best = plan.scratchBest;
  const exact = plan.scratchExact;
  const field = plan.scratchField;
  const pair = plan.scratchPair;
  const last = plan.scratchLast;
  // Loops, not fill(): a few units each, and a call of fill costs more than that.
  for (let u = 0; u < n; u += 1) {
    best[u] = 255;
    exact[u] = 0;
    field[u] = 2;
    pair[u] = PROXIMITY_CAP;
  }
  for (let f = 0; f < 3; f += 1) {
    const from = f === 0 ? start : f === 1 ? middle : between;
    const to = f === 0 ? middle : f === 1 ? between : end;
    if (from === to) continue;
    for (let u = 0; u < n; u += 1) last[u] = -1;
    for (let p = from; p < to; p += 1) {
      const w = text[p] as number;
      const marks = wordBits[w] as number;
      const own = marks & UNIT_BITS;
      const found = (marks & SEQUENCE_START) !== 0 ? sequenceBits(plan, text, wordStem, p, to) : 0;
      const bits = own | (found & 0xffff);
      if (bits === 0) continue;
      const s = wordStem[w] as number;
      for (let u = 0; u < n; u += 1) {
        if ((bits & (1 << u)) === 0) continue;
        const unit = units[u] as Unit;
        const word = (own & (1 << u)) !== 0;
        // A sequence starting here: as typed (no typo).
        const c = word ? (unit.costs.get(s) as number) : 0;
        if (c < (best[u] as number)) best[u] = c;
        if (word && (w === unit.wordId || (unit.exactWords.length > 0 && unit.exactWords.includes(w))))
          exact[u] = 1;
        if ((found & (1 << (u + 16))) !== 0) exact[u] = 1;
        if (f < (field[u] as number)) field[u] = f;
      }
      for (let u = 0; u + 1 < n; u += 1) {
        const a = (bits & (1 << u)) !== 0;
        const b = (bits & (1 << (u + 1))) !== 0;
        if (!a && !b) continue;
        let g = PROXIMITY_CAP;
        if (a && b) g = 1;
        if (b && (last[u] as number) >= 0) g = Math.min(g, p - (last[u] as number));
        if (a && (last[u + 1] as number) >= 0) g = Math.min(g, p - (last[u + 1] as number) + 1);
        if (g < (pair[u] as number)) pair[u] = g;
      }
      for (let u = 0; u < n; u += 1) if ((bits & (1 << u)) !== 0) last[u] = p;
    }
  }
  let typos = 0;
  let inexact = 0;
  let proximity = 0;
  let attribute = plan.phrases.length === 0 ? 0 : phrasesField(ix, slot, plan);
  for (let u = 0; u < n; u += 1) {
    typos += best[u] as number;
    if (exact[u] === 0) inexact += 1;
    if ((field[u] as number) > attribute) attribute = field[u] as number;
    if (u + 1 < n) proximity += pair[u] as number;
  }
  return packRank(typos, proximity, attribute, inexact);
}
