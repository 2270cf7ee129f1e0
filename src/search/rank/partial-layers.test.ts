import { describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery, stem } from '../analysis/text.js';
import type { EngineQuery, IndexDocument } from '../engine.js';
import { createSearchIndex, type Index } from '../index/search-index.js';

/**
 * A part whose walk gave up, its pair not worth reading whole (ADR 0048): its own members are
 * read, kept, and a later need reads only the slots it has not read (written since, or of other
 * parts), each answer against the reference, through writes and removals.
 */

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const NOW = T0 + 100 * DAY;

function query(q: string, limit: number, after: EngineQuery['after'] = null): EngineQuery {
  return { ...engineQuery(NOW, { text: parseTextQuery(q), sort: 'relevance', limit }), after };
}

/** Every page of `q` against the reference over `live`. */
function pagesMatch(index: Index, live: Map<string, IndexDocument>, q: string, limit: number): void {
  let after: EngineQuery['after'] = null;
  for (let page = 0; page < 100; page += 1) {
    const asked = query(q, limit, after);
    const { matchedStems: _m, ...got } = index.search(asked, []);
    expect(got).toEqual(referenceSearch([...live.values()], asked, []));
    if (got.nextKeys === null) return;
    after = got.nextKeys;
  }
}

describe('proximity layers read for a part only', () => {
  it('keeps what a part read, reads the rest on the next need, and stays exact through writes', () => {
    // Walks everywhere, every part cut, every pair kept: what is left to choose is how a pair is read.
    const index = createSearchIndex({
      rankWalkCost: 0,
      proximityPartFrom: 0,
      proximityPairsFrom: 2,
    }) as Index;
    const live = new Map<string, IndexDocument>();
    const put = (doc: IndexDocument) => {
      index.upsert(doc);
      live.set(doc.id, doc);
    };
    // Active offers hold `oak` and `table` three words apart, never side by side; withdrawn ones hold
    // them side by side (the filter of adjacent pairs then lets the floor be 1: no walk stops).
    for (let i = 0; i < 40; i += 1)
      put(
        textDoc(
          `a${String(i).padStart(2, '0')}`,
          `oak red lamp table ${i % 3 === 0 ? 'desk' : ''}`,
          T0 + i * DAY,
        ),
      );
    for (let i = 0; i < 60; i += 1)
      put({ ...textDoc(`s${String(i).padStart(2, '0')}`, 'oak table', T0 + i * DAY), status: 'withdrawn' });
    expect(index.proximity.size).toBe(0);
    // The first need: reading the pair whole (100 offers) costs more than ranking the part (40),
    // so the part's own members are read (before, the part was ranked and nothing kept).
    const first = query('oak table ', 2);
    const { matchedStems: _m, ...got } = index.search(first, []);
    expect(got).toEqual(referenceSearch([...live.values()], first, []));
    expect(index.proximity.size).toBeGreaterThan(0);
    pagesMatch(index, live, 'oak table ', 3);
    // New offers side by side come first; a removed one leaves; an update moves to a new slot.
    for (let i = 0; i < 5; i += 1) put(textDoc(`n${i}`, `table oak filler ${i}`, T0 + (50 + i) * DAY));
    put(textDoc('n5', 'oak table', T0 + 60 * DAY));
    index.remove('a03');
    live.delete('a03');
    put(textDoc('a05', 'oak table desk', T0 + 5 * DAY));
    pagesMatch(index, live, 'oak table ', 2);
    pagesMatch(index, live, 'oak ta', 4);
    pagesMatch(index, live, 'red oak table ', 3);
    index.remove('n5');
    live.delete('n5');
    pagesMatch(index, live, 'oak table ', 5);
  });

  it('stops counting what reading pairs whole costs once no part would read them for it', () => {
    const index = createSearchIndex({ proximityPairsFrom: 1 }) as Index;
    for (let i = 0; i < 10; i += 1) index.upsert(textDoc(`d${i}`, 'oak table lamp', T0));
    const id = (word: string) => index.dict.stemIds.get(stem(word)) as number;
    const pairs: Array<[number, number]> = [
      [id('oak'), id('table')],
      [id('table'), id('lamp')],
    ];
    // The offers holding both stems of each pair, summed; the pairs are marked needed once.
    expect(index.proximity.need(index, pairs)).toEqual({ cost: 20, needs: 1, least: 1 });
    // No part larger than 5: past 5, the first pair's 10 is enough to refuse (not 20).
    expect(index.proximity.need(index, pairs, 5)).toEqual({ cost: 10, needs: 2, least: 2 });
  });
});
