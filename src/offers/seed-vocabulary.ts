/**
 * The vocabulary from seed-data.ts, compiled once at load. Data that could produce an invalid offer is
 * refused here, so per-offer code (seed.ts) can stay free of checks, regexes and JSON work.
 */
import {
  ATTRIBUTE_TAGS,
  type AttributeSpec,
  type AttributeTag,
  CATEGORIES,
  type CategorySpec,
  CITIES,
  CONDITIONS,
  COUNTRIES,
  FIRST_NAMES,
  SHOP_PREFIXES,
  TAGS,
} from './seed-data.js';
import { pick, Rng, Weighted } from './seed-random.js';
import {
  type CompiledCondition,
  type CompiledItem,
  compilePools,
  compileSentence,
  type ItemVocabulary,
  isSlotName,
  joinBrand,
  type PoolName,
  type SlotName,
  type SlotRef,
  type Template,
  withArticle,
} from './seed-templates.js';

// ------------------------------------------------------- compiled vocabulary

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
export const PUBLISHERS = buildPublishers();
const COMPILED_CATEGORIES = CATEGORIES.map((spec, i) => compileCategory(spec, PUBLISHERS.shops[i] ?? []));
export const CATEGORY_PICKER = new Weighted(COMPILED_CATEGORIES, (c) => c.spec.weight);
export const CONDITION_PICKER = new Weighted(COMPILED_CONDITIONS, (c) => c.spec.weight);
export const CITY_PICKER = new Weighted(CITIES, (c) => c.weight);
export const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
export const TAG_COUNT_PICKER = new Weighted([0, 1, 2, 3, 4], (n) => [20, 30, 25, 15, 10][n] ?? 0);
