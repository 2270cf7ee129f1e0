/**
 * The search mix with no request repeated (issue 12, ADR 0025): the fixed mix (mix.ts) cycles
 * through 16 searches, so once the search cache holds them it measures the cache. This one draws
 * every request from the words of the seeded offers, with typos and prefixes as people type
 * them, random filter combinations, price bands and map centres: tens of thousands of distinct
 * searches of the same five types (the deep cursor page needs a walk of its own and is left out),
 * interleaved. At the bench's rates no search comes back within a run, so none is a cache hit.
 */
import { generateOffers } from '../src/offers/seed.js';
import { random } from './random.js';

const TYPE_LENGTH = 8_000;
const COMMON = ['condition', 'delivery', 'new', 'used', 'good', 'price', 'contact', 'available'];
const FACET_SETS = ['category,tag,city,country', 'category,city', 'tag,country', 'category'];
const CATEGORIES = [
  'furniture',
  'vehicles',
  'electronics',
  'fashion',
  'sports',
  'real-estate',
  'jobs',
  'services',
];
const COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'PL', 'NL', 'GB', 'US', 'JP', 'AU', 'CA', 'SE'];
const CENTRES = [
  [48.8566, 2.3522],
  [52.52, 13.405],
  [40.7128, -74.006],
  [51.5074, -0.1278],
  [41.9028, 12.4964],
  [52.2297, 21.0122],
];

/** How a person types a word: whole, cut short (still typing), or with one letter dropped or swapped. */
function typed(word: string, r: () => number): string {
  const roll = r();
  if (roll < 0.5 || word.length < 5) return word;
  if (roll < 0.75) return word.slice(0, 3 + Math.floor(r() * (word.length - 3)));
  const at = 1 + Math.floor(r() * (word.length - 2));
  return roll < 0.88
    ? word.slice(0, at) + word.slice(at + 1)
    : word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
}

/** Distinct query strings of one type, `TYPE_LENGTH` of them. */
function distinct(make: (r: () => number) => string, seed: number): string[] {
  const r = random(seed);
  const out = new Set<string>();
  for (let tries = 0; out.size < TYPE_LENGTH && tries < TYPE_LENGTH * 50; tries += 1) out.add(make(r));
  return [...out];
}

export function variedMix(): string[] {
  const titles = [...generateOffers({ count: 3_000, seed: 7 })].map((o) =>
    o.title
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length >= 4),
  );
  const words = [...new Set(titles.flat())];
  const pick = <T>(list: readonly T[], r: () => number) => list[Math.floor(r() * list.length)] as T;
  const types = [
    distinct((r) => `q=${encodeURIComponent(typed(pick(words, r), r))}`, 1),
    distinct((r) => {
      const title = pick(
        titles.filter((t) => t.length >= 2),
        r,
      );
      const a = Math.floor(r() * (title.length - 1));
      const q = `${title[a]} ${typed(title[a + 1] as string, r)}`;
      return `q=${encodeURIComponent(q)}&category=${pick(CATEGORIES, r)}&priceMax=${50 * (1 + Math.floor(r() * 60))}`;
    }, 2),
    distinct((r) => {
      const lo = Math.floor(r() * 500);
      const parts = [`category=${pick(CATEGORIES, r)}`, `country=${pick(COUNTRIES, r)}`];
      if (r() < 0.7) parts.push(`priceMin=${lo}&priceMax=${lo + 10 + Math.floor(r() * 2000)}`);
      if (r() < 0.3) parts.push('sort=price');
      return parts.join('&');
    }, 3),
    distinct(
      (r) =>
        `q=${pick(COMMON, r)}&facets=${pick(FACET_SETS, r)}&priceMin=${Math.floor(r() * 300)}&country=${pick(COUNTRIES, r)}`,
      4,
    ),
    distinct((r) => {
      const [lat, lon] = pick(CENTRES, r) as number[];
      const centre = `${((lat as number) + (r() - 0.5)).toFixed(4)},${((lon as number) + (r() - 0.5)).toFixed(4)}`;
      const radius = 5 + Math.floor(r() * 60);
      return `near=${centre}&radius=${radius}${r() < 0.4 ? '&sort=distance' : ''}`;
    }, 5),
  ];
  return Array.from({ length: TYPE_LENGTH }, (_, i) =>
    types.map((t) => `/v1/offers/?${t[i % t.length]}`),
  ).flat();
}
