import { isStopWord, queryWords, stem } from '../analysis/text.js';
import type { SynonymRule } from '../engine.js';
import type { DictionaryView } from '../index-view.js';
import type { Sequence } from './split-pairs.js';

/** What synonyms add to a unit of the plan (plan.ts `Unit`). */
interface Unit {
  costs: Map<number, number>;
  sequences: Sequence[];
  exactWords: number[];
}

/**
 * Synonyms of an environment (docs/search.md): a rule says its words find each other (multi-way)
 * or its first word finds the others (one-way). A word may be several words (`tv` ↔ `television
 * set`). Applied to a query as it is planned, without touching the index: the query words that
 * spell a rule's word (by stems, consecutive when it has several) also match each other word of
 * the rule as typed (no typo) and exactly (the exactness rule counts it as the word typed).
 */
export type { SynonymRule };

/** A rule's words as the query sees them: the words of each, stop words left out. */
const spelled = (text: string) => queryWords(text).filter((w) => !isStopWord(w));

/** Stems of a rule word, joined → the words it finds (each a list of words). */
type Compiled = Map<string, string[][]>;

const compiled = new WeakMap<readonly SynonymRule[], { map: Compiled; longest: number }>();

/** The rules as a lookup (kept per rules array): a rule word's stems, joined → the words it finds. */
export function compileSynonyms(rules: readonly SynonymRule[]): { map: Compiled; longest: number } {
  const known = compiled.get(rules);
  if (known) return known;
  const map: Compiled = new Map();
  let longest = 0;
  const add = (from: string[], to: string[]) => {
    const key = from.map(stem).join(' ');
    const list = map.get(key) ?? [];
    map.set(key, list);
    list.push(to);
    longest = Math.max(longest, from.length);
  };
  for (const rule of rules) {
    const words = rule.words.map(spelled).filter((w) => w.length > 0);
    words.forEach((from, i) => {
      if (rule.oneWay && i > 0) return;
      words.forEach((to, j) => {
        if (j !== i) add(from, to);
      });
    });
  }
  const result = { map, longest };
  compiled.set(rules, result);
  return result;
}

/**
 * Adds to the units (typed words `typed`) what the synonyms of their words find. Answers, per
 * unit, whether a synonym of it occurs in the index: such a word is carried as typed (a synonym
 * counts as the word typed), so the `auto` typo policy leaves out its typo variants.
 */
export function applySynonyms(
  dict: DictionaryView,
  units: Unit[],
  typed: readonly string[],
  rules: readonly SynonymRule[],
): boolean[] {
  const carried = units.map(() => false);
  const { map, longest } = compileSynonyms(rules);
  const stems = typed.map(stem);
  for (let u = 0; u < units.length; u += 1) {
    for (let k = 1; k <= longest && u + k <= units.length; k += 1) {
      const found = map.get(stems.slice(u, u + k).join(' '));
      if (!found) continue;
      const covered = units.slice(u, u + k);
      for (const words of found) {
        const ids = words.map((w) => dict.stemIds.get(stem(w)));
        if (ids.some((id) => id === undefined)) continue;
        if (ids.every((id) => (dict.stemDocs.data[id as number] as number) > 0))
          for (let c = u; c < u + k; c += 1) carried[c] = true;
        if (words.length === 1) {
          const word = dict.wordIds.get(words[0] as string);
          for (const unit of covered) {
            unit.costs.set(ids[0] as number, 0);
            if (word !== undefined) unit.exactWords.push(word);
          }
        } else for (const unit of covered) unit.sequences.push({ stems: ids as number[], exact: true });
      }
    }
  }
  return carried;
}
