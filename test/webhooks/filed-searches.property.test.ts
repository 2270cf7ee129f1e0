import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexDocument } from '../../src/search/engine.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { offerText } from '../../src/search/query/one-offer.js';
import { FiledSearches } from '../../src/webhooks/filed-searches.js';
import { NO_RULES, type SavedQuery } from '../../src/webhooks/offer-matching.js';
import type { AlertingSearch } from '../../src/webhooks/percolator-store.js';
import {
  CATEGORIES,
  CITIES,
  documentArb,
  NOW,
  qArb,
  sometimes,
  TAGS,
} from '../support/search-arbitraries.js';

/**
 * Filing by the rarest unit never loses a match: for random offers and saved searches, with key
 * counts from random offers (so that any unit, a filter's too, can be the rarest), every saved
 * search that a search of it on an index holding the offer alone finds without a typo
 * correction (the documented limit) is among the offer's candidates; and still after the counts
 * drifted and the searches were filed again.
 */
const savedArb: fc.Arbitrary<SavedQuery> = fc
  .record({
    q: sometimes(qArb, 1),
    category: sometimes(fc.uniqueArray(fc.constantFrom(...CATEGORIES), { minLength: 1, maxLength: 2 }), 2),
    tag: sometimes(fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }), 3),
    city: sometimes(fc.constantFrom(...CITIES.map((c) => c.city)), 1),
    country: sometimes(fc.constantFrom(...CITIES.map((c) => c.country)), 4),
  })
  .map((r) => {
    const query: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(r)) if (value !== null) query[name] = value;
    return query as SavedQuery;
  });

const docsArb = (prefix: string, n: number) =>
  fc.tuple(...Array.from({ length: n }, (_, i) => documentArb(`${prefix}${i}`)));

const search = (query: SavedQuery, i: number): AlertingSearch => ({
  id: `svs_${i}`,
  userId: 'usr_1',
  projectId: 'prj_1',
  name: 'p',
  query,
  sinceSeq: 0,
  createdAt: i,
});

describe('saved searches filed by their rarest unit', () => {
  // Hundreds of one-offer searches: a minute on a busy machine.
  it('an offer found without a typo correction always has the search among its candidates', {
    timeout: 120_000,
  }, () => {
    let found = 0;
    fc.assert(
      fc.property(
        docsArb('off_c', 12),
        docsArb('off_d', 12),
        fc.array(savedArb, { minLength: 20, maxLength: 20 }),
        docsArb('off_t', 8),
        (counted, drift, queries, offers) => {
          const filed = new FiledSearches('testing', NO_RULES);
          for (const doc of counted) filed.counts.add(offerText(doc));
          filed.anchoredAt = filed.counts.offers;
          queries.forEach((q, i) => {
            filed.add(search(q, i));
          });
          const check = () => {
            for (const doc of offers) {
              const active: IndexDocument = { ...doc, status: 'active', expiresAt: null };
              const candidates = new Set([...filed.candidates(offerText(active))].map((f) => f.search.id));
              const index = createSearchIndex();
              index.upsert(active);
              for (const f of filed.byId.values()) {
                if (f.query === null) continue;
                const q = { ...f.query, now: NOW, typoTolerance: 'off' as const };
                if (index.search(q, []).total === 0) continue;
                found += 1;
                expect(candidates.has(f.search.id), `${f.search.id} ${JSON.stringify(f.search.query)}`).toBe(
                  true,
                );
              }
            }
          };
          check();
          // Other offers counted until the counts doubled: every search is filed again, by rounds.
          while (filed.counts.offers < 2 * Math.max(filed.anchoredAt, 5_000))
            for (const doc of drift) filed.counts.add(offerText(doc));
          for (let round = 0; round < 2; round += 1) filed.refileSome();
          check();
        },
      ),
      { numRuns: 30, seed: 45 },
    );
    expect(found).toBeGreaterThan(50);
  });
});
