import { stem, type TextQuery } from '../analysis/text.js';
import type { TypoTolerance } from '../engine.js';
import type { DictionaryView } from '../index-view.js';
import { isNumber, typoBudget } from '../rules.js';
import { type Sequence, splitPairs } from './split-pairs.js';
import { applySynonyms, type SynonymRule } from './synonyms.js';

/**
 * A parsed `q` resolved against the dictionary: for each positive word (the terms in query
 * order, then the prefix), the stems it matches with their typo counts; phrases and exclusions as
 * stem ids.
 */
export interface Unit {
  /** Stem id → edits from what was typed (0 = the word itself or a word starting with the prefix). */
  costs: Map<number, number>;
  /** The typed word's own id, for exactness; −1 when no offer has that word. */
  wordId: number;
  /** Words matched one after the other: split pairs, synonyms of several words (split-pairs.ts). */
  sequences: Sequence[];
  /** Other words that count as the word typed (single-word synonyms), by id. */
  exactWords: number[];
}

export interface Plan {
  units: Unit[];
  /** With `auto`: some unit was left without the typo variants `all` would give it. */
  narrowed: boolean;
  /** Some unit matches sequences of words. */
  hasSequences: boolean;
  /** Stem id → bit u set when unit u matches it. */
  unitsOfStem: Map<number, number>;
  phrases: number[][];
  excluded: number[][];
  scratchBest: Uint8Array;
  scratchExact: Uint8Array;
  scratchField: Uint8Array;
  scratchPair: Uint8Array;
  scratchLast: Int32Array;
}

/**
 * The unit of a typed word (`prefix`: the word being typed). `narrowed` is set when `auto` left
 * out typo variants: the index holds the word as typed (its stem; for a prefix, a word starting
 * with it), so only that is matched.
 */
function unit(
  dict: DictionaryView,
  typed: string,
  prefix: boolean,
  tolerance: TypoTolerance,
  narrowed: { value: boolean },
): Unit {
  const costs = new Map<number, number>();
  let asTyped = false;
  // The word's own stem, for the word being typed too: `tables` typed last finds `table` (no key
  // starts with `tables`) rather than `cable`, one edit away.
  const own = dict.stemIds.get(stem(typed));
  if (own !== undefined) {
    costs.set(own, 0);
    asTyped = (dict.stemDocs.data[own] as number) > 0;
  }
  const budget = tolerance === 'off' || isNumber(typed) ? 0 : typoBudget(typed.length);
  dict.walk(typed, budget, prefix, (s, edits) => {
    const known = costs.get(s);
    if (known === undefined || edits < known) costs.set(s, edits);
    if (edits === 0) asTyped = true;
  });
  // Split pairs for complete words only: the word being typed would check them at every key.
  const sequences = prefix ? [] : splitPairs(dict, typed);
  const result = { costs, wordId: dict.wordIds.get(typed) ?? -1, sequences, exactWords: [] };
  if (tolerance === 'auto' && asTyped) dropTypos(result, narrowed);
  return result;
}

/** `auto`: a word the index holds as typed (or through a synonym) is matched without typo variants. */
function dropTypos(unit: Unit, narrowed: { value: boolean }): void {
  for (const [s, edits] of unit.costs)
    if (edits > 0) {
      unit.costs.delete(s);
      narrowed.value = true;
    }
}

const DIGIT = /[0-9]/;

/**
 * Compound words: two consecutive units also match the two typed words joined (`otter box` finds
 * `OtterBox`; with the second being typed, the indexed words starting with the join), as
 * typed (no typo), for both units: one offer word then holds both. Not for numbers (`5 5` is
 * not `55`).
 */
function joinNeighbours(
  dict: DictionaryView,
  units: Unit[],
  typed: readonly string[],
  lastIsPrefix: boolean,
): void {
  for (let u = 0; u + 1 < units.length; u += 1) {
    const a = typed[u] as string;
    const b = typed[u + 1] as string;
    if (DIGIT.test(a) || DIGIT.test(b)) continue;
    const first = units[u] as Unit;
    const second = units[u + 1] as Unit;
    dict.walk(a + b, 0, lastIsPrefix && u + 2 === units.length, (s) => {
      first.costs.set(s, 0);
      second.costs.set(s, 0);
    });
  }
}

/** `'nothing'` when some word or phrase can match no offer. */
export function planText(
  dict: DictionaryView,
  query: TextQuery,
  tolerance: TypoTolerance,
  synonyms: readonly SynonymRule[] = [],
): Plan | 'nothing' {
  const narrowed = { value: false };
  const units = query.terms.map((t) => unit(dict, t.word, false, tolerance, narrowed));
  if (query.prefix !== null) units.push(unit(dict, query.prefix, true, tolerance, narrowed));
  const typed = query.terms.map((t) => t.word);
  if (query.prefix !== null) typed.push(query.prefix);
  joinNeighbours(dict, units, typed, query.prefix !== null);
  if (synonyms.length > 0) {
    const carried = applySynonyms(dict, units, typed, synonyms);
    if (tolerance === 'auto')
      units.forEach((u, i) => {
        if (carried[i]) dropTypos(u, narrowed);
      });
  }
  if (units.some((u) => u.costs.size === 0 && u.sequences.length === 0)) return 'nothing';
  const phrases: number[][] = [];
  for (const phrase of query.phrases) {
    const ids = phrase.map((s) => dict.stemIds.get(s));
    if (ids.some((id) => id === undefined)) return 'nothing';
    phrases.push(ids as number[]);
  }
  const excluded: number[][] = [];
  for (const sequence of query.excluded) {
    const ids = sequence.map((s) => dict.stemIds.get(s));
    if (ids.every((id) => id !== undefined)) excluded.push(ids as number[]);
  }
  const unitsOfStem = new Map<number, number>();
  units.forEach((u, i) => {
    for (const s of u.costs.keys()) unitsOfStem.set(s, (unitsOfStem.get(s) ?? 0) | (1 << i));
  });
  const n = units.length;
  return {
    units,
    narrowed: narrowed.value,
    hasSequences: units.some((u) => u.sequences.length > 0),
    unitsOfStem,
    phrases,
    excluded,
    scratchBest: new Uint8Array(n),
    scratchExact: new Uint8Array(n),
    scratchField: new Uint8Array(n),
    scratchPair: new Uint8Array(n),
    scratchLast: new Int32Array(n),
  };
}
