import { describe, expect, it } from 'vitest';
import type { OfferInput } from './offer-input.js';
import { DEFAULT_ANCHOR_MS, generateOffer, generateOffers, type SeedOptions } from './seed.js';
import { CATEGORIES, CITIES, COUNTRIES, TAGS } from './seed-data.js';

const DAY_MS = 86_400_000;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const take = (options: SeedOptions): OfferInput[] => [...generateOffers(options)];

// Shared by several tests; generating 20k offers takes a few tens of milliseconds.
const SAMPLE = take({ count: 20_000 });

describe('generateOffers determinism', () => {
  it('gives identical offers for identical options', () => {
    expect(take({ count: 200 })).toEqual(take({ count: 200 }));
    expect(take({ count: 200, seed: 7 })).toEqual(take({ count: 200, seed: 7 }));
  });

  it('matches generateOffer for the same index, seed and anchor', () => {
    for (const i of [0, 1, 57, 199]) expect(generateOffer(i, 42, DEFAULT_ANCHOR_MS)).toEqual(SAMPLE[i]);
  });

  it('gives different offers for different seeds', () => {
    const a = take({ count: 200, seed: 42 });
    const b = take({ count: 200, seed: 43 });
    expect(a).not.toEqual(b);
    const sameDescription = a.filter((offer, i) => offer.description === b[i]?.description).length;
    expect(sameDescription).toBeLessThan(10);
  });

  it('yields the same offers when generated in chunks', () => {
    const whole = take({ count: 300, seed: 9 });
    const chunks = [
      ...take({ count: 100, seed: 9, startIndex: 0 }),
      ...take({ count: 150, seed: 9, startIndex: 100 }),
      ...take({ count: 50, seed: 9, startIndex: 250 }),
    ];
    expect(chunks).toEqual(whole);
    expect(take({ count: 5, seed: 9, startIndex: 120 }).map((o) => o.externalId)).toEqual(
      whole.slice(120, 125).map((o) => o.externalId),
    );
  });

  it('moves dates with the anchor', () => {
    const anchorMs = Date.UTC(2030, 0, 1);
    const offer = generateOffer(3, 42, anchorMs);
    expect(offer.publishedAt).toBeLessThanOrEqual(anchorMs);
    expect(offer.publishedAt).toBeGreaterThanOrEqual(anchorMs - 366 * DAY_MS);
  });

  it('rejects invalid options', () => {
    expect(() => take({ count: -1 })).toThrow(RangeError);
    expect(() => [...generateOffers({ count: 1, startIndex: 1.5 })]).toThrow(RangeError);
    expect(() => generateOffer(-1, 42, DEFAULT_ANCHOR_MS)).toThrow(RangeError);
    expect(() => generateOffer(0, 42, Number.NaN)).toThrow(RangeError);
  });
});

/**
 * Checks named rules on every sampled offer in plain code (one expect() per field is slow at
 * 20k offers) and reports the first few offenders in full.
 */
function expectEveryOffer(rules: Record<string, (offer: OfferInput, index: number) => boolean>): void {
  const failures: string[] = [];
  SAMPLE.forEach((offer, i) => {
    for (const [rule, ok] of Object.entries(rules)) {
      if (failures.length < 5 && !ok(offer, i)) failures.push(`${rule}: ${JSON.stringify(offer)}`);
    }
  });
  expect(failures).toEqual([]);
}

describe('generated offers', () => {
  const categories = new Map(CATEGORIES.map((c) => [c.slug, c]));
  const countries = new Map(COUNTRIES.map((c) => [c.code, c]));
  const cities = new Map(CITIES.map((c) => [c.name, c]));
  const tagSlugs = new Set(TAGS.map((t) => t.slug));
  const wordCount = (s: string): number => s.split(' ').length;
  const rounded5 = (x: number): boolean => Math.round(x * 1e5) / 1e5 === x;

  it('have well-formed identity, text and category', () => {
    expectEveryOffer({
      'externalId is seed-<8 digit index>': (o, i) => o.externalId === `seed-${String(i).padStart(8, '0')}`,
      'url points at the externalId': (o) => o.url === `https://example.com/offers/${o.externalId}`,
      'title has 3..9 words': (o) => wordCount(o.title) >= 3 && wordCount(o.title) <= 9,
      'text has no template leftovers or double spaces': (o) =>
        !/[{}]|undefined|NaN|\s\s|^\s|\s$/.test(o.title + o.description),
      'description reads like sentences': (o) => /^[A-Z0-9].*[.?]$/.test(o.description),
      'category is a known slug': (o) => SLUG.test(o.category) && categories.has(o.category),
    });
  });

  it('have unique, sorted, lower-case tags from the pool', () => {
    expectEveryOffer({
      'at most 4 tags': (o) => o.tags.length <= 4,
      'tags are unique': (o) => new Set(o.tags).size === o.tags.length,
      'tags are sorted': (o) => o.tags.join(',') === [...o.tags].sort().join(','),
      'tags are known slugs': (o) => o.tags.every((t) => SLUG.test(t) && tagSlugs.has(t)),
    });
  });

  it('are located near a known city with rounded coordinates', () => {
    expectEveryOffer({
      'country is ISO alpha-2': (o) => /^[A-Z]{2}$/.test(o.location.country),
      'lat/lon are in range': ({ location: l }) => Math.abs(l.lat) <= 90 && Math.abs(l.lon) <= 180,
      'lat/lon have 5 decimals at most': ({ location: l }) => rounded5(l.lat) && rounded5(l.lon),
      'city, region and country agree': ({ location: l }) => {
        const city = cities.get(l.city);
        return city !== undefined && city.region === l.region && city.country === l.country;
      },
      'jitter is under 0.05 degrees': ({ location: l }) => {
        const city = cities.get(l.city);
        return city !== undefined && Math.abs(l.lat - city.lat) < 0.05 && Math.abs(l.lon - city.lon) < 0.05;
      },
    });
  });

  it('are priced in the local currency within the category range', () => {
    expectEveryOffer({
      'amount has exactly 2 decimals': (o) => /^\d+\.\d{2}$/.test(o.price.amount),
      'currency is ISO 4217': (o) => /^[A-Z]{3}$/.test(o.price.currency),
      "currency is the country's": (o) => countries.get(o.location.country)?.currency === o.price.currency,
      'amount is within the category range (scaled from EUR)': (o) => {
        const [min, max] = categories.get(o.category)?.price ?? [Number.NaN, Number.NaN];
        const rate = countries.get(o.location.country)?.eurRate ?? Number.NaN;
        const amount = Number(o.price.amount);
        return amount >= min * rate - 0.01 && amount <= max * rate + 0.01;
      },
    });
  });

  it('come from a stable pool of about 200 publishers', () => {
    expectEveryOffer({
      'publisher id is pub_ + 6 alphanumerics': (o) => /^pub_[a-z0-9]{6}$/.test(o.publisher.id),
      'publisher has a name': (o) => o.publisher.name.length > 2,
    });
    const ids = new Set(SAMPLE.map((o) => o.publisher.id));
    expect(ids.size).toBeGreaterThan(150);
    expect(ids.size).toBeLessThanOrEqual(200);
    // The pool does not depend on the seed option.
    const other = new Set(take({ count: 2000, seed: 1234 }).map((o) => o.publisher.id));
    expect([...other].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('have 1 to 4 string or number attributes', () => {
    expectEveryOffer({
      '1..4 attributes': (o) =>
        Object.keys(o.attributes).length >= 1 && Object.keys(o.attributes).length <= 4,
      'values are non-empty strings or finite numbers': (o) =>
        Object.values(o.attributes).every((v) => (typeof v === 'number' ? Number.isFinite(v) : v !== '')),
    });
  });

  it('have consistent publication and expiry dates', () => {
    expectEveryOffer({
      'publishedAt is whole seconds': (o) => o.publishedAt % 1000 === 0,
      'publishedAt is within the year before the anchor': (o) =>
        o.publishedAt <= DEFAULT_ANCHOR_MS && o.publishedAt >= DEFAULT_ANCHOR_MS - 365 * DAY_MS,
      'expiresAt is 30..730 days after publication': (o) =>
        o.expiresAt === null ||
        (o.expiresAt - o.publishedAt >= 30 * DAY_MS && o.expiresAt - o.publishedAt <= 730 * DAY_MS),
      'expired offers expired before the anchor': (o) =>
        o.status !== 'expired' || (o.expiresAt !== null && o.expiresAt < DEFAULT_ANCHOR_MS),
      'active offers have not expired yet': (o) =>
        o.status !== 'active' || o.expiresAt === null || o.expiresAt > DEFAULT_ANCHOR_MS,
    });
    const neverExpire = SAMPLE.filter((o) => o.expiresAt === null).length / SAMPLE.length;
    expect(neverExpire).toBeGreaterThan(0.5);
    expect(neverExpire).toBeLessThan(0.65);
  });

  it('follow the target status distribution', () => {
    const share = (status: OfferInput['status']): number =>
      SAMPLE.filter((o) => o.status === status).length / SAMPLE.length;
    expect(Math.abs(share('active') - 0.94)).toBeLessThanOrEqual(0.015);
    expect(Math.abs(share('withdrawn') - 0.03)).toBeLessThanOrEqual(0.015);
    expect(Math.abs(share('expired') - 0.03)).toBeLessThanOrEqual(0.015);
  });

  it('cover most categories in a small sample', () => {
    expect(new Set(SAMPLE.slice(0, 1000).map((o) => o.category)).size).toBeGreaterThanOrEqual(10);
  });

  it('mix common and rare words so full-text search is interesting', () => {
    const documentFrequency = new Map<string, number>();
    for (const { description } of SAMPLE) {
      for (const word of new Set(description.toLowerCase().match(/[a-z]+/g) ?? [])) {
        documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
      }
    }
    const share = (word: string): number => (documentFrequency.get(word) ?? 0) / SAMPLE.length;
    expect(share('condition')).toBeGreaterThan(0.2);
    expect(share('excellent')).toBeGreaterThan(0.05);
    expect(share('delivery')).toBeGreaterThan(0.05);
    const rare = [...documentFrequency.values()].filter((n) => n < SAMPLE.length / 1000).length;
    expect(rare).toBeGreaterThan(50);
  });
});
