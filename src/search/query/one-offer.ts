import { isStopWord, stem, type TextQuery, words } from '../analysis/text.js';
import { attributeValue, searchableNames, searchableTexts } from '../attributes/values.js';
import { type EngineQuery, type IndexDocument, NO_ATTRIBUTES, type SearchSchema } from '../engine.js';
import { isNumber, typoBudget } from '../rules.js';
import { distanceKm, inBox } from '../sets/geo.js';
import { hasFilter } from './filters.js';
import { within } from './one-offer-edits.js';
import { compileSynonyms } from './synonyms.js';

/**
 * Whether the engine finds one offer (issue 24's saved-search alerts): the answer of `search`
 * on an index holding that offer alone, computed on the offer's own words instead of an index.
 * Every rule is the engine's (plan.ts, match-set.ts, split-pairs.ts, synonyms.ts, phrases.ts):
 * a unit of `q` matches when the offer holds its stem, a word or stem within the typo budget of
 * it (optimal string alignment; for the prefix being typed, a word starting within the budget),
 * two consecutive typed words joined, a split of it into two words one after the other, or a
 * synonym; phrases are found in one field (the title, the searchable attributes' words, the
 * description: the offer's text is prepared for the schema's), exclusions in none; the filters compare the
 * offer's fields as the index holds them. With one offer, `auto` typo tolerance matches what
 * `all` matches: a word the offer holds as typed matches either way, and a word it does not hold
 * gets its typo variants (the engine's "nothing matched: every word gets them").
 * one-offer.property.test.ts holds it to the engine over random offers and queries.
 */

/** An offer's text as the check reads it (prepared once, checked against many queries). */
export interface OfferText {
  doc: IndexDocument;
  /** Stems by position, stop words left out: the title, the searchable attributes' words, the description. */
  fields: readonly [readonly string[], readonly string[], readonly string[]];
  /** Its indexed words (folded, unstemmed). */
  words: ReadonlySet<string>;
  stems: ReadonlySet<string>;
  /** Words and stems: what a typed word is compared with. */
  keys: readonly string[];
  /** Typed words (with their budget) known to be within reach of a key or split in two of its words, or not: many queries share words. */
  readonly typos: Map<string, boolean>;
}

/** The offer's text as an index built with `schema` holds it (its searchable attributes' words included). */
export function offerText(doc: IndexDocument, schema: SearchSchema = NO_ATTRIBUTES): OfferText {
  const allWords = new Set<string>();
  const stems = new Set<string>();
  const field = (text: string) => {
    const out: string[] = [];
    for (const w of words(text)) {
      if (isStopWord(w)) continue;
      const s = stem(w);
      allWords.add(w);
      stems.add(s);
      out.push(s);
    }
    return out;
  };
  const title = field(doc.title);
  const attributes = searchableTexts(searchableNames(schema.attributes), doc.attributes).flatMap(field);
  const fields = [title, attributes, field(doc.description)] as const;
  return {
    doc,
    fields,
    words: allWords,
    stems,
    keys: [...new Set([...allWords, ...stems])],
    typos: new Map(),
  };
}

/** Whether `search(query)` on an index holding this offer alone (declared `schema`) finds it. */
export function findsOffer(
  offer: OfferText,
  query: EngineQuery,
  schema: SearchSchema = NO_ATTRIBUTES,
): boolean {
  return checkOffer(offer, prepareQuery(query), query.now, schema);
}

/**
 * A query prepared for checking many offers (`checkOffer`): its text's units worked out once,
 * and what most checks read copied into this one object. Saved-search alerts prepare each saved
 * query when it is filed, not at its first check (the first import after a start checked half of
 * 100 000 queries for the first time), and check tens of them per offer, each cold in memory: a
 * check that reads the query's whole graph (the query, its filters' arrays, its text, each unit
 * array) waits on a cache miss per object, most of a check's time (ADR 0061). The common checks
 * read this object, its one array of units and strings many queries share.
 */
export interface PreparedQuery {
  query: EngineQuery;
  status: EngineQuery['status'];
  city: string | null;
  /** The one category asked for; null: none, or several (`query.categories` is read then). */
  category: string | null;
  severalCategories: boolean;
  priceMin: number | null;
  priceMax: number | null;
  /** A filter other than the above applies (tags, country, currency, dates, distance, box, attributes). */
  moreFilters: boolean;
  /** Phrases, exclusions or synonyms apply: the text's full rules are read (`textMatches`). */
  moreText: boolean;
  units: Units | null;
}

export function prepareQuery(query: EngineQuery): PreparedQuery {
  const q = query;
  return {
    query,
    status: q.status,
    city: q.city === null ? null : shared(q.city),
    category: q.categories.length === 1 ? shared(q.categories[0] as string) : null,
    severalCategories: q.categories.length > 1,
    priceMin: q.priceMin,
    priceMax: q.priceMax,
    // Any filter of the query's but those read above (filters.ts names them all).
    moreFilters: hasFilter({ ...q, categories: [], city: null, priceMin: null, priceMax: null }),
    moreText:
      q.text !== null && (q.text.phrases.length > 0 || q.text.excluded.length > 0 || q.synonyms.length > 0),
    units: q.text === null ? null : unitsOf(q.text, q.typoTolerance),
  };
}

/** `findsOffer` for a prepared query, at `now` (the query's own `now` is not read). */
export function checkOffer(
  offer: OfferText,
  prepared: PreparedQuery,
  now: number,
  schema: SearchSchema = NO_ATTRIBUTES,
): boolean {
  const p = prepared;
  const d = offer.doc;
  const late = d.status === 'active' && d.expiresAt !== null && d.expiresAt <= now;
  if ((late ? 'expired' : d.status) !== p.status) return false;
  if (p.city !== null && p.city !== d.city) return false;
  if (
    p.category !== null
      ? p.category !== d.category
      : p.severalCategories && !p.query.categories.includes(d.category)
  )
    return false;
  if (p.priceMin !== null && !(d.price >= p.priceMin)) return false;
  if (p.priceMax !== null && !(d.price <= p.priceMax)) return false;
  if (p.moreFilters && !passesMoreFilters(d, p.query, schema)) return false;
  const units = p.units;
  return units === null || textMatches(offer, p.query, units, p.moreText);
}

/** The filters `checkOffer` does not read from the prepared query itself. */
function passesMoreFilters(d: IndexDocument, q: EngineQuery, schema: SearchSchema): boolean {
  for (const tag of q.tags) if (!d.tags.includes(tag)) return false;
  if (q.country !== null && q.country !== d.country) return false;
  if (q.currency !== null && q.currency !== d.currency) return false;
  if (q.publishedAfter !== null && !(d.publishedAt >= q.publishedAfter)) return false;
  if (q.publishedBefore !== null && !(d.publishedAt < q.publishedBefore)) return false;
  if (q.updatedSince !== null && !(d.updatedAt >= q.updatedSince)) return false;
  if (q.near !== null && q.radiusKm !== null && !(distanceKm(q.near, d) <= q.radiusKm)) return false;
  if (q.bbox && !inBox(q.bbox, d.lat, d.lon)) return false;
  for (const filter of q.attributes) {
    const declared = schema.attributes.find((a) => a.name === filter.name);
    if (!declared) throw new Error(`attribute ${filter.name} is not declared in this index`);
    const v = attributeValue(declared.type, d.attributes?.[filter.name]);
    if (declared.type !== 'number') {
      if (filter.values.length === 0) continue;
      if (v === undefined || !filter.values.includes(v)) return false;
      continue;
    }
    if (v === undefined) return false;
    const n = v as number;
    if (filter.min !== null && !(n >= filter.min)) return false;
    if (filter.max !== null && !(n <= filter.max)) return false;
    if (filter.values.length > 0 && !filter.values.includes(n)) return false;
  }
  return true;
}

const DIGIT = /[0-9]/;

function inField(field: readonly string[], sequence: readonly string[]): boolean {
  const n = sequence.length;
  for (let p = 0; p + n <= field.length; p += 1) {
    let k = 0;
    while (k < n && field[p + k] === sequence[k]) k += 1;
    if (k === n) return true;
  }
  return false;
}

const inOneField = (offer: OfferText, sequence: readonly string[]) =>
  inField(offer.fields[0], sequence) ||
  inField(offer.fields[1], sequence) ||
  inField(offer.fields[2], sequence);

/**
 * A query's units as the check reads them, worked out once per query (many offers are checked
 * against it): one array, `STRIDE` entries per unit (the typed words: the terms, then the prefix),
 * so that a check reads one array instead of five.
 */
interface Units {
  /** Units (typed words). */
  n: number;
  hasPrefix: boolean;
  /** 1 under typo tolerance `off` (its memo key and budget are read), else 0. */
  off: number;
  /**
   * Per unit u, from `STRIDE * u`: the word as typed, its stem, the join of u and u+1 typed
   * together (null when either holds a digit or u is the last), unit u's key in an offer's memo
   * under typo policy `auto`/`all` then `off`, and the typo budget under each.
   */
  data: (string | number | null)[];
  /** The memo key of the last pair's join when it ends with the prefix (a scan of the offer's keys). */
  joinedPrefix: string | null;
}

const STRIDE = 7;
const TYPED = 0;
const STEM = 1;
const JOINED = 2;
const MEMO = 3;
const BUDGET = 5;

function unitsOf(text: TextQuery, typoTolerance: EngineQuery['typoTolerance']): Units {
  const typed = text.terms.map((t) => shared(t.word));
  if (text.prefix !== null) typed.push(shared(text.prefix));
  const n = typed.length;
  const data: (string | number | null)[] = [];
  let joinedPrefix: string | null = null;
  typed.forEach((word, u) => {
    const next = typed[u + 1];
    const joined = next === undefined || DIGIT.test(word) || DIGIT.test(next) ? null : shared(word + next);
    const prefix = text.prefix !== null && u === n - 1;
    const budgets = [isNumber(word) ? 0 : typoBudget(word.length), 0];
    const memos = budgets.map((b) => shared(`${prefix ? 'p' : 'w'}${b}:${word}`));
    data.push(word, shared(stem(word)), joined, ...memos, ...budgets);
    if (text.prefix !== null && u === n - 2 && joined !== null) joinedPrefix = shared(`j:${joined}`);
  });
  return { n, hasPrefix: text.prefix !== null, off: typoTolerance === 'off' ? 1 : 0, data, joinedPrefix };
}

/**
 * One copy of each string the prepared queries hold (their words, joins, memo keys), its hash
 * computed here: saved searches share most of their words, and an offer's check then reads a
 * few strings already in the cache instead of a copy per query. Cleared when full (bounded).
 */
const SHARED_SIZE = 200_000;
const sharedStrings = new Map<string, string>();
function shared(value: string): string {
  const known = sharedStrings.get(value);
  if (known !== undefined) return known;
  if (sharedStrings.size >= SHARED_SIZE) sharedStrings.clear();
  sharedStrings.set(value, value);
  return value;
}

/** `more`: phrases, exclusions or synonyms apply (`PreparedQuery.moreText`). */
function textMatches(offer: OfferText, query: EngineQuery, units: Units, more: boolean): boolean {
  if (more) {
    const text = query.text as TextQuery;
    for (const phrase of text.phrases) if (!holdsAll(offer.stems, phrase)) return false;
    for (const sequence of text.excluded) if (inOneField(offer, sequence)) return false;
    for (const phrase of text.phrases) if (!inOneField(offer, phrase)) return false;
  }
  const { n, hasPrefix, off, data, joinedPrefix } = units;
  /** Bit u: unit u matched by a join or a synonym (at most MAX_QUERY_TERMS units and the prefix). */
  let matched = 0;
  // Compound words: two consecutive typed words joined (plan.ts `joinNeighbours`).
  for (let u = 0; u + 1 < n; u += 1) {
    const pair = data[STRIDE * u + JOINED] as string | null;
    if (pair === null) continue;
    let hit: boolean;
    if (hasPrefix && u + 2 === n) {
      // A word of the offer starting with them: many queries share it, the offer's memo keeps it.
      const memo = joinedPrefix as string;
      const known = offer.typos.get(memo);
      hit = known ?? startsOne(offer.keys, pair);
      if (known === undefined) offer.typos.set(memo, hit);
    } else hit = offer.words.has(pair) || offer.stems.has(pair);
    if (hit) matched |= 3 << u;
  }
  if (more && query.synonyms.length > 0) {
    const { map, longest } = compileSynonyms(query.synonyms);
    const stems: string[] = [];
    for (let u = 0; u < n; u += 1) stems.push(data[STRIDE * u + STEM] as string);
    for (let u = 0; u < n; u += 1) {
      for (let k = 1; k <= longest && u + k <= n; k += 1) {
        const found = map.get(stems.slice(u, u + k).join(' '));
        if (!found) continue;
        for (const targets of found) {
          const sequence = targets.map(stem);
          if (!holdsAll(offer.stems, sequence)) continue;
          if (sequence.length === 1 || inOneField(offer, sequence)) matched |= ((1 << k) - 1) << u;
        }
      }
    }
  }
  for (let u = 0; u < n; u += 1) {
    if (matched & (1 << u)) continue;
    const at = STRIDE * u;
    // Its own stem, the word being typed's too (plan.ts `unit`).
    if (offer.stems.has(data[at + STEM] as string)) continue;
    const word = data[at + TYPED] as string;
    const prefix = hasPrefix && u === n - 1;
    const memo = data[at + MEMO + off] as string;
    const budget = data[at + BUDGET + off] as number;
    // Within reach of a key, or split in two words of the offer: one answer per offer and memo key.
    let near = offer.typos.get(memo);
    if (near === undefined) {
      near = withinOne(offer.keys, word, budget, prefix) || (!prefix && splitFound(offer, word));
      offer.typos.set(memo, near);
    }
    if (!near) return false;
  }
  return true;
}

/** Whether `set` holds every one of `values`. */
function holdsAll(set: ReadonlySet<string>, values: readonly string[]): boolean {
  for (let i = 0; i < values.length; i += 1) if (!set.has(values[i] as string)) return false;
  return true;
}

/**
 * Whether one of `keys` starts with `start` (a loop, not `keys.some` with a closure: a closure
 * over a loop's variables allocates a context at every turn of the loop, used or not).
 */
function startsOne(keys: readonly string[], start: string): boolean {
  for (let i = 0; i < keys.length; i += 1) if ((keys[i] as string).startsWith(start)) return true;
  return false;
}

/** Whether one of `keys` is within `budget` of `word` (`within`). */
function withinOne(keys: readonly string[], word: string, budget: number, prefix: boolean): boolean {
  for (let i = 0; i < keys.length; i += 1) if (within(word, keys[i] as string, budget, prefix)) return true;
  return false;
}

/** A split of `typed` into two words the offer holds, one right after the other (split-pairs.ts). */
function splitFound(offer: OfferText, typed: string): boolean {
  if (DIGIT.test(typed)) return false;
  for (let i = 1; i < typed.length; i += 1) {
    const a = typed.slice(0, i);
    const b = typed.slice(i);
    if (offer.words.has(a) && offer.words.has(b) && inOneField(offer, [stem(a), stem(b)])) return true;
  }
  return false;
}
