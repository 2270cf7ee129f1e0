/**
 * The catalogue-search scenarios of issue 23 for the HTTP bench (run.ts): what the bench declares
 * before serving (five attributes the seed really produces, a few synonyms) and, per new query
 * type, a cycling list of varied requests drawn with a fixed seed from the seeded offers' own
 * words and values. `typing` is never repeated: one to three whole words and a 2–4-letter prefix
 * of the next word, taken from one offer's text, tens of thousands of distinct queries.
 */

import { DEFAULT_SEED, generateOffers } from '../src/offers/seed.js';
import { CITIES, TAGS } from '../src/offers/seed-data.js';
import { random } from './random.js';

export interface Declaration {
  name: string;
  type: 'string' | 'number' | 'boolean';
  facet: boolean;
  sort: boolean;
}

/**
 * Five attributes of the seed (src/offers/seed-data.ts): a brand and a condition on goods, a
 * material on furniture, the storage of phones and tablets, a vehicle's model year.
 */
export const BENCH_ATTRIBUTES: readonly Declaration[] = [
  { name: 'brand', type: 'string', facet: true, sort: false },
  { name: 'condition', type: 'string', facet: true, sort: false },
  { name: 'material', type: 'string', facet: true, sort: false },
  { name: 'storageGb', type: 'number', facet: true, sort: true },
  { name: 'year', type: 'number', facet: true, sort: true },
];

/**
 * Synonyms whose query words the offers do not hold (couch, notebook, …: found only through the
 * rule) or both hold (flat, apartment: the query widens), one-way and multi-word ones included.
 */
export const BENCH_SYNONYMS: readonly { words: string[]; oneWay: boolean }[] = [
  { words: ['sofa', 'couch', 'settee'], oneWay: false },
  { words: ['laptop', 'notebook'], oneWay: false },
  { words: ['automobile', 'car'], oneWay: false },
  { words: ['bicycle', 'push bike'], oneWay: false },
  { words: ['flat', 'apartment'], oneWay: false },
  { words: ['cellphone', 'smartphone'], oneWay: true },
  { words: ['puppy', 'dog'], oneWay: true },
  { words: ['kitten', 'cat'], oneWay: true },
];
/** Each synonym query word, with the word of the offers it stands for. */
const SYNONYM_QUERIES: readonly [string, string][] = [
  ['couch', 'sofa'],
  ['settee', 'sofa'],
  ['notebook', 'laptop'],
  ['automobile', 'car'],
  ['push bike', 'bicycle'],
  ['flat', 'apartment'],
  ['apartment', 'flat'],
  ['cellphone', 'smartphone'],
  ['puppy', 'dog'],
  ['kitten', 'cat'],
];

/** Distinct requests per type (typing: see TYPING_LENGTH). */
const TYPE_LENGTH = 2_000;
/**
 * Typing queries: at 1 connection and BENCH_SECONDS=10 a fast machine sends well under this many
 * (1 s of warm-up included); run.ts says so when a run came back to the start of the list.
 */
export const TYPING_LENGTH = 60_000;
/** Offers whose words the queries are drawn from: the first of `vitrine seed`'s own. */
const SOURCE_OFFERS = 20_000;
const CATEGORIES = [
  'furniture',
  'vehicles',
  'electronics',
  'fashion',
  'sports',
  'real-estate',
  'home-garden',
];
const COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'PL', 'NL', 'GB', 'US', 'JP', 'AU', 'CA', 'SE'];
const COMMON = ['condition', 'delivery', 'used', 'good', 'price', 'available'];

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const words = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const pick = <T>(list: readonly T[], r: () => number) => list[Math.floor(r() * list.length)] as T;
const int = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const enc = encodeURIComponent;

/** `length` distinct results of `make` (null: none this time), or fewer when it cannot make that many. */
function distinct(make: (r: () => number) => string | null, seed: number, length = TYPE_LENGTH): string[] {
  const r = random(seed);
  const out = new Set<string>();
  for (let tries = 0; out.size < length && tries < length * 50; tries += 1) {
    const made = make(r);
    if (made !== null) out.add(made);
  }
  return [...out];
}

interface Source {
  offers: { title: string[]; category: string; country: string }[];
  texts: string[][];
  brands: string[];
}

function source(): Source {
  const generated = [...generateOffers({ count: SOURCE_OFFERS, seed: DEFAULT_SEED })];
  const brands = new Set<string>();
  for (const o of generated) {
    const brand = o.attributes?.brand;
    if (typeof brand === 'string') brands.add(brand);
  }
  const offers = generated
    .filter((o) => o.status === 'active')
    .map((o) => ({
      title: words(o.title).filter((w) => w.length >= 4 && /^\p{L}+$/u.test(w)),
      category: o.category,
      country: o.location.country,
    }))
    .filter((o) => o.title.length > 0);
  return {
    offers,
    texts: generated.flatMap((o) => [words(o.title), ...o.description.split(/[.!?]\s/).map(words)]),
    brands: [...brands],
  };
}

/** `attr`: a number attribute's range, facets on attributes and price (with their stats). */
function attr(): string[] {
  return distinct((r) => {
    const facets = (...f: string[]) => `facets=${[...f, 'price'].join(',')}`;
    if (r() < 0.5) {
      // Vehicles: a model-year range, alone, in the category, after a word, sorted by it.
      const min = int(r, 2008, 2024);
      const parts = [`attr.year.min=${min}`];
      if (r() < 0.7) parts.push(`attr.year.max=${int(r, min, 2026)}`);
      if (r() < 0.4) parts.unshift('category=vehicles');
      if (r() < 0.3) parts.unshift(`q=${pick(['car', 'diesel', 'petrol', 'hybrid', 'automatic', 'km'], r)}`);
      if (r() < 0.3) parts.push(`country=${pick(COUNTRIES, r)}`);
      if (r() < 0.2) parts.push(`sort=${pick(['-attr.year', 'attr.year'], r)}`);
      return [...parts, facets('attr.year')].join('&');
    }
    // Phones and tablets: a storage range, with their brands and conditions counted.
    const min = pick([32, 64, 128], r);
    const parts = [`attr.storageGb.min=${min}`];
    if (r() < 0.6) parts.push(`attr.storageGb.max=${min * pick([2, 4, 8], r)}`);
    if (r() < 0.3) parts.unshift('category=electronics');
    if (r() < 0.5)
      parts.unshift(`q=${pick(['phone', 'tablet', 'samsung', 'apple', 'galaxy', 'pixel', 'ipad'], r)}`);
    if (r() < 0.3) parts.push(`attr.condition=${pick(['good', 'very-good', 'like-new'], r)}`);
    if (r() < 0.3) parts.push(`priceMax=${50 * int(r, 2, 30)}`);
    if (r() < 0.2) parts.push(`sort=${pick(['-attr.storageGb', 'attr.storageGb'], r)}`);
    return [...parts, facets('attr.storageGb', 'attr.brand', 'attr.condition')].join('&');
  }, 11);
}

/** `synonym`: the synonym words alone, or beside a word of an offer holding the word they stand for. */
function synonym(s: Source): string[] {
  const beside = new Map(
    SYNONYM_QUERIES.map(([, target]) => [
      target,
      [...new Set(s.offers.filter((o) => o.title.includes(target)).flatMap((o) => o.title))].filter(
        (w) => w !== target,
      ),
    ]),
  );
  return distinct((r) => {
    const [query, target] = pick(SYNONYM_QUERIES, r);
    const other = beside.get(target) ?? [];
    const roll = r();
    let q = query;
    if (roll < 0.45 && other.length > 0) q = `${pick(other, r)} ${query}`;
    else if (roll < 0.7 && other.length > 0) q = `${query} ${pick(other, r)}`;
    const parts = [`q=${enc(q)}`];
    if (r() < 0.3) parts.push(`priceMin=${int(r, 1, 100)}`);
    if (r() < 0.2) parts.push('facets=category,country');
    return parts.join('&');
  }, 12);
}

/** `facet-values`: the values of a facet starting with 1 to 3 letters, within a search or all offers. */
function facetValues(s: Source): string[] {
  const facets: [string, string[]][] = [
    ['city', CITIES.map((c) => c.name)],
    ['tag', TAGS.map((t) => t.slug)],
    ['category', CATEGORIES],
    ['attr.brand', s.brands],
    ['attr.material', ['oak', 'pine', 'walnut', 'beech', 'metal', 'cotton', 'leather', 'wool']],
    ['attr.condition', ['new', 'like-new', 'very-good', 'good', 'fair']],
  ];
  return distinct((r) => {
    const [facet, values] = pick(facets, r);
    const parts = [`facet=${facet}`, `prefix=${enc(fold(pick(values, r)).slice(0, int(r, 1, 3)))}`];
    const scope = r();
    if (scope < 0.35) parts.push(`q=${enc(r() < 0.5 ? pick(COMMON, r) : pick(pick(s.offers, r).title, r))}`);
    else if (scope < 0.6) parts.push(`category=${pick(CATEGORIES, r)}`);
    else if (scope < 0.75) parts.push(`country=${pick(COUNTRIES, r)}`);
    if (r() < 0.3) parts.push(`limit=${pick([5, 20, 50], r)}`);
    return `/v1/offers/facet-values?${parts.join('&')}`;
  }, 13);
}

/** `distinct`: one offer per publisher, after a word of an offer, with its category or country. */
function distinctPublisher(s: Source): string[] {
  return distinct((r) => {
    const offer = pick(s.offers, r);
    const roll = r();
    const parts: string[] = [];
    if (roll < 0.7) parts.push(`q=${enc(r() < 0.3 ? pick(COMMON, r) : pick(offer.title, r))}`);
    if (roll >= 0.4) parts.push(`category=${offer.category}`);
    if (r() < 0.3) parts.push(`country=${offer.country}`);
    return [...parts, 'distinct=publisher'].join('&');
  }, 14);
}

/** `bbox`: map windows from a district to a country around the seed's cities, sometimes with a word. */
function bbox(): string[] {
  return distinct((r) => {
    const city = pick(CITIES, r);
    const half = pick([0.02, 0.05, 0.1, 0.3, 1, 3], r) * (0.8 + 0.4 * r());
    const lat = city.lat + (r() - 0.5) * half;
    const lon = city.lon + (r() - 0.5) * half;
    const edge = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n)).toFixed(4);
    const window = [
      edge(lat - half, -90, 90),
      edge(lon - half * 1.5, -180, 180),
      edge(lat + half, -90, 90),
      edge(lon + half * 1.5, -180, 180),
    ].join(',');
    // One window in twenty crosses the antimeridian: from East Asia and Oceania over the Pacific.
    const crossing = `${int(r, -45, -20)},${int(r, 95, 150)},${int(r, 40, 62)},${int(r, -130, -70)}`;
    const parts = [`bbox=${r() < 0.05 ? crossing : window}`];
    const roll = r();
    if (roll < 0.25) parts.push(`q=${pick(COMMON, r)}`);
    else if (roll < 0.45) parts.push(`category=${pick(CATEGORIES, r)}`);
    if (r() < 0.2) parts.push(`sort=${pick(['price', '-price'], r)}`);
    if (r() < 0.15) parts.push('facets=category');
    return parts.join('&');
  }, 15);
}

/**
 * `typing`: what a person sends while typing, the slow shape of the issue: one to three whole
 * words of an offer's sentence, then the first 2–4 letters of its next word. Never repeated.
 */
function typing(s: Source): string[] {
  const texts = s.texts.filter((t) => t.length >= 2);
  return distinct(
    (r) => {
      const text = pick(texts, r);
      const whole = Math.min(int(r, 1, 3), text.length - 1);
      const at = int(r, 0, text.length - 1 - whole);
      const next = text[at + whole] as string;
      const cut = Math.min(int(r, 2, 4), next.length - 1);
      // A prefix is letters, shorter than its word.
      if (cut < 2 || !/^\p{L}+$/u.test(next)) return null;
      return `q=${enc([...text.slice(at, at + whole), next.slice(0, cut)].join(' '))}`;
    },
    16,
    TYPING_LENGTH,
  );
}

/**
 * Issue 23: the declared attributes and the synonyms of the catalogue scenarios, through the CLI
 * before the server starts (its index then carries the attribute columns). Only what is missing
 * or different: a reused data set keeps its settings (and their version) from one run to the next.
 */
export function declareCatalogue(vitrine: (args: string[]) => string): void {
  const json = <T>(args: string[]) => JSON.parse(vitrine([...args, '--env', 'testing', '--json'])) as T;
  const { attributes } = json<{ attributes: Declaration[] }>(['attributes', 'list']);
  for (const a of BENCH_ATTRIBUTES) {
    const declared = attributes.find((d) => d.name === a.name);
    if (declared && declared.type === a.type && declared.facet === a.facet && declared.sort === a.sort)
      continue;
    json([
      'attributes',
      'set',
      a.name,
      '--type',
      a.type,
      ...(a.facet ? ['--facet'] : []),
      ...(a.sort ? ['--sort'] : []),
    ]);
  }
  const { synonyms } = json<{ synonyms: { words: string[]; oneWay: boolean }[] }>(['synonyms', 'list']);
  const rule = (s: { words: string[]; oneWay: boolean }) => `${s.oneWay}:${s.words.join('|').toLowerCase()}`;
  for (const s of BENCH_SYNONYMS)
    if (!synonyms.some((t) => rule(t) === rule(s)))
      json(['synonyms', 'add', ...(s.oneWay ? ['--one-way'] : []), ...s.words]);
}

export interface CatalogueType {
  id: string;
  name: string;
  /** Paths with their query string. */
  paths: string[];
}

/** The new scenarios, in the order they run. */
export function catalogueTypes(): CatalogueType[] {
  const s = source();
  const search = (queries: string[]) => queries.map((q) => `/v1/offers/?${q}`);
  return [
    { id: 'attr', name: 'attribute range + facet stats', paths: search(attr()) },
    { id: 'synonym', name: 'synonym query', paths: search(synonym(s)) },
    { id: 'facet-values', name: 'facet-value search', paths: facetValues(s) },
    { id: 'distinct', name: 'one per publisher (distinct)', paths: search(distinctPublisher(s)) },
    { id: 'bbox', name: 'map window (bbox)', paths: search(bbox()) },
    { id: 'typing', name: 'typing: words + prefix, never repeated', paths: search(typing(s)) },
  ];
}
