import { describe, expect, it } from 'vitest';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import type { IndexDocument } from '../../src/search/engine.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { engineQuery, textDoc } from '../support/engine-query.js';
import { referenceSearch } from '../support/search-reference.js';

/**
 * Issue 26: the typo budget at its edges (docs/search.md: 0 edits below 5 letters, 1 from 5, 2
 * from 9), limit − 1, limit and limit + 1 on each side of both boundaries, for the engine and
 * for the reference (which keeps its own copy of these numbers).
 */
const T0 = Date.UTC(2026, 0, 1);
const WORDS = ['sofa', 'table', 'wardrobe', 'bookshelf'];
const docs: IndexDocument[] = WORDS.map((word, i) => textDoc(`off_${i}`, `Oak ${word}`, T0));

/** [typed word (complete, not a prefix), letters, edits from its word, found]. */
const CASES: [string, number, number, boolean][] = [
  ['sofo', 4, 1, false], // 4 letters: no typo allowed
  ['tavle', 5, 1, true], // 5 letters: one
  ['tavke', 5, 2, false],
  ['wardrxbe', 8, 1, true], // 8 letters: still one
  ['wxrdrxbe', 8, 2, false],
  ['bxokshxlf', 9, 2, true], // 9 letters: two
  ['bxokxhxlf', 9, 3, false],
];

describe('typo budget at its boundaries', () => {
  const index = createSearchIndex();
  for (const d of docs) index.upsert(d);
  it.each(CASES)('%s (%i letters, %i edits): found %s', (typed, letters, _edits, found) => {
    expect(typed).toHaveLength(letters);
    // A trailing space: the word is complete, not a prefix being typed.
    const query = engineQuery(T0, { text: parseTextQuery(`${typed} `), sort: 'relevance' });
    const engine = index.search(query, []).ids;
    const reference = referenceSearch(docs, query, []).ids;
    expect(engine.length > 0).toBe(found);
    expect(reference).toEqual(engine);
  });
});

describe('the word being typed matches by its stem', () => {
  const stemDocs = [textDoc('table', 'Oak dining table', T0), textDoc('cable', 'Lightning cables', T0 + 1)];
  const index = createSearchIndex();
  for (const d of stemDocs) index.upsert(d);
  it.each([
    ['tables', ['table']], // no key starts with `tables`: its stem, not `cables` one edit away
    ['tables ', ['table']],
    ['tabl', ['table']],
    ['cabls', ['cable']], // its stem is `cables`'s
  ])('%j finds %j, as the reference does', (q, ids) => {
    const query = engineQuery(T0, { text: parseTextQuery(q), sort: 'relevance' });
    expect(index.search(query, []).ids).toEqual(ids);
    expect(referenceSearch(stemDocs, query, []).ids).toEqual(ids);
  });
});
