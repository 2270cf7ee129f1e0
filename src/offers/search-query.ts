import type { ParameterError } from '../http/errors.js';
import type { Environment } from '../platform/environment.js';
import { parseTextQuery, type TextQuery } from '../search/analysis/text.js';
import type { DistinctField, EngineQuery, EngineSort, FacetRequest, SearchSchema } from '../search/engine.js';
import type { BoundingBox } from '../search/sets/geo.js';
import { attributeFilters, checkSort, facetRequests } from './attribute-parameters.js';
import { priceToUnits } from './price.js';
import type { SearchQuery } from './schemas.js';

/**
 * A search's parameters checked and normalised (what `GET /v1/offers/` and
 * `GET /v1/offers/facet-values` share): each problem pushed to `errors`, naming its parameter.
 */

const upper = (value: string | undefined) => (value === undefined ? null : value.toUpperCase());
const time = (value: string | undefined) => (value === undefined ? null : Date.parse(value));

/** `near=lat,lon` (the schema checked the shape; the ranges are checked here). */
function parseNear(value: string | undefined, errors: ParameterError[]): { lat: number; lon: number } | null {
  if (value === undefined) return null;
  const [lat, lon] = value.split(',').map(Number);
  if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    errors.push({ parameter: 'near', message: 'must be lat,lon with lat in -90..90 and lon in -180..180' });
    return null;
  }
  // Normalise -0 so `near=-0,0` and `near=0,0` share cursors.
  return { lat: lat + 0, lon: lon + 0 };
}

/** `bbox=minLat,minLon,maxLat,maxLon` (the schema checked the shape; the ranges are checked here). */
function parseBox(value: string | undefined, errors: ParameterError[]): BoundingBox | null {
  if (value === undefined) return null;
  const [minLat = 0, minLon = 0, maxLat = 0, maxLon = 0] = value.split(',').map(Number);
  const lat = (v: number) => Math.abs(v) <= 90;
  const lon = (v: number) => Math.abs(v) <= 180;
  if (!lat(minLat) || !lat(maxLat) || !lon(minLon) || !lon(maxLon) || minLat > maxLat) {
    errors.push({
      parameter: 'bbox',
      message:
        'must be minLat,minLon,maxLat,maxLon with latitudes in -90..90 (minLat ≤ maxLat) and longitudes in -180..180',
    });
    return null;
  }
  // Normalised -0 so that equal windows share cursors and cached answers.
  return { minLat: minLat + 0, minLon: minLon + 0, maxLat: maxLat + 0, maxLon: maxLon + 0 };
}

/** Everything that decides a search's result set and its order (its fingerprint). */
export type NormalisedSearch = Pick<
  EngineQuery,
  | 'typoTolerance'
  | 'categories'
  | 'tags'
  | 'city'
  | 'near'
  | 'radiusKm'
  | 'country'
  | 'currency'
  | 'priceMin'
  | 'priceMax'
  | 'publishedAfter'
  | 'publishedBefore'
  | 'updatedSince'
  | 'status'
  | 'attributes'
  | 'sort'
> & { environment: Environment; q: string | null; bbox?: BoundingBox; distinct?: DistinctField };

/**
 * The query as the engine takes it, and as its fingerprint (cursors) and the answer cache see it,
 * checked against `schema`, the declarations of the index that answers.
 */
export function normaliseSearch(
  environment: Environment,
  query: SearchQuery,
  schema: SearchSchema,
  errors: ParameterError[],
): { normalised: NormalisedSearch; text: TextQuery | null; sort: EngineSort; facets: FacetRequest[] } {
  const text = query.q === undefined ? null : parseTextQuery(query.q);
  const sort = (query.sort ?? (query.q !== undefined ? 'relevance' : '-publishedAt')) as EngineSort;
  const attributes = attributeFilters(query, schema, errors);
  const facets = facetRequests(query.facets, schema, errors);
  checkSort(sort, schema, errors);
  if (sort === 'relevance' && query.q === undefined) {
    errors.push({ parameter: 'sort', message: 'relevance needs a q to rank by' });
  }
  const priceMin = query.priceMin === undefined ? null : priceToUnits(query.priceMin);
  const priceMax = query.priceMax === undefined ? null : priceToUnits(query.priceMax);
  if (priceMin !== null && priceMax !== null && priceMin > priceMax) {
    errors.push({ parameter: 'priceMin', message: 'must not be greater than priceMax' });
  }
  const near = parseNear(query.near, errors);
  const bbox = parseBox(query.bbox, errors);
  if (query.near === undefined && query.radius !== undefined) {
    errors.push({ parameter: 'radius', message: 'needs near (the centre)' });
  }
  if (sort === 'distance' && query.near === undefined) {
    errors.push({ parameter: 'sort', message: 'distance needs near' });
  }
  if (query.highlight === true && query.q === undefined) {
    errors.push({ parameter: 'highlight', message: 'needs a q to highlight' });
  }
  // Everything that decides the result set and its order; `limit` may change between pages.
  const normalised: NormalisedSearch = {
    environment,
    q: query.q ?? null,
    typoTolerance: query.typoTolerance ?? 'auto',
    categories: [...new Set(query.category ?? [])].sort(),
    tags: [...new Set(query.tag ?? [])].sort(),
    city: query.city ?? null,
    near,
    radiusKm: query.radius ?? null,
    // Only when given: the fingerprint (and so the cursors) of a query without one is unchanged.
    ...(bbox !== null ? { bbox } : {}),
    country: upper(query.country),
    currency: upper(query.currency),
    priceMin,
    priceMax,
    publishedAfter: time(query.publishedAfter),
    publishedBefore: time(query.publishedBefore),
    updatedSince: time(query.updatedSince),
    status: query.status ?? 'active',
    attributes,
    sort,
    // Only when given, like bbox; part of the fingerprint (cursors) and of the cache key.
    ...('distinct' in query && query.distinct !== undefined ? { distinct: query.distinct } : {}),
  };
  return { normalised, text, sort, facets };
}
