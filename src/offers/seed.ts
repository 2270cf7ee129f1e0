/**
 * Deterministic synthetic offers for demos, load tests and search tuning.
 *
 * Offer i is a pure function of (i, seed, anchorMs): each offer gets its own
 * PRNG seeded from a hash of seed and index, so any slice of a huge data set can
 * be regenerated independently (in chunks, in parallel, or to debug one offer).
 * The vocabulary lives in seed-data.ts; this file compiles it once at load and
 * refuses data that could produce an invalid offer, so per-offer code can stay
 * free of checks, regexes and JSON work (1M offers must take well under 10 s).
 */
import type { OfferInput } from './offer-input.js';
import {
  ATTRIBUTE_TAGS,
  type AttributeSpec,
  type AttributeTag,
  type AttributeValue,
  CATEGORIES,
  type CategoryKind,
  type CategorySpec,
  CITIES,
  type CitySpec,
  CONDITIONS,
  COUNTRIES,
  type ConditionSpec,
  type CountrySpec,
  FIRST_NAMES,
  KIND_POOLS,
  type Sentence,
  SHOP_PREFIXES,
  TAGS,
} from './seed-data.js';

export interface SeedOptions {
  count: number;
  /** Default 42. */
  seed?: number;
  /** Index of the first offer; lets a big seed be generated in chunks. Default 0. */
  startIndex?: number;
  /** "Now" for publication and expiry dates. Default 2026-11-01T00:00:00Z. */
  anchorMs?: number;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_ANCHOR_MS = Date.UTC(2026, 10, 1);

const DAY_S = 86_400;
const MAX_JITTER_DEG = 0.045;
const SHOP_SHARE: Readonly<Record<CategoryKind, number>> = {
  goods: 0.35,
  vehicle: 0.45,
  property: 0.6,
  job: 0.95,
  service: 0.5,
};

// ---------------------------------------------------------------- randomness

/** Murmur3 finaliser: spreads nearby inputs (index 7 vs 8) over the whole state space. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Both halves of each number are mixed so seeds and indices beyond 2^32 still differ. */
function offerSeed(seed: number, index: number): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ Math.floor(seed / 0x1_0000_0000));
  h = mix32(h ^ index);
  return mix32(h ^ Math.floor(index / 0x1_0000_0000) ^ 0x632be5ab);
}

/** mulberry32: tiny state, fast, and good enough for synthetic data. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed | 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), this.state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng.next() * items.length)];
  if (item === undefined) throw new Error('seed: pick from an empty list');
  return item;
}

class Weighted<T> {
  private readonly entries: readonly { item: T; upTo: number }[];
  private readonly total: number;
  constructor(items: readonly T[], weight: (item: T) => number) {
    let total = 0;
    this.entries = items.map((item) => ({ item, upTo: (total += weight(item)) }));
    this.total = total;
  }
  pick(rng: Rng): T {
    const r = rng.next() * this.total;
    for (const e of this.entries) if (r < e.upTo) return e.item;
    // Only reachable through float rounding at the very top of the range.
    return pick(rng, this.entries).item;
  }
}

// ------------------------------------------------------------------ templates

const SLOT = {
  attr: 0,
  adj: 1,
  noun: 2,
  brand: 3,
  item: 4,
  extra: 5,
  qual: 6,
  cond: 7,
  city: 8,
  country: 9,
  lang: 10,
  years: 11,
  km: 12,
  days: 13,
} as const;
type SlotName = Exclude<keyof typeof SLOT, 'attr'>;
const isSlotName = (s: string): s is SlotName => s !== 'attr' && s in SLOT;

interface SlotRef {
  readonly code: (typeof SLOT)[keyof typeof SLOT];
  readonly name: string;
  readonly grouped: boolean;
  readonly article: boolean;
}
interface Template {
  readonly parts: readonly (string | SlotRef)[];
  readonly tag: string | null;
}

function compile(text: string, tag: string | null = null): Template {
  const parts: (string | SlotRef)[] = [];
  let at = 0;
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', at)) {
    const close = text.indexOf('}', open);
    if (close < 0) throw new Error(`seed: unclosed slot in "${text}"`);
    if (open > at) parts.push(text.slice(at, open));
    const [name = '', mod = ''] = text.slice(open + 1, close).split(':');
    parts.push({
      code: isSlotName(name) ? SLOT[name] : SLOT.attr,
      name,
      grouped: mod === 'n',
      article: mod === 'a',
    });
    at = close + 1;
  }
  if (at < text.length) parts.push(text.slice(at));
  return { parts, tag };
}
const compileSentence = (s: Sentence): Template => compile(s.text, s.tag ?? null);

function groupThousands(n: number): string {
  const s = String(n);
  const head = s.length % 3 || 3;
  let out = s.slice(0, head);
  for (let i = head; i < s.length; i += 3) out += `,${s.slice(i, i + 3)}`;
  return out;
}

const VOWEL_SOUNDING_CONSONANT = ['uni', 'use', 'uku', 'eu', 'one'];
function withArticle(s: string): string {
  const c = s.charCodeAt(0) | 32; // ASCII lower-case
  const vowel =
    (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) &&
    !VOWEL_SOUNDING_CONSONANT.some((p) => s.toLowerCase().startsWith(p));
  return (vowel ? 'an ' : 'a ') + s;
}

/** Upper-cases the first letter unless the word is styled like "iRobot". */
function capitalise(s: string): string {
  const c = s.charCodeAt(0);
  const next = s.charCodeAt(1);
  if (c < 97 || c > 122 || (next >= 65 && next <= 90)) return s;
  return String.fromCharCode(c - 32) + s.slice(1);
}

// ------------------------------------------------------- compiled vocabulary

interface CompiledItem {
  readonly noun: string;
  readonly brands: readonly string[];
  readonly extras: readonly string[];
  readonly qualifier: string;
  readonly price: readonly [number, number];
  readonly attributes: readonly AttributeSpec[];
  readonly titles: readonly Template[];
  readonly brandTitles: readonly Template[];
  readonly openers: readonly Template[];
  readonly status: readonly Template[];
  readonly details: readonly Template[];
  readonly logistics: readonly Template[];
  readonly closings: readonly Template[];
  readonly rare: readonly Template[];
}
interface Publisher {
  readonly id: string;
  readonly name: string;
}
interface CompiledCategory {
  readonly spec: CategorySpec;
  readonly items: readonly CompiledItem[];
  /** Tags that may be drawn at random; implied ones only come from hints. */
  readonly tags: readonly string[];
  readonly attributeTags: readonly AttributeTag[];
  readonly shops: readonly Publisher[];
}
interface CompiledCondition {
  readonly spec: ConditionSpec;
  readonly sentences: readonly Template[];
}

/** Candidate fillings of a slot, used only to bound title length at load time. */
function slotCandidates(
  ref: SlotRef,
  spec: CategorySpec,
  item: CompiledItem,
  brandContext: boolean,
): readonly string[] {
  const itemTexts = brandContext ? item.brands.map((b) => joinBrand(spec, item.noun, b)) : [item.noun];
  const byName: Readonly<Record<SlotName, readonly string[]>> = {
    adj: spec.adjectives,
    noun: [item.noun],
    brand: item.brands,
    item: itemTexts,
    extra: item.extras,
    qual: [item.qualifier],
    cond: CONDITIONS.map((c) => c.label),
    city: CITIES.map((c) => c.name),
    country: COUNTRIES.map((c) => c.name),
    lang: COUNTRIES.map((c) => c.language),
    years: ['10'],
    km: ['10'],
    days: ['10'],
  };
  if (isSlotName(ref.name)) return byName[ref.name];
  const attr = item.attributes.find((a) => a.key === ref.name);
  if (attr?.kind === 'enum') return attr.values.map(String);
  if (attr?.kind === 'const') return [String(attr.value)];
  return ['1'];
}

function wordCountRange(
  t: Template,
  spec: CategorySpec,
  item: CompiledItem,
  brandContext: boolean,
): [number, number] {
  const words = (s: string): number => s.split(' ').filter((w) => w !== '').length;
  const render = (longest: boolean): string =>
    t.parts
      .map((p) => {
        if (typeof p === 'string') return p;
        const sorted = [...slotCandidates(p, spec, item, brandContext)].sort((a, b) => words(a) - words(b));
        const v = (longest ? sorted[sorted.length - 1] : sorted[0]) ?? '';
        return p.article ? withArticle(v) : v;
      })
      .join('');
  return [words(render(false)), words(render(true))];
}

function mergeAttributes(base: readonly AttributeSpec[], extra: readonly AttributeSpec[]): AttributeSpec[] {
  const out = [...base];
  for (const a of extra) {
    const at = out.findIndex((b) => b.key === a.key);
    if (at >= 0) out[at] = a;
    else out.push(a);
  }
  return out.filter((a) => a.p > 0);
}

function compileCategory(spec: CategorySpec, shops: readonly Publisher[]): CompiledCategory {
  const fail = (msg: string): never => {
    throw new Error(`seed-data: ${spec.slug}: ${msg}`);
  };
  const pools = KIND_POOLS[spec.kind];
  const all = {
    titles: spec.titles.map((t) => compile(t)),
    brandTitles: spec.brandTitles.map((t) => compile(t)),
    openers: pools.openers.map(compileSentence),
    status: pools.status.map(compileSentence),
    details: spec.details.map((t) => compile(t)),
    logistics: pools.logistics.map(compileSentence),
    closings: pools.closings.map(compileSentence),
    rare: pools.rare.map(compileSentence),
  };
  const items = spec.items.map((raw): CompiledItem => {
    const attributes = mergeAttributes(spec.attributes, raw.attributes ?? []);
    const seen = new Set<string>();
    for (const a of attributes) {
      const dependsOn = a.kind === 'per-year' ? a.yearKey : a.kind === 'per-unit' ? a.unitKey : null;
      if (dependsOn !== null && !seen.has(dependsOn)) fail(`${a.key} needs ${dependsOn} before it`);
      if (a.p >= 1 && a.kind !== 'brand') seen.add(a.key);
    }
    if (seen.size < 1 || attributes.length > 4) fail(`${raw.noun}: needs 1..4 attributes`);
    const price = raw.price ?? spec.price;
    if (price[0] <= 0 || price[0] > price[1] || price[0] < spec.price[0] || price[1] > spec.price[1])
      fail(`${raw.noun}: bad price range`);
    const base: CompiledItem = {
      noun: raw.noun,
      brands: raw.brands ?? [],
      extras: raw.extras ?? spec.extras,
      qualifier: raw.qualifier ?? '',
      price,
      attributes,
      titles: [],
      brandTitles: [],
      openers: [],
      status: [],
      details: [],
      logistics: [],
      closings: [],
      rare: [],
    };
    // Templates silently drop out for items that cannot fill them (no rooms in an office).
    const available = new Set([
      ...seen,
      'adj',
      'noun',
      'item',
      'city',
      'country',
      'lang',
      'years',
      'km',
      'days',
    ]);
    if (base.extras.length > 0) available.add('extra');
    if (base.qualifier !== '') available.add('qual');
    if (spec.kind === 'goods') available.add('cond');
    const fits = (extra: string | null) => (t: Template) =>
      t.parts.every((p) => typeof p === 'string' || available.has(p.name) || p.name === extra);
    const titleFits = (brandContext: boolean) => (t: Template) => {
      const [min, max] = wordCountRange(t, spec, base, brandContext);
      if (min < 3 || max > 9)
        fail(
          `"${t.parts.map((p) => (typeof p === 'string' ? p : `{${p.name}}`)).join('')}" can have ${min}..${max} words for ${raw.noun}`,
        );
      return true;
    };
    const compiled: CompiledItem = {
      ...base,
      titles: all.titles.filter(fits(null)).filter(titleFits(false)),
      brandTitles:
        base.brands.length > 0 ? all.brandTitles.filter(fits('brand')).filter(titleFits(true)) : [],
      openers: all.openers.filter(fits(null)),
      status: all.status.filter(fits(null)),
      details: all.details.filter(fits(null)),
      logistics: all.logistics.filter(fits(null)),
      closings: all.closings.filter(fits(null)),
      rare: all.rare.filter(fits(null)),
    };
    const brandOnly = spec.brandRate >= 1 && compiled.brands.length > 0;
    if (compiled.titles.length === 0 && !brandOnly) fail(`${raw.noun}: no usable title`);
    if (compiled.brandTitles.length === 0 && compiled.brands.length > 0 && spec.brandRate > 0)
      fail(`${raw.noun}: no brand title`);
    if (compiled.openers.length === 0 || (compiled.status.length === 0 && spec.kind !== 'goods'))
      fail(`${raw.noun}: no opener/status`);
    return compiled;
  });
  const kindTags = TAGS.filter((t) => t.kinds.includes(spec.kind));
  const tags = kindTags.filter((t) => t.implied !== true).map((t) => t.slug);
  if (tags.length < 4) fail('needs at least 4 random tags to draw from');
  const known = (tag: string): boolean => kindTags.some((t) => t.slug === tag);
  const hinted = [
    ...Object.values(all).flat(),
    ...(spec.kind === 'goods' ? COMPILED_CONDITIONS.flatMap((c) => c.sentences) : []),
  ];
  for (const t of hinted)
    if (t.tag !== null && !known(t.tag)) fail(`sentence tag ${t.tag} is not a ${spec.kind} tag`);
  const keys = new Set(items.flatMap((i) => i.attributes.map((a) => a.key)));
  const attributeTags = ATTRIBUTE_TAGS.filter((r) => keys.has(r.key));
  for (const r of attributeTags) if (!known(r.tag)) fail(`attribute tag ${r.tag} is not a ${spec.kind} tag`);
  return { spec, items, tags, attributeTags, shops };
}

/** A fixed pool (independent of the seed option) so publishers stay stable across seeds. */
function buildPublishers(): { persons: Publisher[]; shops: Publisher[][] } {
  const rng = new Rng(0x5eed_f00d);
  const ids = new Set<string>();
  const names = new Set<string>();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const publisher = (makeName: () => string): Publisher => {
    let id = '';
    while (id === '' || ids.has(id)) id = Array.from({ length: 6 }, () => pick(rng, [...alphabet])).join('');
    let name = makeName();
    while (names.has(name)) name = makeName();
    ids.add(id);
    names.add(name);
    return { id: `pub_${id}`, name };
  };
  const initials = [...'ABCDEFGHIJKLMNOPRSTVWZ'];
  const persons = Array.from({ length: 116 }, () =>
    publisher(() => `${pick(rng, FIRST_NAMES)} ${pick(rng, initials)}.`),
  );
  const shops = CATEGORIES.map((c) =>
    Array.from({ length: 7 }, () => publisher(() => `${pick(rng, SHOP_PREFIXES)} ${pick(rng, c.shopWords)}`)),
  );
  return { persons, shops };
}

const COMPILED_CONDITIONS: readonly CompiledCondition[] = CONDITIONS.map((spec) => ({
  spec,
  sentences: spec.sentences.map(compileSentence),
}));
const PUBLISHERS = buildPublishers();
const COMPILED_CATEGORIES = CATEGORIES.map((spec, i) => compileCategory(spec, PUBLISHERS.shops[i] ?? []));
const CATEGORY_PICKER = new Weighted(COMPILED_CATEGORIES, (c) => c.spec.weight);
const CONDITION_PICKER = new Weighted(COMPILED_CONDITIONS, (c) => c.spec.weight);
const CITY_PICKER = new Weighted(CITIES, (c) => c.weight);
const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
for (const city of CITIES)
  if (!COUNTRY_BY_CODE.has(city.country)) throw new Error(`seed-data: unknown country ${city.country}`);
const TAG_COUNT_PICKER = new Weighted([0, 1, 2, 3, 4], (n) => [20, 30, 25, 15, 10][n] ?? 0);

// ------------------------------------------------------------------ per offer

interface Ctx {
  readonly rng: Rng;
  readonly spec: CategorySpec;
  readonly item: CompiledItem;
  readonly brand: string;
  readonly itemText: string;
  readonly condition: CompiledCondition | null;
  readonly city: CitySpec;
  readonly country: CountrySpec;
  readonly attributes: Record<string, AttributeValue>;
  readonly tags: string[];
  /** Drawn on first use so the title and description agree ("junior" in both). */
  adjective: string | null;
}

function joinBrand(spec: CategorySpec, noun: string, brand: string): string {
  if (brand === '') return noun;
  return spec.brandPosition === 'after' ? `${noun} ${brand}` : `${brand} ${noun}`;
}

function slotValue(ref: SlotRef, ctx: Ctx): string | number {
  const { rng } = ctx;
  switch (ref.code) {
    case SLOT.attr:
      return ctx.attributes[ref.name] ?? '';
    case SLOT.adj:
      return (ctx.adjective ??= pick(rng, ctx.spec.adjectives));
    case SLOT.noun:
      return ctx.item.noun;
    case SLOT.brand:
      return ctx.brand;
    case SLOT.item:
      return ctx.itemText;
    case SLOT.extra:
      return pick(rng, ctx.item.extras);
    case SLOT.qual:
      return ctx.item.qualifier;
    case SLOT.cond:
      return ctx.condition?.spec.label ?? '';
    case SLOT.city:
      return ctx.city.name;
    case SLOT.country:
      return ctx.country.name;
    case SLOT.lang:
      return ctx.country.language;
    case SLOT.years:
      return rng.int(2, 12);
    case SLOT.km:
      return 5 * rng.int(1, 10);
    case SLOT.days:
      return rng.int(2, 14);
  }
}

function render(t: Template, ctx: Ctx): string {
  let out = '';
  for (const p of t.parts) {
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = slotValue(p, ctx);
    const s = typeof v === 'number' && p.grouped ? groupThousands(v) : String(v);
    out += p.article ? withArticle(s) : s;
  }
  if (t.tag !== null) hintTag(ctx, t.tag);
  return capitalise(out);
}

/** Text and attributes add the tags they imply ("Pickup only" -> pickup-only), most of the time. */
function hintTag(ctx: Ctx, tag: string): void {
  if (ctx.tags.length < 4 && !ctx.tags.includes(tag) && ctx.rng.chance(0.7)) ctx.tags.push(tag);
}

let cachedAnchorMs = Number.NaN;
let cachedAnchorYear = 0;
function anchorYear(anchorMs: number): number {
  if (anchorMs !== cachedAnchorMs) {
    cachedAnchorMs = anchorMs;
    cachedAnchorYear = new Date(anchorMs).getUTCFullYear();
  }
  return cachedAnchorYear;
}

function generateAttributes(specs: readonly AttributeSpec[], ctx: Ctx, year: number): void {
  const { rng, attributes: out } = ctx;
  for (const a of specs) {
    if (a.p < 1 && !rng.chance(a.p)) continue;
    switch (a.kind) {
      case 'const':
        out[a.key] = a.value;
        break;
      case 'enum':
        out[a.key] = pick(rng, a.values);
        break;
      case 'int':
        out[a.key] = a.min + a.step * rng.int(0, Math.floor((a.max - a.min) / a.step));
        break;
      case 'year':
        out[a.key] = year - rng.int(0, a.maxAge);
        break;
      case 'per-year': {
        const built = out[a.yearKey];
        // Half a year of use even for this year's models, so mileage is never 0.
        const age = typeof built === 'number' ? Math.max(year - built, 0) + 0.5 : 1;
        out[a.key] = Math.max(
          a.step,
          Math.round((age * (a.min + rng.next() * (a.max - a.min))) / a.step) * a.step,
        );
        break;
      }
      case 'per-unit': {
        const units = out[a.unitKey];
        const n = typeof units === 'number' ? units : 1;
        out[a.key] = Math.max(
          a.step,
          Math.round((n * (a.min + rng.next() * (a.max - a.min))) / a.step) * a.step,
        );
        break;
      }
      case 'brand':
        if (ctx.brand !== '') out[a.key] = ctx.brand;
        break;
      case 'condition':
        if (ctx.condition !== null) out[a.key] = ctx.condition.spec.value;
        break;
      case 'language':
        out[a.key] = rng.chance(a.localShare) ? ctx.country.language : 'English';
        break;
    }
  }
}

/** Coarser steps for bigger amounts, like real listings: 15.50, 240.00, 12350.00. */
function priceStepCents(v: number): number {
  if (v < 20) return 50;
  if (v < 200) return 100;
  if (v < 1_000) return 500;
  if (v < 5_000) return 1_000;
  if (v < 20_000) return 5_000;
  if (v < 100_000) return 10_000;
  if (v < 1_000_000) return 100_000;
  return 500_000;
}

function priceAmount(rng: Rng, [minEur, maxEur]: readonly [number, number], rate: number): string {
  const lo = minEur * rate;
  const hi = maxEur * rate;
  // Log-uniform: cheap offers are far more common than expensive ones within an item.
  const v = lo * (hi / lo) ** rng.next();
  const step = priceStepCents(v);
  let cents = Math.round((v * 100) / step) * step;
  if (cents % 100 === 0 && rng.chance(0.25)) cents -= cents >= 10_000 ? 100 : 1; // charm pricing: 1299.00, 14.99
  cents = Math.min(Math.max(cents, Math.ceil(lo * 100 - 1e-6)), Math.floor(hi * 100 + 1e-6));
  const whole = Math.floor(cents / 100);
  const frac = cents - whole * 100;
  return `${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

const round5 = (x: number): number => Math.round(x * 100_000) / 100_000;
const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);

export function generateOffer(index: number, seed: number, anchorMs: number): OfferInput {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError(`seed: index must be a non-negative integer, got ${index}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed: seed must be an integer, got ${seed}`);
  if (!Number.isFinite(anchorMs)) throw new RangeError(`seed: anchorMs must be finite, got ${anchorMs}`);
  const rng = new Rng(offerSeed(seed, index));
  const category = CATEGORY_PICKER.pick(rng);
  const { spec } = category;
  const item = pick(rng, category.items);
  const city = CITY_PICKER.pick(rng);
  const country = COUNTRY_BY_CODE.get(city.country);
  if (country === undefined) throw new Error(`seed: unknown country ${city.country}`);
  const brand = item.brands.length > 0 && rng.chance(spec.brandRate) ? pick(rng, item.brands) : '';
  const ctx: Ctx = {
    rng,
    spec,
    item,
    brand,
    itemText: joinBrand(spec, item.noun, brand),
    condition: spec.kind === 'goods' ? CONDITION_PICKER.pick(rng) : null,
    city,
    country,
    attributes: {},
    tags: [],
    adjective: null,
  };
  generateAttributes(item.attributes, ctx, anchorYear(anchorMs));
  for (const r of category.attributeTags) if (ctx.attributes[r.key] === r.value) hintTag(ctx, r.tag);

  const title = render(pick(rng, brand === '' ? item.titles : item.brandTitles), ctx);
  let description = `${render(pick(rng, item.openers), ctx)} ${render(pick(rng, ctx.condition?.sentences ?? item.status), ctx)}`;
  if (item.details.length > 0 && rng.chance(0.75)) description += ` ${render(pick(rng, item.details), ctx)}`;
  if (item.logistics.length > 0 && rng.chance(0.85))
    description += ` ${render(pick(rng, item.logistics), ctx)}`;
  const last = rng.next();
  if (last < 0.06 && item.rare.length > 0) description += ` ${render(pick(rng, item.rare), ctx)}`;
  // A near-unique token gives search a long tail of words that match a single offer.
  else if (last < 0.1)
    description += ` Reference ${String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25))}-${rng.int(1000, 9999)}.`;
  else if (last < 0.5 && item.closings.length > 0) description += ` ${render(pick(rng, item.closings), ctx)}`;

  const { tags } = ctx;
  const tagCount = TAG_COUNT_PICKER.pick(rng);
  while (tags.length < tagCount) {
    const tag = pick(rng, category.tags);
    if (!tags.includes(tag)) tags.push(tag);
  }
  tags.sort();

  const statusRoll = rng.next();
  const status = statusRoll < 0.94 ? 'active' : statusRoll < 0.97 ? 'withdrawn' : 'expired';
  // Expired offers are at least a month old so they can have lived 30+ days and ended before the anchor.
  const ageS = status === 'expired' ? rng.int(31 * DAY_S, 365 * DAY_S) : rng.int(0, 365 * DAY_S);
  const publishedS = Math.floor(anchorMs / 1000) - ageS;
  let expiresS: number | null = null;
  if (status === 'expired') expiresS = publishedS + rng.int(30 * DAY_S, Math.min(ageS - DAY_S, 730 * DAY_S));
  else if (rng.chance(0.4)) {
    // An active offer that has already expired would contradict its status.
    const minLife = status === 'active' ? Math.max(30 * DAY_S, ageS + DAY_S) : 30 * DAY_S;
    expiresS = publishedS + rng.int(minLife, 730 * DAY_S);
  }

  const publisher = rng.chance(SHOP_SHARE[spec.kind])
    ? pick(rng, category.shops)
    : pick(rng, PUBLISHERS.persons);
  const externalId = `seed-${String(index).padStart(8, '0')}`;
  return {
    externalId,
    title,
    description,
    category: spec.slug,
    tags,
    location: {
      city: city.name,
      region: city.region,
      country: city.country,
      lat: round5(clamp(city.lat + (rng.next() * 2 - 1) * MAX_JITTER_DEG, -90, 90)),
      lon: round5(clamp(city.lon + (rng.next() * 2 - 1) * MAX_JITTER_DEG, -180, 180)),
    },
    price: { amount: priceAmount(rng, item.price, country.eurRate), currency: country.currency },
    // Copies, so a consumer mutating one offer cannot change the shared pool.
    publisher: { id: publisher.id, name: publisher.name },
    url: `https://example.com/offers/${externalId}`,
    attributes: ctx.attributes,
    status,
    publishedAt: publishedS * 1000,
    expiresAt: expiresS === null ? null : expiresS * 1000,
  };
}

export function* generateOffers(options: SeedOptions): Generator<OfferInput> {
  const { count, seed = DEFAULT_SEED, startIndex = 0, anchorMs = DEFAULT_ANCHOR_MS } = options;
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`seed: count must be a non-negative integer, got ${count}`);
  if (!Number.isSafeInteger(startIndex) || startIndex < 0)
    throw new RangeError(`seed: startIndex must be a non-negative integer, got ${startIndex}`);
  for (let i = 0; i < count; i++) yield generateOffer(startIndex + i, seed, anchorMs);
}
