import { describe, expect, it } from 'vitest';
import type { IndexRow } from '../offers/store.js';
import { FiledSearches } from './filed-searches.js';
import { alertCheck, alertOffer, alertQuery, offerMatches, type SearchRules } from './offer-matching.js';

/** Saved-search alerts read an offer's declared attributes: its `attr.*` filters and searchable words (ADR 0042). */
const row: IndexRow = {
  seq: 1,
  change_seq: 1,
  id: 'off_1',
  title: 'Portable radio',
  description: 'A small radio',
  category: 'electronics',
  tags: '[]',
  city: 'Paris',
  country: 'FR',
  currency: 'EUR',
  price_value: 100_000,
  lat: 48.85,
  lon: 2.35,
  status: 'active',
  published_at: 0,
  updated_at: 0,
  expires_at: null,
  publisher_id: 'pub_1',
  attributes: JSON.stringify({ brand: 'Zenith & Co', colour: 'teal' }),
};
const rules = (searchable: boolean): SearchRules => ({
  synonyms: [],
  schema: {
    attributes: [
      { name: 'brand', type: 'string', facet: false, sort: false, searchable },
      { name: 'colour', type: 'string', facet: false, sort: false, searchable: false },
    ],
  },
  version: `0:${searchable ? 2 : 1}`,
});
const matches = (q: Record<string, string>, r: SearchRules) => {
  const query = alertQuery(q, 'testing', r);
  if (query === null) throw new Error('refused');
  return offerMatches(alertOffer(row, r.schema), alertCheck(query), 1, r);
};

describe('alerts on declared attributes', () => {
  it("match a searchable attribute's word, and file the offer under it", () => {
    expect(matches({ q: 'zenith' }, rules(true))).toBe(true);
    expect(matches({ q: 'zenith' }, rules(false))).toBe(false);
    expect(matches({ q: 'teal' }, rules(true))).toBe(false);
    const filed = new FiledSearches('testing', rules(true));
    filed.add({
      id: 'ss_1',
      userId: 'u',
      projectId: 'p',
      name: 'n',
      query: { q: 'zenith' },
      sinceSeq: 0,
      createdAt: 0,
    });
    const candidates = [...filed.candidates(alertOffer(row, rules(true).schema))].map((f) => f.search.id);
    expect(candidates).toContain('ss_1');
  });

  it('apply attr.* filters on the offer read with its attributes', () => {
    expect(matches({ 'attr.colour': 'TEAL' }, rules(false))).toBe(true);
    expect(matches({ 'attr.colour': 'red' }, rules(false))).toBe(false);
  });
});
