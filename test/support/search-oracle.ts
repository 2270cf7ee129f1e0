import type { OfferInput } from '../../src/offers/offer-input.js';
import { priceToUnits } from '../../src/offers/price.js';
import { effectiveStatus, offerIdFor } from '../../src/offers/rows.js';
import type { Environment } from '../../src/platform/environment.js';
import { distanceKm } from '../../src/search/sets/geo.js';

/**
 * The search oracle: which offers a filter-only query returns and in which order, computed in
 * JavaScript from the offers a test wrote, independently of either database.
 */
export interface OracleQuery {
  category?: string[];
  tag?: string[];
  city?: string;
  country?: string;
  currency?: string;
  priceMin?: string;
  priceMax?: string;
  publishedAfter?: string;
  publishedBefore?: string;
  near?: string;
  radius?: number;
  /** minLat,minLon,maxLat,maxLon; across the antimeridian when minLon > maxLon. */
  bbox?: string;
  status?: string;
  sort?: string;
  /** `publisher`: the first row of each publisher in the order, alone (the facets still count every row). */
  distinct?: string;
}

export interface OracleRow {
  id: string;
  offer: OfferInput;
  price: number;
  published: number;
  distance: number;
}

const byId = (a: OracleRow, b: OracleRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const COMPARE: Record<string, (a: OracleRow, b: OracleRow) => number> = {
  '-publishedAt': (a, b) => b.published - a.published || byId(b, a),
  publishedAt: (a, b) => a.published - b.published || byId(a, b),
  price: (a, b) => a.price - b.price || byId(a, b),
  '-price': (a, b) => b.price - a.price || byId(b, a),
  distance: (a, b) => a.distance - b.distance || byId(a, b),
};

function centre(near: string | undefined) {
  if (!near) return null;
  const [lat = 0, lon = 0] = near.split(',').map(Number);
  return { lat, lon };
}

/** True when `offer` satisfies every filter of `query` (sort ignored). */
export function matchesFilters(offer: OfferInput, query: OracleQuery, now: number): boolean {
  const near = centre(query.near);
  const price = priceToUnits(offer.price.amount);
  return (
    effectiveStatus(offer.status, offer.expiresAt, now) === (query.status ?? 'active') &&
    (!query.category || query.category.includes(offer.category)) &&
    (!query.tag || query.tag.every((t) => offer.tags.includes(t))) &&
    (!query.city || offer.location.city === query.city) &&
    (!query.country || offer.location.country === query.country.toUpperCase()) &&
    (!query.currency || offer.price.currency === query.currency.toUpperCase()) &&
    (!query.priceMin || price >= priceToUnits(query.priceMin)) &&
    (!query.priceMax || price <= priceToUnits(query.priceMax)) &&
    (!query.publishedAfter || offer.publishedAt >= Date.parse(query.publishedAfter)) &&
    (!query.publishedBefore || offer.publishedAt < Date.parse(query.publishedBefore)) &&
    (!near || query.radius === undefined || distanceKm(near, offer.location) <= query.radius) &&
    inWindow(query.bbox, offer.location)
  );
}

function inWindow(bbox: string | undefined, at: { lat: number; lon: number }): boolean {
  if (!bbox) return true;
  const [south = 0, west = 0, north = 0, east = 0] = bbox.split(',').map(Number);
  if (at.lat < south || at.lat > north) return false;
  // West to east; past the antimeridian when west > east.
  return west <= east ? west <= at.lon && at.lon <= east : at.lon >= west || at.lon <= east;
}

export function expectedRows(
  offers: readonly OfferInput[],
  environment: Environment,
  query: OracleQuery,
  now: number,
): OracleRow[] {
  const near = centre(query.near);
  const compare = COMPARE[query.sort ?? '-publishedAt'];
  if (!compare) throw new Error(`no oracle for sort ${query.sort}`);
  // Later writes of the same externalId replace earlier ones, as the upsert does.
  const latest = new Map(offers.map((o) => [o.externalId, o]));
  const rows = [...latest.values()]
    .filter((o) => matchesFilters(o, query, now))
    .map((offer) => ({
      id: offerIdFor(environment, offer.externalId),
      offer,
      price: priceToUnits(offer.price.amount),
      published: offer.publishedAt,
      distance: near ? distanceKm(near, offer.location) : 0,
    }))
    .sort(compare);
  if (query.distinct === undefined) return rows;
  const publishers = new Set<string>();
  return rows.filter(
    ({ offer }) => !publishers.has(offer.publisher.id) && publishers.add(offer.publisher.id),
  );
}

/** Facet counts the way the API reports them: most frequent first, then by value, top 20. */
export function expectedFacet(rows: readonly OracleRow[], field: 'category' | 'tag' | 'city' | 'country') {
  const counts = new Map<string, number>();
  for (const { offer } of rows) {
    const values =
      field === 'tag'
        ? [...new Set(offer.tags)]
        : [field === 'category' ? offer.category : offer.location[field]];
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, 20);
}
