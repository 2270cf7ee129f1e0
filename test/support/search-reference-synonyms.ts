import { isStopWord, queryWords, stem } from '../../src/search/analysis/text.js';
import type { SynonymRule } from '../../src/search/query/synonyms.js';

/**
 * The reference search's own reading of synonyms (test/support/search-reference.ts): for every
 * run of consecutive query words that spells a rule's word (stem by stem), each word the rule
 * says it finds is added to each of those words, as typed; one word as a stem (and its exact
 * form counting as typed), several as a sequence to be found one after the other, exact.
 * Answers which words a synonym carried (the `auto` typo policy then drops their typo variants).
 */

interface ReferenceUnit {
  typed: string;
  costs: Map<string, number>;
  sequences: Array<{ stems: string[]; exact: boolean }>;
  exactWords: Set<string>;
}

interface ReferenceDoc {
  fields: ReadonlyArray<ReadonlyArray<{ word: string; stem: string }>>;
}

export function applySynonyms(
  units: ReferenceUnit[],
  dict: ReadonlyArray<readonly [string, string]>,
  docs: readonly ReferenceDoc[],
  rules: readonly SynonymRule[],
): boolean[] {
  const carried = units.map(() => false);
  if (rules.length === 0 || units.length === 0) return carried;
  const stems = new Set(dict.map(([, s]) => s));
  const words = new Set<string>();
  for (const doc of docs) for (const field of doc.fields) for (const t of field) words.add(t.word);
  for (const rule of rules) {
    const spelled = rule.words
      .map((w) => queryWords(w).filter((x) => !isStopWord(x)))
      .filter((w) => w.length > 0);
    spelled.forEach((from, i) => {
      if (rule.oneWay && i > 0) return;
      for (let u = 0; u + from.length <= units.length; u += 1) {
        const run = units.slice(u, u + from.length);
        if (!run.every((unit, k) => stem(unit.typed) === stem(from[k] as string))) continue;
        spelled.forEach((to, j) => {
          if (j === i || !to.every((w) => stems.has(stem(w)))) return;
          for (let k = 0; k < run.length; k += 1) carried[u + k] = true;
          for (const unit of run) {
            if (to.length > 1) unit.sequences.push({ stems: to.map(stem), exact: true });
            else {
              unit.costs.set(stem(to[0] as string), 0);
              if (words.has(to[0] as string)) unit.exactWords.add(to[0] as string);
            }
          }
        });
      }
    });
  }
  return carried;
}
