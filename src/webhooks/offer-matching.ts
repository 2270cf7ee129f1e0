import type { ParameterError } from '../http/errors.js';
import { toIndexDocument } from '../offers/index-build.js';
import type { SearchQuery } from '../offers/schemas.js';
import { normaliseSearch } from '../offers/search-query.js';
import type { IndexRow } from '../offers/store.js';
import type { Environment } from '../platform/environment.js';
import { stem } from '../search/analysis/text.js';
import { type EngineQuery, NO_ATTRIBUTES, type SearchSchema, type SynonymRule } from '../search/engine.js';
import {
  checkOffer,
  type OfferText,
  offerText,
  type PreparedQuery,
  prepareQuery,
} from '../search/query/one-offer.js';
import { compileSynonyms } from '../search/query/synonyms.js';

/**
 * The percolator's one seam with the search engine and text analysis (issue 24): everything the
 * saved-search alerts need from offers/ and search/ goes through this file, so a change there
 * touches one place. Three things matter:
 *
 * - `queryAnchors`: the terms or filter values of which a saved query needs at least one (its
 *   rarest unit by `KeyCounts`), so a new offer is checked only against saved searches that can
 *   match it (the percolator's index, percolator.ts);
 * - `alertQuery`: a saved query as the engine runs it, under the environment's synonyms and
 *   declared attributes, as a search of it would run now;
 * - `offerMatches`: the exact check of one offer, search/query/one-offer.ts `checkOffer`: the
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

/** A saved query as alerts run it (the round's `now` is given to each check); null when it can match nothing under `rules`. */
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
  const n = normalised;
  // Every field named, in one order: all compiled queries share one shape, so the check's reads
  // of them stay monomorphic (a spread of the normalised query made several, ~25 % slower).
  return {
    text,
    typoTolerance: n.typoTolerance,
    synonyms: rules.synonyms,
    categories: n.categories,
    tags: n.tags,
    city: n.city,
    country: n.country,
    currency: n.currency,
    priceMin: n.priceMin,
    priceMax: n.priceMax,
    publishedAfter: n.publishedAfter,
    publishedBefore: n.publishedBefore,
    updatedSince: n.updatedSince,
    near: n.near,
    radiusKm: n.radiusKm,
    bbox: n.bbox ?? null,
    // Alerts are for offers a visitor can find: active ones, whatever the saved status.
    status: 'active',
    attributes: n.attributes,
    sort: n.sort,
    distinct: n.distinct ?? null,
    limit: 1,
    after: null,
    now: 0,
  };
}

/** A saved query prepared for the exact check of many offers (worked out once, when it is filed). */
export type AlertCheck = PreparedQuery;

export const alertCheck = (query: AlertQuery): AlertCheck => prepareQuery(query);

/** Whether a search of the query at `now` finds the offer (what an index holding it alone answers). */
export function offerMatches(offer: AlertOffer, check: AlertCheck, now: number, rules: SearchRules): boolean {
  return checkOffer(offer, check, now, rules.schema);
}

const DIGIT = /[0-9]/;

/**
 * How many offers of an environment carry each key a saved search can be filed under (words and
 * stems, tags, category, country; not in a city, not prefixes): a sample of the environment's
 * offers read when its searches are first filed, then every offer matched. A saved search is
 * filed under its rarest unit by these counts (`queryAnchors`), so an offer is checked against
 * few candidates; the counts only choose, every candidate is still checked exactly.
 */
export class KeyCounts {
  /** By kind of key (`w` words and stems, `t` tags, `c` categories, `n` countries), then value. */
  private readonly counts: Record<string, Map<string, number>> = {
    w: new Map(),
    t: new Map(),
    c: new Map(),
    n: new Map(),
  };
  /** Offers counted. */
  offers = 0;

  add(offer: AlertOffer): void {
    this.offers += 1;
    const doc = offer.doc;
    const { w, t, c, n } = this.counts as Record<'w' | 't' | 'c' | 'n', Map<string, number>>;
    // No key string built per word: every offer matched is counted.
    for (const key of offer.keys) w.set(key, (w.get(key) ?? 0) + 1);
    for (const tag of new Set(doc.tags)) t.set(tag, (t.get(tag) ?? 0) + 1);
    c.set(doc.category, (c.get(doc.category) ?? 0) + 1);
    n.set(doc.country, (n.get(doc.country) ?? 0) + 1);
  }

  /**
   * Offers counted carrying `key`. Prefixes are not counted: one of two or three letters is taken
   * as carried by every offer, a longer one (two typed words joined, at least) as rare.
   */
  of(key: string): number {
    if (key.startsWith('p:')) return key.length < 6 ? this.offers : 0;
    return this.counts[key[0] as string]?.get(key.slice(2)) ?? 0;
  }
}

const NO_COUNTS = new KeyCounts();

/**
 * Where a saved query is filed: under `keys` (kind `w` a word or stem, `p` a prefix, `t` a tag,
 * `c` a category, `n` a country, then `:` and the value), in `city` when it has a city filter.
 * An offer it matches carries at least one key (but for the typo corrections of the anchoring
 * word, docs/webhooks.md); `keys` null: no key is known, every offer (of the city) is checked;
 * `[]`: it can match nothing. Of the units every match needs (each word of `q`, each stem of a
 * phrase, a tag, the categories, the country), the keys are those of the unit the fewest offers
 * carry by `counts`; on a tie (no counts), a word before a phrase before a filter, the longest
 * word first.
 */
export function queryAnchors(
  query: AlertQuery | null,
  counts: KeyCounts = NO_COUNTS,
): { city: string | null; keys: string[] | null } {
  if (query === null) return { city: null, keys: [] };
  // Options by a lower bound of their cost (a word's own stem); the full keys of a word (its
  // joins, splits, synonyms) are made only while its bound can beat the best so far.
  const options = [...anchorOptions(query)]
    .map((option, order) => ({ ...option, bound: counts.of(option.first), order }))
    .sort((x, y) => x.bound - y.bound || x.order - y.order);
  let best: string[] | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  let bestOrder = Number.POSITIVE_INFINITY;
  for (const option of options) {
    if (option.bound > bestCost || (option.bound === bestCost && option.order > bestOrder)) break;
    const keys = option.keys();
    let cost = 0;
    for (const key of keys) cost += counts.of(key);
    if (cost < bestCost || (cost === bestCost && option.order < bestOrder)) {
      best = keys;
      bestCost = cost;
      bestOrder = option.order;
    }
  }
  // A city filter narrows any key to the offers of that city (a saved search usually has one).
  return { city: query.city, keys: best };
}

/**
 * Each unit a match needs, in the order ties prefer: its first key (a lower bound of its cost)
 * and all the keys an offer matching it carries.
 */
function* anchorOptions(query: AlertQuery): Generator<{ first: string; keys: () => string[] }> {
  const text = query.text;
  if (text !== null) {
    const typed = text.terms.map((t) => t.word);
    if (text.prefix !== null) typed.push(text.prefix);
    const stems = typed.map(stem);
    const synonyms = query.synonyms.length > 0 ? compileSynonyms(query.synonyms) : null;
    const order = text.terms
      .map((_, i) => i)
      .sort((i, j) => {
        const [x, y] = [typed[i] as string, typed[j] as string];
        return y.length - x.length || (x < y ? -1 : x > y ? 1 : i - j);
      });
    const hasPrefix = text.prefix !== null;
    for (const a of order)
      yield { first: `w:${stems[a]}`, keys: () => unitKeys(typed, stems, a, hasPrefix, false, synonyms) };
    // The prefix alone anchors only a query without a whole word (its keys are not counted).
    if (order.length === 0 && text.prefix !== null) {
      const a = typed.length - 1;
      yield { first: `p:${typed[a]}`, keys: () => unitKeys(typed, stems, a, true, true, synonyms) };
    }
    // A phrase's stems are each held by the offer as typed.
    const phraseStems = [...new Set(text.phrases.flat())].sort(
      (x, y) => y.length - x.length || (x < y ? -1 : 1),
    );
    for (const s of phraseStems) yield single(`w:${s}`);
  }
  for (const tag of query.tags) yield single(`t:${tag}`);
  if (query.categories.length > 0) {
    const keys = query.categories.map((c) => `c:${c}`);
    yield { first: keys[0] as string, keys: () => keys };
  }
  if (query.country !== null) yield single(`n:${query.country}`);
}

const single = (key: string) => ({ first: key, keys: () => [key] });

/** The ways unit `a` matches an offer (search/query/one-offer.ts), typo corrections aside. */
function unitKeys(
  typed: readonly string[],
  stems: readonly string[],
  a: number,
  hasPrefix: boolean,
  prefixOnly: boolean,
  synonyms: ReturnType<typeof compileSynonyms> | null,
): string[] {
  const word = typed[a] as string;
  // Its stem (the word being typed's too: `table` finds an offer saying `tables`), and as typed.
  const keys = new Set([`w:${stems[a]}`]);
  if (prefixOnly) keys.add(`p:${word}`);
  const last = typed.length - 1;
  for (const [x, y] of [
    [a - 1, a],
    [a, a + 1],
  ] as const) {
    const left = typed[x];
    const right = typed[y];
    if (left === undefined || right === undefined || DIGIT.test(left) || DIGIT.test(right)) continue;
    // Two typed words joined: a word of the offer (starting with them, the second being typed).
    keys.add(`${hasPrefix && y === last ? 'p' : 'w'}:${left}${right}`);
  }
  if (!prefixOnly && !DIGIT.test(word))
    for (let i = 1; i < word.length; i += 1) {
      // Split in two words the offer has one after the other: it holds the longer one.
      const [x, y] = [word.slice(0, i), word.slice(i)];
      keys.add(`w:${y.length > x.length ? y : x}`);
    }
  if (synonyms !== null) {
    const { map, longest } = synonyms;
    for (let u = Math.max(0, a - longest + 1); u <= a; u += 1)
      for (let k = a - u + 1; k <= longest && u + k <= typed.length; k += 1)
        for (const words of map.get(stems.slice(u, u + k).join(' ')) ?? [])
          keys.add(`w:${stem(words[0] as string)}`);
  }
  return [...keys];
}
