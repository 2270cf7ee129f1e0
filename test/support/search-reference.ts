import { isStopWord, stem } from '../../src/search/analysis/text.js';
import { attributeValue, foldString, shownValue } from '../../src/search/attributes/values.js';
import {
  type AttributeDeclaration,
  type EngineQuery,
  type EngineResult,
  type FacetCount,
  type FacetName,
  type FacetRequest,
  type FacetStats,
  type Facets,
  type IndexDocument,
  NO_ATTRIBUTES,
  type SearchSchema,
  type TypoTolerance,
} from '../../src/search/engine.js';
import { attributeSort, PROXIMITY_CAP, sortKeysOf } from '../../src/search/rules.js';
import { distanceKm } from '../../src/search/sets/geo.js';
import { applySynonyms } from './search-reference-synonyms.js';
import { referenceWords } from './search-reference-text.js';

/** Its own copy of the typo budget (docs/search.md), so a change to the engine's rule shows (issue 26). */
const typoBudget = (letters: number): number => (letters >= 9 ? 2 : letters >= 5 ? 1 : 0);

/**
 * The reference search (issue 12): the engine's semantics computed by brute force over every
 * document, as plainly as possible, sharing nothing with the engine but the text analysis and
 * the rule numbers. Property tests compare the engine with it; so can HTTP tests.
 */

type Key = string | number;

interface Token {
  word: string;
  stem: string;
  /** Its two entries of the dictionary (below), by key: made once with the token. */
  entries: ReadonlyArray<readonly [string, Entry]>;
}

/** A key of the dictionary (an indexed word, or an indexed stem) and its stem. */
type Entry = readonly [string, string];

/**
 * Issue 26: the fields already read, by text. The property tests ask the reference again for
 * every page, over the same offers: reading their texts anew was most of those tests' time. The
 * reading depends on the text alone; the lists are frozen, so nothing can change a shared one.
 */
const readTexts = new Map<string, readonly Token[]>();

/** The positions of a field: its words without stop words, each with its stem. */
function tokensOf(text: string): readonly Token[] {
  const known = readTexts.get(text);
  if (known) return known;
  const tokens = Object.freeze(
    referenceWords(text)
      .filter((w) => !isStopWord(w))
      .map((w) => {
        const s = stem(w);
        const entries = [
          [`${w} ${s}`, [w, s]],
          [`${s} ${s}`, [s, s]],
        ] as const;
        return Object.freeze({ word: w, stem: s, entries });
      }),
  );
  if (readTexts.size >= 200_000) readTexts.clear();
  readTexts.set(text, tokens);
  return tokens;
}

/** Optimal string alignment distance (Damerau with adjacent transpositions, no substring edited twice). */
export function osa(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    d.push([]);
    for (let j = 0; j <= b.length; j += 1) {
      if (i === 0 || j === 0) {
        (d[i] as number[])[j] = i + j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        ((d[i - 1] as number[])[j] as number) + 1,
        ((d[i] as number[])[j - 1] as number) + 1,
        ((d[i - 1] as number[])[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

interface Doc {
  source: IndexDocument;
  /** The title, the searchable attributes' words (by attribute name), the description. */
  fields: [readonly Token[], readonly Token[], readonly Token[]];
}

/**
 * One positive word of the query: the stems it matches, each with its typo count, and the pairs
 * of stems of two indexed words it is made of (matched one right after the other).
 */
interface Unit {
  typed: string;
  costs: Map<string, number>;
  /** Stems to be found one after the other: split pairs (inexact), several-word synonyms (exact). */
  sequences: Array<{ stems: string[]; exact: boolean }>;
  /** Words other than the typed one that count as it (one-word synonyms). */
  exactWords: Set<string>;
}

/**
 * The dictionary: every (key, stem) of the documents, where a key is an indexed word (for its
 * stem) or an indexed stem (for itself).
 */
function dictionary(docs: readonly Doc[]): Entry[] {
  const pairs = new Map<string, Entry>();
  for (const doc of docs)
    for (const field of doc.fields)
      for (const t of field) for (const [key, entry] of t.entries) pairs.set(key, entry);
  return [...pairs.values()];
}

/** The typo budget of a typed word under a policy: numbers (digits, a decimal) get none. */
function budgetOf(typed: string, tolerance: TypoTolerance): number {
  if (tolerance === 'off' || /^\d+$/.test(typed) || /^\d+\.\d+$/.test(typed)) return 0;
  return typoBudget(typed.length);
}

/**
 * `auto`: a unit whose typed word the documents hold as typed (its stem among theirs, or a key
 * equal to it; for a prefix, a key starting with it) keeps only its matches as typed.
 */
function narrow(unit: Unit, tolerance: TypoTolerance, asTyped: boolean): Unit {
  if (tolerance !== 'auto' || !asTyped) return unit;
  return { ...unit, costs: new Map([...unit.costs].filter(([, c]) => c === 0)) };
}

function termUnit(typed: string, dict: readonly Entry[], tolerance: TypoTolerance): Unit {
  const costs = new Map<string, number>([[stem(typed), 0]]);
  const budget = budgetOf(typed, tolerance);
  for (const [key, s] of dict) {
    const d = osa(typed, key);
    if (d <= budget && d < (costs.get(s) ?? Number.POSITIVE_INFINITY)) costs.set(s, d);
  }
  const asTyped = dict.some(([key, s]) => key === typed || s === stem(typed));
  return narrow({ typed, costs, sequences: [], exactWords: new Set() }, tolerance, asTyped);
}

function prefixUnit(typed: string, dict: readonly Entry[], tolerance: TypoTolerance): Unit {
  // The typed word's own stem counts as typed, as for a whole word.
  const ownStem = dict.some(([, s]) => s === stem(typed));
  const costs = new Map<string, number>(ownStem ? [[stem(typed), 0]] : []);
  const budget = budgetOf(typed, tolerance);
  for (const [key, s] of dict) {
    let d = Number.POSITIVE_INFINITY;
    for (let j = 0; j <= key.length; j += 1) d = Math.min(d, osa(typed, key.slice(0, j)));
    if (d <= budget && d < (costs.get(s) ?? Number.POSITIVE_INFINITY)) costs.set(s, d);
  }
  const asTyped = ownStem || dict.some(([key]) => key.startsWith(typed));
  return narrow({ typed, costs, sequences: [], exactWords: new Set() }, tolerance, asTyped);
}

/** The sequences of the unit starting at position i of the field. */
function sequencesAt(unit: Unit, field: readonly Token[], i: number): Array<{ exact: boolean }> {
  return unit.sequences.filter(({ stems }) => stems.every((st, k) => field[i + k]?.stem === st));
}

function pairAt(unit: Unit, field: readonly Token[], i: number): boolean {
  return sequencesAt(unit, field, i).length > 0;
}

/** Whether the unit matches position i: a stem of it, or one of its pairs starting there. */
function matchesAt(unit: Unit, field: readonly Token[], i: number): boolean {
  return unit.costs.has((field[i] as Token).stem) || pairAt(unit, field, i);
}

/**
 * Compound words: consecutive units also match their typed words joined (the whole word, or
 * words starting with it when the second is the prefix being typed), as typed, both of them;
 * and a unit also matches two indexed words its typed word is made of, one after the other.
 * Neither for words with a digit.
 */
function compounds(units: Unit[], dict: readonly Entry[], docs: readonly Doc[], lastIsPrefix: boolean): void {
  if (units.length === 0) return;
  const hasDigit = (w: string) => [...w].some((c) => c >= '0' && c <= '9');
  units.forEach((a, u) => {
    const b = units[u + 1];
    if (b === undefined || hasDigit(a.typed) || hasDigit(b.typed)) return;
    const whole = a.typed + b.typed;
    const prefix = lastIsPrefix && u + 2 === units.length;
    for (const [key, s] of dict)
      if (prefix ? key.startsWith(whole) : key === whole) {
        a.costs.set(s, 0);
        b.costs.set(s, 0);
      }
  });
  const words = new Map<string, string>();
  for (const doc of docs) for (const field of doc.fields) for (const t of field) words.set(t.word, t.stem);
  units.forEach((unit, u) => {
    // Complete words only: not the prefix being typed.
    if (hasDigit(unit.typed) || (lastIsPrefix && u === units.length - 1)) return;
    for (let i = 1; i < unit.typed.length; i += 1) {
      const a = words.get(unit.typed.slice(0, i));
      const b = words.get(unit.typed.slice(i));
      if (a !== undefined && b !== undefined) unit.sequences.push({ stems: [a, b], exact: false });
    }
  });
}

function containsSequence(field: readonly Token[], sequence: readonly string[]): boolean {
  for (let i = 0; i + sequence.length <= field.length; i += 1) {
    if (sequence.every((s, k) => field[i + k]?.stem === s)) return true;
  }
  return false;
}

function gap(i: number, j: number): number {
  return j > i ? j - i : i - j + 1;
}

/** The relevance tuple of a matching document: typos, proximity, attribute, inexact words. */
function rank(doc: Doc, units: Unit[], phrases: readonly (readonly string[])[]): number[] | null {
  let typos = 0;
  let inexact = 0;
  // The attribute rule: the first field (0 title, 1 searchable attributes, 2 description) holding
  // each unit and phrase; the worst of them.
  let attribute = 0;
  for (const unit of units) {
    let best = Number.POSITIVE_INFINITY;
    let exact = false;
    for (const field of doc.fields)
      field.forEach((t, i) => {
        const c = unit.costs.get(t.stem);
        if (c !== undefined) best = Math.min(best, c);
        if (c !== undefined && (t.word === unit.typed || unit.exactWords.has(t.word))) exact = true;
        const sequences = sequencesAt(unit, field, i);
        if (sequences.length > 0) best = 0;
        if (sequences.some((q) => q.exact)) exact = true;
      });
    if (best === Number.POSITIVE_INFINITY) return null;
    typos += best;
    if (!exact) inexact += 1;
    const first = doc.fields.findIndex((f) => f.some((_, i) => matchesAt(unit, f, i)));
    attribute = Math.max(attribute, first);
  }
  for (const phrase of phrases) {
    const first = doc.fields.findIndex((f) => containsSequence(f, phrase));
    if (first < 0) return null;
    attribute = Math.max(attribute, first);
  }
  let proximity = 0;
  for (let u = 0; u + 1 < units.length; u += 1) {
    const a = units[u] as Unit;
    const b = units[u + 1] as Unit;
    let best = PROXIMITY_CAP;
    for (const field of doc.fields)
      field.forEach((_x, i) => {
        if (!matchesAt(a, field, i)) return;
        field.forEach((_y, j) => {
          if (matchesAt(b, field, j)) best = Math.min(best, gap(i, j));
        });
      });
    proximity += best;
  }
  return [typos, proximity, attribute, inexact];
}

function effectiveStatus(doc: IndexDocument, now: number): string {
  return doc.status === 'active' && doc.expiresAt !== null && doc.expiresAt <= now ? 'expired' : doc.status;
}

/** The value the offer has for a declared attribute (undefined: none). */
function attr(d: IndexDocument, declaration: AttributeDeclaration): number | string | undefined {
  return attributeValue(declaration.type, d.attributes?.[declaration.name]);
}

function declared(schema: SearchSchema, name: string): AttributeDeclaration {
  const found = schema.attributes.find((a) => a.name === name);
  if (!found) throw new Error(`reference: ${name} is not declared`);
  return found;
}

function passesAttributes(d: IndexDocument, q: EngineQuery, schema: SearchSchema): boolean {
  return q.attributes.every((f) => {
    const v = attr(d, declared(schema, f.name));
    if (v === undefined) return false;
    if (f.values.length > 0 && !f.values.includes(v)) return false;
    return (f.min === null || (v as number) >= f.min) && (f.max === null || (v as number) <= f.max);
  });
}

function stats(values: readonly number[]): FacetStats | null {
  if (values.length === 0) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    min: Math.min(...values),
    max: Math.max(...values),
    sum,
    avg: sum / values.length,
    count: values.length,
  };
}

/**
 * A string attribute's values as shown: per folded value, the spelling (as written) most of the
 * documents holding it use, ties to the smaller string.
 */
function spellingsOf(documents: readonly IndexDocument[], declaration: AttributeDeclaration) {
  const per = new Map<string, Map<string, number>>();
  if (declaration.type !== 'string') return per;
  for (const d of documents) {
    const v = attr(d, declaration);
    if (v === undefined) continue;
    const written = String(d.attributes?.[declaration.name]);
    const forms = per.get(v as string) ?? new Map<string, number>();
    forms.set(written, (forms.get(written) ?? 0) + 1);
    per.set(v as string, forms);
  }
  return per;
}

function shownOf(
  spellings: Map<string, Map<string, number>>,
  declaration: AttributeDeclaration,
  v: number | string,
): string {
  const forms = spellings.get(v as string);
  if (!forms) return shownValue(declaration.type, v);
  const [best] = [...forms].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return (best as [string, number])[0];
}

function attributeFacet(
  docs: readonly IndexDocument[],
  declaration: AttributeDeclaration,
  documents: readonly IndexDocument[],
) {
  const counts = new Map<number | string, number>();
  for (const d of docs) {
    const v = attr(d, declaration);
    if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const number = declaration.type === 'number';
  const spellings = spellingsOf(documents, declaration);
  const list = [...counts]
    .map(([v, count]) => ({ v, value: shownOf(spellings, declaration, v), count }))
    .sort((a, b) => {
      if (a.count !== b.count) return b.count - a.count;
      if (number) return (a.v as number) - (b.v as number);
      // Ties by the folded value (booleans: as shown).
      const x = shownValue(declaration.type, a.v);
      const y = shownValue(declaration.type, b.v);
      return x < y ? -1 : x > y ? 1 : 0;
    })
    .slice(0, 20)
    .map(({ value, count }) => ({ value, count }));
  const numbers = number ? docs.map((d) => attr(d, declaration)).filter((v) => v !== undefined) : [];
  return { list, stats: number ? stats(numbers as number[]) : null };
}

function passesFilters(d: IndexDocument, q: EngineQuery): boolean {
  return (
    effectiveStatus(d, q.now) === q.status &&
    (q.categories.length === 0 || q.categories.includes(d.category)) &&
    q.tags.every((t) => d.tags.includes(t)) &&
    (q.city === null || d.city === q.city) &&
    (q.country === null || d.country === q.country) &&
    (q.currency === null || d.currency === q.currency) &&
    (q.priceMin === null || d.price >= q.priceMin) &&
    (q.priceMax === null || d.price <= q.priceMax) &&
    (q.publishedAfter === null || d.publishedAt >= q.publishedAfter) &&
    (q.publishedBefore === null || d.publishedAt < q.publishedBefore) &&
    (q.updatedSince === null || d.updatedAt >= q.updatedSince) &&
    (q.near === null || q.radiusKm === null || distanceKm(q.near, d) <= q.radiusKm) &&
    insideWindow(q.bbox ?? null, d.lat, d.lon)
  );
}

/** The map window: latitudes between; longitudes in one interval, or two across the antimeridian. */
function insideWindow(box: EngineQuery['bbox'] | null, lat: number, lon: number): boolean {
  if (!box) return true;
  if (!(box.minLat <= lat && lat <= box.maxLat)) return false;
  const intervals =
    box.minLon <= box.maxLon
      ? [[box.minLon, box.maxLon]]
      : [
          [box.minLon, 180],
          [-180, box.maxLon],
        ];
  return intervals.some(([from = 0, to = 0]) => from <= lon && lon <= to);
}

function compareKeys(a: readonly Key[], b: readonly Key[], directions: readonly string[]): number {
  for (let i = 0; i < directions.length; i += 1) {
    const x = a[i] as Key;
    const y = b[i] as Key;
    const c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return directions[i] === 'desc' ? -c : c;
  }
  return 0;
}

function facetCounts(docs: readonly IndexDocument[], field: FacetName): FacetCount[] {
  const counts = new Map<string, number>();
  for (const d of docs) {
    const values = field === 'tag' ? [...new Set(d.tags)] : [d[field]];
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, 20);
}

/**
 * The engine's answer to `query` over `documents`, computed by brute force. With `auto`, a query
 * that matches nothing is answered as with `all`.
 */
export function referenceSearch(
  documents: readonly IndexDocument[],
  query: EngineQuery,
  requested: readonly FacetRequest[],
  schema: SearchSchema = NO_ATTRIBUTES,
): EngineResult {
  const result = referenceWith(documents, query, requested, schema);
  if (result.total > 0 || query.typoTolerance !== 'auto') return result;
  return referenceWith(documents, { ...query, typoTolerance: 'all' }, requested, schema);
}

function referenceWith(
  documents: readonly IndexDocument[],
  query: EngineQuery,
  requested: readonly FacetRequest[],
  schema: SearchSchema,
): EngineResult {
  const facetNames = requested.filter((f): f is FacetName => !f.startsWith('attr.') && f !== 'price');
  // Searchable attributes: string ones declared so, their values' words in the order of their names.
  const searchable = schema.attributes
    .filter((a) => a.type === 'string' && a.searchable)
    .map((a) => a.name)
    .sort();
  const docs: Doc[] = documents.map((source) => {
    const values = searchable
      .map((name) => source.attributes?.[name])
      .filter((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
    return {
      source,
      fields: [
        tokensOf(source.title),
        values.flatMap((v) => tokensOf(String(v))),
        tokensOf(source.description),
      ],
    };
  });
  const text = query.text;
  const dict = text ? dictionary(docs) : [];
  const tolerance = query.typoTolerance;
  const units: Unit[] = text ? text.terms.map((t) => termUnit(t.word, dict, tolerance)) : [];
  if (text?.prefix) units.push(prefixUnit(text.prefix, dict, tolerance));
  compounds(units, dict, docs, Boolean(text?.prefix));
  const carried = applySynonyms(units, dict, docs, query.synonyms);
  carried.forEach((c, i) => {
    if (c) units[i] = narrow(units[i] as Unit, tolerance, true);
  });
  const phrases = text?.phrases ?? [];
  const excluded = text?.excluded ?? [];

  const matches: Array<{ doc: IndexDocument; keys: Key[] }> = [];
  for (const doc of docs) {
    const d = doc.source;
    if (!passesFilters(d, query) || !passesAttributes(d, query, schema)) continue;
    if (excluded.some((seq) => doc.fields.some((f) => containsSequence(f, seq)))) continue;
    const r = rank(doc, units, phrases);
    if (r === null) continue;
    let keys: Key[];
    switch (query.sort) {
      case 'relevance': {
        // The ranking tie-break: the attribute's value (none last either way) before newest.
        const by = schema.rankBy;
        if (by) {
          const v = attr(d, declared(schema, by.name));
          const t = v === undefined ? (by.descending ? -Infinity : Infinity) : (v as number);
          keys = [...r, t, d.publishedAt, d.id];
        } else keys = [...r, d.publishedAt, d.id];
        break;
      }
      case '-publishedAt':
      case 'publishedAt':
        keys = [d.publishedAt, d.id];
        break;
      case 'price':
      case '-price':
        keys = [d.price, d.id];
        break;
      case 'distance':
        keys = [query.near ? distanceKm(query.near, d) : 0, d.id];
        break;
      default: {
        const by = attributeSort(query.sort);
        if (!by) throw new Error(`reference: sort ${query.sort}`);
        const v = attr(d, declared(schema, by.name));
        keys = [v === undefined ? (by.descending ? -Infinity : Infinity) : (v as number), d.id];
      }
    }
    matches.push({ doc: d, keys });
  }
  const rankBy = query.sort === 'relevance' ? (schema.rankBy ?? null) : null;
  const directions = sortKeysOf(query.sort, rankBy);
  matches.sort((a, b) => compareKeys(a.keys, b.keys, directions));
  // distinct=publisher: the first match of each publisher in that order; the facets count every match.
  const publishers = new Set<string>();
  const kept = query.distinct
    ? matches.filter((m) => !publishers.has(m.doc.publisher) && publishers.add(m.doc.publisher))
    : matches;
  // An attribute sort's (or tie-break's) offers without the attribute travel as `none` in cursors.
  const valueAt = rankBy ? 4 : query.sort === 'relevance' ? -1 : 0;
  const none = (rankBy ? !rankBy.descending : !query.sort.startsWith('-')) ? Infinity : -Infinity;
  const after = query.after?.map((k, i) => (i === valueAt && k === 'none' ? none : k)) ?? null;
  const rest = after ? kept.filter((m) => compareKeys(m.keys, after, directions) > 0) : kept;
  const page = rest.slice(0, query.limit);
  const facets: Facets = {};
  for (const name of facetNames)
    facets[name] = facetCounts(
      matches.map((m) => m.doc),
      name,
    );
  const facetStats: NonNullable<EngineResult['facetStats']> = {};
  for (const name of requested) {
    if (name === 'price') {
      const s = stats(matches.map((m) => m.doc.price / 10_000));
      if (s) facetStats.price = s;
    } else if (name.startsWith('attr.')) {
      const key = name as `attr.${string}`;
      const { list, stats: s } = attributeFacet(
        matches.map((m) => m.doc),
        declared(schema, key.slice(5)),
        documents,
      );
      facets[key] = list;
      if (s) facetStats[key] = s;
    }
  }
  const last = page[page.length - 1];
  const extra = requested.some((f) => f === 'price' || f.startsWith('attr.'));
  return {
    ids: page.map((m) => m.doc.id),
    total: kept.length,
    facets,
    ...(extra ? { facetStats } : {}),
    nextKeys:
      rest.length > page.length && last
        ? last.keys.map((k, i) =>
            i === valueAt && typeof k === 'number' && !Number.isFinite(k) ? 'none' : k,
          )
        : null,
  };
}

/**
 * Facet-value search by brute force: the reference's whole match set (no page, no cursor), every
 * value of `facet` counted over it, those starting with `prefix` (both folded), most frequent
 * first, ties by value (numbers as numbers), the first `limit`.
 */
export function referenceFacetValues(
  documents: readonly IndexDocument[],
  query: EngineQuery,
  facet: FacetName | `attr.${string}`,
  prefix: string,
  limit: number,
  schema: SearchSchema = NO_ATTRIBUTES,
): FacetCount[] {
  const all = { ...query, limit: Number.MAX_SAFE_INTEGER, after: null };
  const ids = new Set(referenceSearch(documents, all, [], schema).ids);
  const matches = documents.filter((d) => ids.has(d.id));
  const counts = new Map<string, { v: number | string; count: number }>();
  const declaration = facet.startsWith('attr.') ? declared(schema, facet.slice(5)) : null;
  const spellings = declaration ? spellingsOf(documents, declaration) : new Map();
  for (const d of matches) {
    let values: Array<number | string>;
    if (declaration) {
      const v = attr(d, declaration);
      values = v === undefined ? [] : [v];
    } else values = facet === 'tag' ? [...new Set(d.tags)] : [d[facet as Exclude<FacetName, 'tag'>]];
    for (const v of values) {
      const shown = declaration ? shownOf(spellings, declaration, v) : String(v);
      const entry = counts.get(shown) ?? { v, count: 0 };
      entry.count += 1;
      counts.set(shown, entry);
    }
  }
  const wanted = foldString(prefix);
  const numeric = declaration?.type === 'number';
  return [...counts]
    .filter(([value]) => foldString(value).startsWith(wanted))
    .sort(([a, x], [b, y]) => {
      if (x.count !== y.count) return y.count - x.count;
      if (numeric) return (x.v as number) - (y.v as number);
      // Ties by the value as compared (strings folded), not as shown.
      const p = declaration ? shownValue(declaration.type, x.v) : a;
      const q = declaration ? shownValue(declaration.type, y.v) : b;
      return p < q ? -1 : p > q ? 1 : 0;
    })
    .slice(0, limit)
    .map(([value, { count }]) => ({ value, count }));
}
