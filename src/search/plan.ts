import { stem, type TextQuery } from '../offers/text.js';
import type { Dictionary } from './dictionary.js';
import type { TypoTolerance } from './engine.js';
import { isNumber, typoBudget } from './rules.js';

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
}

export interface Plan {
  units: Unit[];
  /** With `auto`: some unit was left without the typo variants `all` would give it. */
  narrowed: boolean;
  /** Stem id → bit u set when unit u matches it. */
  unitsOfStem: Map<number, number>;
  phrases: number[][];
  excluded: number[][];
  scratchBest: Uint8Array;
  scratchExact: Uint8Array;
  scratchTitle: Uint8Array;
  scratchPair: Uint8Array;
  scratchLast: Int32Array;
}

/**
 * The unit of a typed word (`prefix`: the word being typed). `narrowed` is set when `auto` left
 * out typo variants: the index holds the word as typed (its stem; for a prefix, a word starting
 * with it), so only that is matched.
 */
function unit(
  dict: Dictionary,
  typed: string,
  prefix: boolean,
  tolerance: TypoTolerance,
  narrowed: { value: boolean },
): Unit {
  const costs = new Map<number, number>();
  let asTyped = false;
  if (!prefix) {
    const own = dict.stemIds.get(stem(typed));
    if (own !== undefined) {
      costs.set(own, 0);
      asTyped = (dict.stemDocs.data[own] as number) > 0;
    }
  }
  const budget = tolerance === 'off' || isNumber(typed) ? 0 : typoBudget(typed.length);
  dict.walk(typed, budget, prefix, (s, edits) => {
    const known = costs.get(s);
    if (known === undefined || edits < known) costs.set(s, edits);
    if (edits === 0) asTyped = true;
  });
  if (tolerance === 'auto' && asTyped) {
    for (const [s, edits] of costs)
      if (edits > 0) {
        costs.delete(s);
        narrowed.value = true;
      }
  }
  return { costs, wordId: dict.wordIds.get(typed) ?? -1 };
}

/** `'nothing'` when some word or phrase can match no offer. */
export function planText(dict: Dictionary, query: TextQuery, tolerance: TypoTolerance): Plan | 'nothing' {
  const narrowed = { value: false };
  const units = query.terms.map((t) => unit(dict, t.word, false, tolerance, narrowed));
  if (query.prefix !== null) units.push(unit(dict, query.prefix, true, tolerance, narrowed));
  if (units.some((u) => u.costs.size === 0)) return 'nothing';
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
    unitsOfStem,
    phrases,
    excluded,
    scratchBest: new Uint8Array(n),
    scratchExact: new Uint8Array(n),
    scratchTitle: new Uint8Array(n),
    scratchPair: new Uint8Array(n),
    scratchLast: new Int32Array(n),
  };
}
