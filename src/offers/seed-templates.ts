/**
 * Offer text templates: compiled once at load (see seed-vocabulary.ts) and rendered per offer (seed.ts),
 * plus the small text helpers rendering needs.
 *
 * The compiled item and condition types and the per-offer context Ctx live here too: a template's slots
 * read a Ctx, and a Ctx holds the item's compiled templates, so splitting them apart would create an
 * import cycle.
 */
import {
  type AttributeSpec,
  type AttributeValue,
  type CategorySpec,
  type CitySpec,
  type ConditionSpec,
  type CountrySpec,
  KIND_POOLS,
  type Sentence,
} from './seed-data.js';
import { pick, type Rng } from './seed-random.js';

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
export type SlotName = keyof typeof READERS;
export const isSlotName = (s: string): s is SlotName => Object.hasOwn(READERS, s);

export interface SlotRef {
  readonly name: string;
  readonly read: Reader;
  readonly grouped: boolean;
  readonly article: boolean;
}
export interface Template {
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
export const compileSentence = (s: Sentence): Template => compile(s.text, s.tag ?? null);

export function groupThousands(n: number): string {
  const s = String(n);
  const head = s.length % 3 || 3;
  let out = s.slice(0, head);
  for (let i = head; i < s.length; i += 3) out += `,${s.slice(i, i + 3)}`;
  return out;
}

const VOWEL_SOUNDING_CONSONANT = ['uni', 'use', 'uku', 'eu', 'one'];
export function withArticle(s: string): string {
  const c = s.charCodeAt(0) | 32; // ASCII lower-case
  const vowel =
    (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) &&
    !VOWEL_SOUNDING_CONSONANT.some((p) => s.toLowerCase().startsWith(p));
  return (vowel ? 'an ' : 'a ') + s;
}

/** Upper-cases the first letter unless the word is styled like "iRobot". */
export function capitalise(s: string): string {
  const c = s.charCodeAt(0);
  const next = s.charCodeAt(1);
  if (c < 97 || c > 122 || (next >= 65 && next <= 90)) return s;
  return String.fromCharCode(c - 32) + s.slice(1);
}

// ------------------------------------------------------- compiled vocabulary

export interface ItemVocabulary {
  readonly noun: string;
  readonly brands: readonly string[];
  readonly extras: readonly string[];
  readonly qualifier: string;
  readonly price: readonly [number, number];
  readonly attributes: readonly AttributeSpec[];
}
export type PoolName = keyof ReturnType<typeof compilePools>;
export interface CompiledItem extends ItemVocabulary {
  /** Only the templates this item can fill (an office has no rooms). */
  readonly pools: Readonly<Record<PoolName, readonly Template[]>>;
}

export function compilePools(spec: CategorySpec) {
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
export interface CompiledCondition {
  readonly spec: ConditionSpec;
  readonly sentences: readonly Template[];
}

// ------------------------------------------------------------------ per offer

export interface Ctx {
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

export function joinBrand(spec: CategorySpec, noun: string, brand: string): string {
  if (brand === '') return noun;
  return spec.brandPosition === 'after' ? `${noun} ${brand}` : `${brand} ${noun}`;
}
