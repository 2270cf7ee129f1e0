import { toIndexDocument } from '../offers/index-build.js';
import { priceToUnits } from '../offers/price.js';
import type { SearchQuery } from '../offers/schemas.js';
import type { IndexRow } from '../offers/store.js';
import { analyseField, parseTextQuery, words } from '../search/analysis/text.js';
import type { EngineQuery, IndexDocument } from '../search/engine.js';
import { createSearchIndex } from '../search/index/search-index.js';

/**
 * The percolator's one seam with the search engine and text analysis (issue 24): everything the
 * saved-search alerts need from offers/ and search/ goes through this file, so a change there
 * touches one place. Two functions matter:
 *
 * - `offerKeys` / `queryAnchors`: the terms and filter values an offer has, and those of which a
 *   saved query needs at least one, so a new offer is checked only against saved searches that
 *   can match it (the percolator's index, percolator.ts);
 * - `matchOffers`: the exact check, by the engine itself: the changed offers are put in a small
 *   index of their own and each candidate saved query is run on it, so an alert means exactly
 *   "a search would find this offer" (typos, prefixes, phrases, filters and all).
 */
export type SavedQuery = Omit<SearchQuery, 'apiKey' | 'cursor' | 'limit'>;

export function offerDocument(row: IndexRow): IndexDocument {
  return toIndexDocument(row);
}

/**
 * Every key a saved search can be filed under that this offer carries. Prefix keys only of the
 * lengths some filed search uses (`prefixLengths`): most offers' words have many prefixes.
 */
export function offerKeys(doc: IndexDocument, prefixLengths: ReadonlySet<number>): Set<string> {
  const keys = new Set([`c:${doc.category}`, `n:${doc.country}`, ...doc.tags.map((t) => `t:${t}`)]);
  for (const text of [doc.title, doc.description]) {
    const { stems, words } = analyseField(text);
    for (const list of [stems, words]) {
      for (const s of list) {
        keys.add(`w:${s}`);
        for (const n of prefixLengths) if (n <= s.length) keys.add(`p:${s.slice(0, n)}`);
      }
    }
  }
  return keys;
}

/**
 * The keys a saved query is filed under: an offer it matches carries at least one. `null` when
 * no such key is known (the query is checked against every changed offer).
 */
export function queryAnchors(query: SavedQuery): string[] | null {
  // The most selective key first: a whole word of `q` (its longest, usually its rarest), then a
  // tag, a category, the prefix being typed, the country.
  const text = query.q === undefined ? null : parseTextQuery(query.q);
  if (query.q !== undefined && text === null) return []; // nothing searchable: never matches
  const term = text?.terms
    .filter((t) => t.stems.length > 0)
    .sort((a, b) => b.word.length - a.word.length || (a.word < b.word ? -1 : 1))[0];
  // Typo corrections of the word are not anchored (docs/webhooks.md).
  if (term) return term.stems.map((s) => `w:${s}`);
  if (query.tag && query.tag.length > 0) return [`t:${query.tag[0]}`];
  if (query.category && query.category.length > 0) return query.category.map((c) => `c:${c}`);
  if (text?.prefix) return [`p:${words(text.prefix)[0] ?? text.prefix}`];
  if (query.country) return [`n:${query.country.toUpperCase()}`];
  return null;
}

/**
 * A cheap, exact pre-check of one offer against a saved query's equality filters (category,
 * tags, city, country, currency: the engine compares these as stored), so the engine runs only
 * for saved queries that some changed offer can satisfy. False means the engine would not find it.
 */
export function passesFilters(doc: IndexDocument, query: SavedQuery): boolean {
  if (query.category && query.category.length > 0 && !query.category.includes(doc.category)) return false;
  if (query.tag && !query.tag.every((t) => doc.tags.includes(t))) return false;
  if (query.city !== undefined && query.city !== doc.city) return false;
  if (query.country !== undefined && query.country.toUpperCase() !== doc.country) return false;
  if (query.currency !== undefined && query.currency.toUpperCase() !== doc.currency) return false;
  return true;
}

const upper = (v: string | undefined) => (v === undefined ? null : v.toUpperCase());
const time = (v: string | undefined) => (v === undefined ? null : Date.parse(v));

function engineQuery(query: SavedQuery, limit: number, now: number): EngineQuery | null {
  const text = query.q === undefined ? null : parseTextQuery(query.q);
  if (query.q !== undefined && text === null) return null;
  const [lat, lon] = query.near?.split(',').map(Number) ?? [];
  return {
    text,
    categories: [...new Set(query.category ?? [])],
    tags: [...new Set(query.tag ?? [])],
    city: query.city ?? null,
    country: upper(query.country),
    currency: upper(query.currency),
    priceMin: query.priceMin === undefined ? null : priceToUnits(query.priceMin),
    priceMax: query.priceMax === undefined ? null : priceToUnits(query.priceMax),
    publishedAfter: time(query.publishedAfter),
    publishedBefore: time(query.publishedBefore),
    updatedSince: time(query.updatedSince),
    near: lat === undefined || lon === undefined ? null : { lat: lat + 0, lon: lon + 0 },
    radiusKm: query.radius ?? null,
    // Alerts are for offers a visitor can find: active ones, whatever the saved status.
    status: 'active',
    // The environment's synonyms and declared attributes are not applied to alerts yet (docs/webhooks.md).
    typoTolerance: query.typoTolerance ?? 'auto',
    synonyms: [],
    attributes: [],
    sort: '-publishedAt',
    limit,
    after: null,
    now,
  };
}

/** For each saved query (by id), the offers among `docs` it finds now. */
export function matchOffers(
  docs: readonly IndexDocument[],
  queries: ReadonlyMap<string, SavedQuery>,
  now: number,
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (docs.length === 0 || queries.size === 0) return found;
  const index = createSearchIndex();
  for (const doc of docs) index.upsert(doc);
  for (const [id, query] of queries) {
    try {
      const q = engineQuery(query, docs.length, now);
      if (!q) continue;
      const { ids } = index.search(q, []);
      if (ids.length > 0) found.set(id, ids);
    } catch {
      // A saved query the engine cannot run (saved under older rules) alerts nothing.
    }
  }
  return found;
}
