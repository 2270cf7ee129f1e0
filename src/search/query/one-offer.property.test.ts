import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery } from '../../../test/support/engine-query.js';
import {
  documentArb,
  NOW,
  queryArb,
  SEARCHABLE_SCHEMA,
  SYNONYMS,
} from '../../../test/support/search-arbitraries.js';
import { parseTextQuery, words } from '../analysis/text.js';
import type { IndexDocument, TypoTolerance } from '../engine.js';
import { createSearchIndex } from '../index/search-index.js';
import { checkOffer, findsOffer, offerText, prepareQuery } from './one-offer.js';

/**
 * The one-offer check (saved-search alerts) against the engine itself: for random offers and
 * queries over every filter, typo policy, synonym set and declared attribute (searchable ones
 * among them, ADR 0042), `findsOffer` must say exactly whether `search` on an index holding that
 * offer alone finds it.
 */
const SCHEMA = SEARCHABLE_SCHEMA;
const engineFinds = (doc: Parameters<typeof offerText>[0], query: Parameters<typeof findsOffer>[1]) => {
  const index = createSearchIndex({}, SCHEMA);
  index.upsert(doc);
  return index.search(query, []).total > 0;
};

/** Runs `runs` random cases; resolves to how many the engine found (both agreeing). */
function compare(rare: number, runs: number): { found: number; withText: number } {
  let found = 0;
  let withText = 0;
  fc.assert(
    fc.property(documentArb('off_001'), queryArb(rare, true), fc.boolean(), (doc, { query }, sameStatus) => {
      // Half the time the query asks for the offer's own effective status, so text decides more often.
      const late = doc.status === 'active' && doc.expiresAt !== null && doc.expiresAt <= query.now;
      const q = sameStatus ? { ...query, status: late ? ('expired' as const) : doc.status } : query;
      const expected = engineFinds(doc, q);
      expect(findsOffer(offerText(doc, SCHEMA), q, SCHEMA)).toBe(expected);
      if (expected) found += 1;
      if (expected && q.text !== null) withText += 1;
    }),
    { numRuns: runs },
  );
  return { found, withText };
}

describe('findsOffer: the engine on one offer', () => {
  it('agrees with the engine over random offers and queries, filters rare', () => {
    const { found, withText } = compare(6, 4000);
    // Enough of both answers for the comparison to mean something.
    expect(found).toBeGreaterThan(150);
    expect(withText).toBeGreaterThan(30);
  });

  it('agrees with the engine over random offers and queries, filters often', () => {
    expect(compare(1, 2000).found).toBeGreaterThan(0);
  });

  it("agrees with the engine on queries made of the offer's own words (edited, cut short)", () => {
    let found = 0;
    const arb = activeDocArb.chain((doc) => fc.tuple(fc.constant(doc), ownWordsQueryArb(doc)));
    fc.assert(
      fc.property(arb, ([doc, query]) => {
        if (query === null) return;
        const expected = engineFinds(doc, query);
        expect(findsOffer(offerText(doc, SCHEMA), query, SCHEMA)).toBe(expected);
        if (expected) found += 1;
      }),
      { numRuns: 3000 },
    );
    expect(found).toBeGreaterThan(1000);
  });

  it('answers each of many queries checked in turn against one offer (its memo shared) as the engine does', () => {
    // Saved-search alerts prepare each query once and check one offer's text against many of
    // them: what the offer's memo keeps for one query must hold for the next.
    let found = 0;
    const arb = activeDocArb.chain((doc) =>
      fc.tuple(fc.constant(doc), fc.array(ownWordsQueryArb(doc), { minLength: 12, maxLength: 12 })),
    );
    fc.assert(
      fc.property(arb, ([doc, queries]) => {
        const offer = offerText(doc, SCHEMA);
        for (const query of queries) {
          if (query === null) continue;
          const expected = engineFinds(doc, query);
          expect(checkOffer(offer, prepareQuery(query), query.now, SCHEMA), JSON.stringify(query.text)).toBe(
            expected,
          );
          if (expected) found += 1;
        }
      }),
      { numRuns: 400 },
    );
    expect(found).toBeGreaterThan(1000);
  });
});

const activeDocArb = documentArb('off_001').map((doc) => ({
  ...doc,
  status: 'active' as const,
  expiresAt: null,
}));

/** A query of one to three of the offer's words, each perhaps edited, the last perhaps cut short. */
const ownWordsQueryArb = (doc: IndexDocument) =>
  fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.constantFrom(
            ...words(`${doc.title} ${doc.description} ${String(doc.attributes?.material ?? '')}`),
            'zorglub',
          ),
          fc.integer({ min: 0, max: 5 }),
          fc.integer({ min: 0, max: 25 }),
          fc.nat(),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fc.boolean(),
      fc.constantFrom<TypoTolerance>('auto', 'all', 'off'),
      fc.constantFrom([], SYNONYMS),
    )
    .map(([picked, complete, typoTolerance, synonyms]) => {
      const typed = picked.map(([word, edit, letter, at]) => {
        const c = String.fromCharCode(97 + letter);
        const i = at % (word.length + 1);
        if (edit === 1) return word.slice(0, i) + c + word.slice(i + 1);
        if (edit === 2) return word.slice(0, i) + word.slice(i + 1);
        if (edit === 3) return word.slice(0, i) + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2);
        return word;
      });
      const text = parseTextQuery(typed.join(' ') + (complete ? ' ' : ''));
      return text === null ? null : engineQuery(NOW, { text, typoTolerance, synonyms });
    });
