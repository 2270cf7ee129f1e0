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
    this.entries = items.map((item) => {
      total += weight(item);
      return { item, upTo: total };
    });
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

type Reader = (ctx: Ctx) => string | number;

/** Fixed slots; any other `{name}` reads the item attribute of that name. */
const READERS = {
  adj: (ctx) => {
    // Drawn once per offer so the title and description agree ("junior" in both).
    ctx.adjective ??= pick(ctx.rng, ctx.spec.adjectives);
    return ctx.adjective;
  },
  noun: (ctx) => ctx.item.noun,
  brand: (ctx) => ctx.brand,
  item: (ctx) => ctx.itemText,
  extra: (ctx) => pick(ctx.rng, ctx.item.extras),
  qual: (ctx) => ctx.item.qualifier,
  cond: (ctx) => ctx.condition?.spec.label ?? '',
  city: (ctx) => ctx.city.name,
  country: (ctx) => ctx.country.name,
  lang: (ctx) => ctx.country.language,
  years: (ctx) => ctx.rng.int(2, 12),
  km: (ctx) => 5 * ctx.rng.int(1, 10),
  days: (ctx) => ctx.rng.int(2, 14),
} satisfies Record<string, Reader>;
type SlotName = keyof typeof READERS;
const isSlotName = (s: string): s is SlotName => Object.hasOwn(READERS, s);

interface SlotRef {
  readonly name: string;
  readonly read: Reader;
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
    const read: Reader = isSlotName(name) ? READERS[name] : (ctx) => ctx.attributes[name] ?? '';
    parts.push({ name, read, grouped: mod === 'n', article: mod === 'a' });
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

interface ItemVocabulary {
  readonly noun: string;
  readonly brands: readonly string[];
  readonly extras: readonly string[];
  readonly qualifier: string;
  readonly price: readonly [number, number];
  readonly attributes: readonly AttributeSpec[];
}
type PoolName = keyof ReturnType<typeof compilePools>;
interface CompiledItem extends ItemVocabulary {
  /** Only the templates this item can fill (an office has no rooms). */
  readonly pools: Readonly<Record<PoolName, readonly Template[]>>;
}

function compilePools(spec: CategorySpec) {
  const kind = KIND_POOLS[spec.kind];
  return {
    titles: spec.titles.map((t) => compile(t)),
    brandTitles: spec.brandTitles.map((t) => compile(t)),
    openers: kind.openers.map(compileSentence),
    status: kind.status.map(compileSentence),
    details: spec.details.map((t) => compile(t)),
    logistics: kind.logistics.map(compileSentence),
    closings: kind.closings.map(compileSentence),
    rare: kind.rare.map(compileSentence),
  };
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

const ALWAYS_AVAILABLE = 'adj noun item city country lang years km days'.split(' ');

/** Candidate fillings of a slot, used only to bound title length at load time. */
interface TitleScope {
  readonly spec: CategorySpec;
  readonly item: ItemVocabulary;
  readonly brandContext: boolean;
}

function slotCandidates(ref: SlotRef, { spec, item, brandContext }: TitleScope): readonly string[] {
  const byName: Readonly<Record<SlotName, readonly string[]>> = {
    adj: spec.adjectives,
    noun: [item.noun],
    brand: item.brands,
    extra: item.extras,
    qual: [item.qualifier],
    item: brandContext ? item.brands.map((b) => joinBrand(spec, item.noun, b)) : [item.noun],
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
  return attr?.kind === 'const' ? [String(attr.value)] : ['1'];
}

/** Fewest and most words a title template can produce; every slot filling is a whole word group. */
function wordCountRange(t: Template, scope: TitleScope): [number, number] {
  const words = (s: string): number => s.split(' ').filter((w) => w !== '').length;
  const render = (longest: boolean): string => {
    let out = '';
    for (const p of t.parts) {
      if (typeof p === 'string') {
        out += p;
        continue;
      }
      const sorted = [...slotCandidates(p, scope)].sort((a, b) => words(a) - words(b));
      const v = (longest ? sorted[sorted.length - 1] : sorted[0]) ?? '';
      out += p.article ? withArticle(v) : v;
    }
    return out;
  };
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
  const all = compilePools(spec);
  const items = spec.items.map((raw): CompiledItem => {
    const attributes = mergeAttributes(spec.attributes, raw.attributes ?? []);
    const guaranteed = new Set<string>();
    for (const a of attributes) {
      const dependsOn = a.kind === 'per-year' ? a.yearKey : a.kind === 'per-unit' ? a.unitKey : null;
      if (dependsOn !== null && !guaranteed.has(dependsOn)) fail(`${a.key} needs ${dependsOn} before it`);
      if (a.p >= 1 && a.kind !== 'brand') guaranteed.add(a.key);
    }
    if (guaranteed.size < 1 || attributes.length > 4) fail(`${raw.noun}: needs 1..4 attributes`);
    const price = raw.price ?? spec.price;
    if (price[0] <= 0 || price[0] > price[1] || price[0] < spec.price[0] || price[1] > spec.price[1])
      fail(`${raw.noun}: bad price`);
    const brands = raw.brands ?? [];
    const extras = raw.extras ?? spec.extras;
    const base = { ...raw, brands, extras, qualifier: raw.qualifier ?? '', price, attributes };

    // Templates silently drop out for items that cannot fill them; titles must also keep 3..9 words.
    const available = new Set([...guaranteed, ...ALWAYS_AVAILABLE]);
    if (base.extras.length > 0) available.add('extra');
    if (base.qualifier !== '') available.add('qual');
    if (spec.kind === 'goods') available.add('cond');
    const fits = (t: Template, brand: boolean): boolean =>
      t.parts.every((p) => typeof p === 'string' || available.has(p.name) || (brand && p.name === 'brand'));
    const titles = (name: PoolName, brand: boolean): Template[] =>
      all[name].filter((t) => {
        if (!fits(t, brand)) return false;
        const [min, max] = wordCountRange(t, { spec, item: base, brandContext: brand });
        return min >= 3 && max <= 9
          ? true
          : fail(`a ${name} template gives ${min}..${max} words for ${raw.noun}`);
      });
    const usable = (name: PoolName): Template[] => all[name].filter((t) => fits(t, false));
    const pools = {
      titles: titles('titles', false),
      brandTitles: brands.length > 0 ? titles('brandTitles', true) : [],
      openers: usable('openers'),
      status: usable('status'),
      details: usable('details'),
      logistics: usable('logistics'),
      closings: usable('closings'),
      rare: usable('rare'),
    };
    if (pools.titles.length === 0 && !(spec.brandRate >= 1 && brands.length > 0))
      fail(`${raw.noun}: no title`);
    if (pools.brandTitles.length === 0 && brands.length > 0 && spec.brandRate > 0)
      fail(`${raw.noun}: no brand title`);
    if (pools.openers.length === 0 || (pools.status.length === 0 && spec.kind !== 'goods'))
      fail(`${raw.noun}: no opener/status`);
    return { ...base, pools };
  });

  const kindTags = TAGS.filter((t) => t.kinds.includes(spec.kind));
  const tags = kindTags.filter((t) => t.implied !== true).map((t) => t.slug);
  if (tags.length < 4) fail('needs at least 4 random tags to draw from');
  const known = (tag: string): boolean => kindTags.some((t) => t.slug === tag);
  const conditionSentences = spec.kind === 'goods' ? COMPILED_CONDITIONS.flatMap((c) => c.sentences) : [];
  for (const t of [...Object.values(all).flat(), ...conditionSentences])
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
  const alphabet = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
  const publisher = (makeName: () => string): Publisher => {
    let id = '';
    while (id === '' || ids.has(id)) id = Array.from({ length: 6 }, () => pick(rng, alphabet)).join('');
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
  const shop = (words: readonly string[]) =>
    publisher(() => `${pick(rng, SHOP_PREFIXES)} ${pick(rng, words)}`);
  return { persons, shops: CATEGORIES.map((c) => Array.from({ length: 7 }, () => shop(c.shopWords))) };
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
  adjective: string | null;
}

function joinBrand(spec: CategorySpec, noun: string, brand: string): string {
  if (brand === '') return noun;
  return spec.brandPosition === 'after' ? `${noun} ${brand}` : `${brand} ${noun}`;
}

function render(t: Template, ctx: Ctx): string {
  let out = '';
  for (const p of t.parts) {
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = p.read(ctx);
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
      case 'per-year':
      case 'per-unit': {
        const basis = out[a.kind === 'per-year' ? a.yearKey : a.unitKey];
        // Half a year of use even for this year's models, so mileage is never 0.
        const n =
          typeof basis !== 'number' ? 1 : a.kind === 'per-year' ? Math.max(year - basis, 0) + 0.5 : basis;
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

function priceAmount(rng: Rng, [minEur, maxEur]: readonly [number, number], rate: number): string {
  const lo = minEur * rate;
  const hi = maxEur * rate;
  // Log-uniform: cheap offers are far more common than expensive ones within an item.
  const v = lo * (hi / lo) ** rng.next();
  // Coarser steps for bigger amounts, like real listings: 15.50, 240.00, 1250.00, 12300.00.
  let power = 1;
  while (power * 10 <= v) power *= 10;
  const step = Math.max(50, power);
  let cents = Math.round((v * 100) / step) * step;
  if (cents % 100 === 0 && rng.chance(0.25)) cents -= cents >= 10_000 ? 100 : 1; // charm pricing: 1299.00, 14.99
  cents = Math.min(Math.max(cents, Math.ceil(lo * 100 - 1e-6)), Math.floor(hi * 100 + 1e-6));
  const whole = Math.floor(cents / 100);
  const frac = cents - whole * 100;
  return `${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

const round5 = (x: number): number => Math.round(x * 100_000) / 100_000;
const jitter = (rng: Rng, x: number, limit: number): number =>
  round5(Math.min(Math.max(x + (rng.next() * 2 - 1) * MAX_JITTER_DEG, -limit), limit));

function assertInteger(name: string, value: number, min = Number.MIN_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`seed: ${name} must be an integer >= ${min}, got ${value}`);
}

export function generateOffer(index: number, seed: number, anchorMs: number): OfferInput {
  assertInteger('index', index, 0);
  assertInteger('seed', seed);
  if (!Number.isFinite(anchorMs)) throw new RangeError(`seed: anchorMs must be finite, got ${anchorMs}`);
  const rng = new Rng(offerSeed(seed, index));
  const category = CATEGORY_PICKER.pick(rng);
  const { spec } = category;
  const item = pick(rng, category.items);
  const city = CITY_PICKER.pick(rng);
  const country = COUNTRY_BY_CODE.get(city.country);
  if (country === undefined) throw new Error(`seed-data: unknown country ${city.country}`);
  const brand = item.brands.length > 0 && rng.chance(spec.brandRate) ? pick(rng, item.brands) : '';
  const condition = spec.kind === 'goods' ? CONDITION_PICKER.pick(rng) : null;
  const itemText = joinBrand(spec, item.noun, brand);
  const ctx: Ctx = {
    rng,
    spec,
    item,
    brand,
    itemText,
    condition,
    city,
    country,
    attributes: {},
    tags: [],
    adjective: null,
  };
  generateAttributes(item.attributes, ctx, anchorYear(anchorMs));
  for (const r of category.attributeTags) if (ctx.attributes[r.key] === r.value) hintTag(ctx, r.tag);

  const { pools } = item;
  const say = (pool: readonly Template[]): string => ` ${render(pick(rng, pool), ctx)}`;
  const title = render(pick(rng, brand === '' ? pools.titles : pools.brandTitles), ctx);
  let description = render(pick(rng, pools.openers), ctx) + say(condition?.sentences ?? pools.status);
  if (pools.details.length > 0 && rng.chance(0.75)) description += say(pools.details);
  if (pools.logistics.length > 0 && rng.chance(0.85)) description += say(pools.logistics);
  const last = rng.next();
  if (last < 0.06 && pools.rare.length > 0) description += say(pools.rare);
  // A near-unique token gives search a long tail of words that match a single offer.
  else if (last < 0.1)
    description += ` Reference ${String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25))}-${rng.int(1000, 9999)}.`;
  else if (last < 0.5 && pools.closings.length > 0) description += say(pools.closings);

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
      lat: jitter(rng, city.lat, 90),
      lon: jitter(rng, city.lon, 180),
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
  assertInteger('count', count, 0);
  assertInteger('startIndex', startIndex, 0);
  for (let i = 0; i < count; i++) yield generateOffer(startIndex + i, seed, anchorMs);
}
