import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dictionary } from './dictionary.js';

/** Every (stem, edits) a walk visits, sorted: what a query sees of the dictionary. */
function visits(dict: Dictionary, typed: string, budget: number, prefix: boolean): string[] {
  const out: string[] = [];
  dict.walk(typed, budget, prefix, (stem, edits) => out.push(`${dict.stemText[stem]}:${edits}`));
  return out.sort();
}

function withWords(words: readonly string[], walkEach: boolean): Dictionary {
  const dict = new Dictionary();
  for (const word of words) {
    const id = dict.wordId(word);
    dict.wordDocs.data[id] = 1;
    dict.stemDocs.data[dict.wordStem.data[id] as number] = 1;
    // A walk after each word settles the keys one at a time (the in-place path).
    if (walkEach) dict.walk('x', 0, false, () => {});
  }
  return dict;
}

describe('Dictionary', () => {
  it('walks the same keys whether they were settled one at a time or all at once', () => {
    const word = fc.string({
      unit: fc.constantFrom('a', 'b', 'e', 'i', 'n', 'g', 's'),
      minLength: 1,
      maxLength: 7,
    });
    fc.assert(
      fc.property(
        // Up to 200 words: past SETTLE_IN_PLACE new keys, the bulk path.
        fc.array(word, { minLength: 1, maxLength: 200, size: 'max' }),
        fc.array(fc.tuple(word, fc.integer({ min: 0, max: 2 }), fc.boolean()), {
          minLength: 1,
          maxLength: 5,
        }),
        (words, walks) => {
          const bulk = withWords(words, false);
          const single = withWords(words, true);
          for (const [typed, budget, prefix] of walks) {
            expect(visits(bulk, typed, budget, prefix)).toEqual(visits(single, typed, budget, prefix));
          }
          // Words added after a walk (a settled dictionary) are found too.
          const more = `${words[0]}ing`;
          for (const dict of [bulk, single]) {
            const id = dict.wordId(more);
            dict.wordDocs.data[id] = 1;
            dict.stemDocs.data[dict.wordStem.data[id] as number] = 1;
          }
          expect(visits(bulk, more, 0, false)).toEqual(visits(single, more, 0, false));
          expect(visits(bulk, more, 0, false).length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
