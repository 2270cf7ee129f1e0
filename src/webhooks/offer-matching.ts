import type { ParameterError } from '../http/errors.js';
import { toIndexDocument } from '../offers/index-build.js';
import type { SearchQuery } from '../offers/schemas.js';
import { normaliseSearch } from '../offers/search-query.js';
import type { IndexRow } from '../offers/store.js';
import type { Environment } from '../platform/environment.js';
import { stem } from '../search/analysis/text.js';
import { type EngineQuery, NO_ATTRIBUTES, type SearchSchema, type SynonymRule } from '../search/engine.js';
import { findsOffer, type OfferText, offerText } from '../search/query/one-offer.js';
import { compileSynonyms } from '../search/query/synonyms.js';

/**
 * The percolator's one seam with the search engine and text analysis (issue 24): everything the
 * saved-search alerts need from offers/ and search/ goes through this file, so a change there
 * touches one place. Three things matter:
 *
 * - `offerKeys` / `queryAnchors`: the terms and filter values an offer has, and those of which a
 *   saved query needs at least one, so a new offer is checked only against saved searches that
 *   can match it (the percolator's index, percolator.ts);
 * - `alertQuery`: a saved query as the engine runs it, under the environment's synonyms and
 *   declared attributes, as a search of it would run now;
 * - `offerMatches`: the exact check of one offer, search/query/one-offer.ts `findsOffer`: the
 *   engine's answer for that offer (typos, prefixes, compounds, synonyms, phrases, filters and
 *   all), computed on the offer's own words, in microseconds instead of a search per candidate.
 */
export type SavedQuery = Omit<SearchQuery, 'apiKey' | 'cursor' | 'limit'>;

/** What an environment's searches apply beyond the query: its synonyms and declared attributes. */
export interface SearchRules {
  synonyms: readonly SynonymRule[];
  schema: SearchSchema;
  /** Changes when either does (the filed queries are compiled again). */
  version: string;
}

export const NO_RULES: SearchRules = { synonyms: [], schema: NO_ATTRIBUTES, version: '0:0' };

/** Where the rules are read: the synonyms service and the search settings store (deps.ts). */
export interface SearchRuleSources {
  synonyms: {
    current(environment: Environment): Promise<{ version: number; rules: readonly SynonymRule[] }>;
  };
  schemas: {
    read(environment: Environment): Promise<{ attributes: SearchSchema['attributes']; version: number }>;
  };
}

export async function readSearchRules(
  sources: SearchRuleSources,
  environment: Environment,
): Promise<SearchRules> {
  const [synonyms, settings] = await Promise.all([
    sources.synonyms.current(environment),
    sources.schemas.read(environment),
  ]);
  return {
    synonyms: synonyms.rules,
    schema: { attributes: settings.attributes },
    version: `${synonyms.version}:${settings.version}`,
  };
}

/** A changed offer, analysed once for every saved query checked against it. */
export type AlertOffer = OfferText;

/** `schema`: the environment's declarations (its searchable attributes' words are the offer's text too). */
export function alertOffer(row: IndexRow, schema: SearchSchema): AlertOffer {
  return offerText(toIndexDocument(row, schema.attributes.length > 0), schema);
}

/** A saved query as alerts run it (`now` set by the round); null when it can match nothing under `rules`. */
export type AlertQuery = EngineQuery;

export function alertQuery(
  query: SavedQuery,
  environment: Environment,
  rules: SearchRules,
): AlertQuery | null {
  const errors: ParameterError[] = [];
  const { normalised, text } = normaliseSearch(environment, query as SearchQuery, rules.schema, errors);
  // A saved query the rules now refuse (an attribute no longer declared) alerts nothing.
  if (errors.length > 0 || (query.q !== undefined && text === null)) return null;
  const { environment: _environment, q: _q, ...filters } = normalised;
  return {
    ...filters,
    text,
    synonyms: rules.synonyms,
    // Alerts are for offers a visitor can find: active ones, whatever the saved status.
    status: 'active',
    limit: 1,
    after: null,
    now: 0,
  };
}

/** Whether a search of `query` at `now` finds the offer (what an index holding it alone answers). */
export function offerMatches(offer: AlertOffer, query: AlertQuery, now: number, rules: SearchRules): boolean {
  // The filed query is the round's own: its `now` is set in place (no copy per check).
  query.now = now;
  return findsOffer(offer, query, rules.schema);
}

/**
 * Every key a saved search can be filed under that this offer carries. Prefix keys only of the
 * lengths some filed search uses (`prefixLengths`): most offers' words have many prefixes.
 */
export function offerKeys(offer: AlertOffer, prefixLengths: ReadonlySet<number>): Set<string> {
  const doc = offer.doc;
  const keys = new Set([`c:${doc.category}`, `n:${doc.country}`, ...doc.tags.map((t) => `t:${t}`)]);
  for (const s of offer.keys) {
    keys.add(`w:${s}`);
    for (const n of prefixLengths) if (n <= s.length) keys.add(`p:${s.slice(0, n)}`);
  }
  // The same keys in the offer's city: where most saved searches file (`inCity`).
  for (const key of [...keys]) keys.add(inCity(key, doc.city));
  keys.add(`y:${doc.city}`);
  return keys;
}

/** A key of a query with a city filter: only offers of that city carry it. */
const inCity = (key: string, city: string) => `${key}\u0001${city}`;

/** The prefix length of a `p:` key (of a city or not): the offers generate prefixes of it. */
export function prefixLength(key: string): number | null {
  if (!key.startsWith('p:')) return null;
  const end = key.indexOf('\u0001');
  return (end < 0 ? key.length : end) - 2;
}

const DIGIT = /[0-9]/;

/**
 * The keys a saved query is filed under: an offer it matches carries at least one (but for the
 * typo corrections of the anchoring word, docs/webhooks.md). `null` when no such key is known
 * (the query is checked against every changed offer); `[]` when it can match nothing.
 */
export function queryAnchors(query: AlertQuery | null): string[] | null {
  if (query === null) return [];
  const keys = anchors(query);
  // A city filter narrows any key to the offers of that city (a saved search usually has one).
  if (query.city === null) return keys;
  const city = query.city;
  return keys === null ? [`y:${city}`] : keys.map((key) => inCity(key, city));
}

function anchors(query: AlertQuery): string[] | null {
  const text = query.text;
  if (text !== null) {
    const typed = text.terms.map((t) => t.word);
    if (text.prefix !== null) typed.push(text.prefix);
    // The most selective unit: the longest whole word of `q` (usually its rarest), else the prefix.
    let a = -1;
    text.terms.forEach((t, i) => {
      const best = text.terms[a];
      if (
        !best ||
        t.word.length > best.word.length ||
        (t.word.length === best.word.length && t.word < best.word)
      )
        a = i;
    });
    const prefixOnly = a < 0 && text.prefix !== null;
    if (prefixOnly) a = typed.length - 1;
    if (a >= 0) {
      const word = typed[a] as string;
      // The ways the unit matches an offer (search/query/one-offer.ts), typo corrections aside.
      const keys = new Set([prefixOnly ? `p:${word}` : `w:${stem(word)}`]);
      const last = typed.length - 1;
      for (const [x, y] of [
        [a - 1, a],
        [a, a + 1],
      ] as const) {
        const left = typed[x];
        const right = typed[y];
        if (left === undefined || right === undefined || DIGIT.test(left) || DIGIT.test(right)) continue;
        // Two typed words joined: a word of the offer (starting with them, the second being typed).
        keys.add(`${text.prefix !== null && y === last ? 'p' : 'w'}:${left}${right}`);
      }
      if (!prefixOnly && !DIGIT.test(word))
        for (let i = 1; i < word.length; i += 1) {
          // Split in two words the offer has one after the other: it holds the longer one.
          const [x, y] = [word.slice(0, i), word.slice(i)];
          keys.add(`w:${y.length > x.length ? y : x}`);
        }
      if (query.synonyms.length > 0) {
        const { map, longest } = compileSynonyms(query.synonyms);
        const stems = typed.map(stem);
        for (let u = Math.max(0, a - longest + 1); u <= a; u += 1)
          for (let k = a - u + 1; k <= longest && u + k <= typed.length; k += 1)
            for (const words of map.get(stems.slice(u, u + k).join(' ')) ?? [])
              keys.add(`w:${stem(words[0] as string)}`);
      }
      return [...keys];
    }
    // Phrases only: the offer holds every stem of each, as typed.
    const phrase = text.phrases[0];
    if (phrase) return [`w:${[...phrase].sort((x, y) => y.length - x.length || (x < y ? -1 : 1))[0]}`];
  }
  if (query.tags.length > 0) return [`t:${query.tags[0]}`];
  if (query.categories.length > 0) return query.categories.map((c) => `c:${c}`);
  if (query.country !== null) return [`n:${query.country}`];
  return null;
}
