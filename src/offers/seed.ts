/**
 * Deterministic synthetic offers for demos, load tests and search tuning.
 *
 * Offer i is a pure function of (i, seed, anchorMs): each offer gets its own
 * PRNG seeded from a hash of seed and index, so any slice of a huge data set can
 * be regenerated independently (in chunks, in parallel, or to debug one offer).
 * The vocabulary lives in seed-data.ts; seed-vocabulary.ts compiles it once at load and
 * refuses data that could produce an invalid offer, so per-offer code can stay
 * free of checks, regexes and JSON work (1M offers must take well under 10 s).
 *
 * Randomness is in seed-random.ts and text templates in seed-templates.ts; this file
 * keeps the public API and the per-offer code.
 */
import type { OfferInput } from './offer-input.js';
import type { AttributeSpec, CategoryKind } from './seed-data.js';
import { offerSeed, pick, Rng } from './seed-random.js';
import {
  type Ctx,
  capitalise,
  groupThousands,
  joinBrand,
  type Template,
  withArticle,
} from './seed-templates.js';
import {
  CATEGORY_PICKER,
  CITY_PICKER,
  CONDITION_PICKER,
  COUNTRY_BY_CODE,
  PUBLISHERS,
  TAG_COUNT_PICKER,
} from './seed-vocabulary.js';

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

// ------------------------------------------------------------------ per offer

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

/** Next description sentence, with its leading space. */
function say(pool: readonly Template[], ctx: Ctx): string {
  return ` ${render(pick(ctx.rng, pool), ctx)}`;
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
  const title = render(pick(rng, brand === '' ? pools.titles : pools.brandTitles), ctx);
  let description = render(pick(rng, pools.openers), ctx) + say(condition?.sentences ?? pools.status, ctx);
  if (pools.details.length > 0 && rng.chance(0.75)) description += say(pools.details, ctx);
  if (pools.logistics.length > 0 && rng.chance(0.85)) description += say(pools.logistics, ctx);
  const last = rng.next();
  if (last < 0.06 && pools.rare.length > 0) description += say(pools.rare, ctx);
  // A near-unique token gives search a long tail of words that match a single offer.
  else if (last < 0.1)
    description += ` Reference ${String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25))}-${rng.int(1000, 9999)}.`;
  else if (last < 0.5 && pools.closings.length > 0) description += say(pools.closings, ctx);

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
