import type { SqlValue } from '../db/database.js';
import type { CursorValue } from './cursor.js';
import { FACET_TOP, type SortOrder } from './schemas.js';
import { OFFER_READ_COLUMNS, type SearchCriteria, type TextIndex } from './store.js';

interface SortKey {
  column: 'tier' | 'published_at' | 'price_value' | 'distance' | 'id';
  descending: boolean;
}

/**
 * Every order ends in `id`, so it is total: no two offers tie, and keyset paging neither skips
 * nor repeats. `relevance` is a tier (the title alone matches the query, or not) and then
 * recency: deterministic, identical on both backends and stable while the corpus changes,
 * which a corpus-statistics score such as bm25 is not (ADR 0003).
 */
export const SORT_KEYS: Record<SortOrder, SortKey[]> = {
  relevance: [
    { column: 'tier', descending: true },
    { column: 'published_at', descending: true },
    { column: 'id', descending: true },
  ],
  '-publishedAt': [
    { column: 'published_at', descending: true },
    { column: 'id', descending: true },
  ],
  publishedAt: [
    { column: 'published_at', descending: false },
    { column: 'id', descending: false },
  ],
  price: [
    { column: 'price_value', descending: false },
    { column: 'id', descending: false },
  ],
  '-price': [
    { column: 'price_value', descending: true },
    { column: 'id', descending: true },
  ],
  distance: [
    { column: 'distance', descending: false },
    { column: 'id', descending: false },
  ],
};

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const DEGREE = Math.PI / 180;

/**
 * Great-circle (haversine) distance in km from `near` to the offer, as SQL both dialects run
 * (SQLite's math functions, PostgreSQL's built-ins). Degrees are converted with a literal
 * factor rather than radians(), whose rounding may differ between the two; the CASE keeps
 * rounding from pushing asin out of its domain for antipodal points.
 */
export function distanceSql(near: { lat: number; lon: number }): Fragment {
  const p = 'CAST(? AS DOUBLE PRECISION)';
  const a = `power(sin((o.lat - ${p}) * ${DEGREE} / 2), 2) + cos(${p} * ${DEGREE}) * cos(o.lat * ${DEGREE}) * power(sin((o.lon - ${p}) * ${DEGREE} / 2), 2)`;
  return {
    sql: `(${2 * EARTH_RADIUS_KM} * asin(sqrt(CASE WHEN ${a} > 1 THEN 1 ELSE ${a} END)))`,
    params: [near.lat, near.lat, near.lon, near.lat, near.lat, near.lon],
  };
}

/** The same distance in JavaScript (the contract suite's oracle and docs). */
export function distanceKm(from: { lat: number; lon: number }, to: { lat: number; lon: number }): number {
  const a =
    Math.sin(((to.lat - from.lat) * DEGREE) / 2) ** 2 +
    Math.cos(from.lat * DEGREE) *
      Math.cos(to.lat * DEGREE) *
      Math.sin(((to.lon - from.lon) * DEGREE) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, a)));
}

/**
 * A box that holds every point within `radiusKm` of `near`, loose on purpose (a degree of
 * latitude is at least 110.5 km), so the geo index narrows the scan before the exact distance.
 * No longitude bound near the poles or across the antimeridian.
 */
function boundingBox(near: { lat: number; lon: number }, radiusKm: number): Fragment {
  const dLat = radiusKm / 110;
  const sql = ['o.lat BETWEEN ? AND ?'];
  const params: SqlValue[] = [near.lat - dLat, near.lat + dLat];
  const maxLat = Math.abs(near.lat) + dLat;
  if (maxLat < 89) {
    const dLon = dLat / Math.cos(maxLat * DEGREE);
    if (near.lon - dLon > -180 && near.lon + dLon < 180) {
      sql.push('o.lon BETWEEN ? AND ?');
      params.push(near.lon - dLon, near.lon + dLon);
    }
  }
  return { sql: sql.join(' AND '), params };
}

interface Fragment {
  sql: string;
  params: SqlValue[];
}

/** The filter part shared by the page query and the count. */
export function whereClause(criteria: SearchCriteria, index: TextIndex): Fragment {
  const where: string[] = ['o.environment = ?'];
  const params: SqlValue[] = [criteria.environment];
  switch (criteria.status) {
    case 'active':
      where.push("o.status = 'active' AND (o.expires_at IS NULL OR o.expires_at > ?)");
      params.push(criteria.now);
      break;
    case 'expired':
      where.push("(o.status = 'expired' OR (o.status = 'active' AND o.expires_at <= ?))");
      params.push(criteria.now);
      break;
    case 'withdrawn':
      where.push("o.status = 'withdrawn'");
      break;
  }
  if (criteria.text) {
    const match = index.match(criteria.text);
    where.push(match.sql);
    params.push(...match.params);
  }
  for (const tag of criteria.tags) {
    where.push('o.id IN (SELECT t.offer_id FROM offer_tags t WHERE t.tag = ?)');
    params.push(tag);
  }
  if (criteria.near && criteria.radiusKm !== null) {
    const box = boundingBox(criteria.near, criteria.radiusKm);
    const distance = distanceSql(criteria.near);
    where.push(box.sql, `${distance.sql} <= ?`);
    params.push(...box.params, ...distance.params, criteria.radiusKm);
  }
  if (criteria.categories.length > 0) {
    where.push(`o.category IN (${criteria.categories.map(() => '?').join(', ')})`);
    params.push(...criteria.categories);
  }
  const comparisons: [string, string, number | string | null][] = [
    ['o.city', '=', criteria.city],
    ['o.country', '=', criteria.country],
    ['o.currency', '=', criteria.currency],
    ['o.price_value', '>=', criteria.priceMin],
    ['o.price_value', '<=', criteria.priceMax],
    ['o.published_at', '>=', criteria.publishedAfter],
    ['o.published_at', '<', criteria.publishedBefore],
    ['o.updated_at', '>=', criteria.updatedSince],
  ];
  for (const [column, operator, value] of comparisons) {
    if (value === null) continue;
    where.push(`${column} ${operator} ?`);
    params.push(value);
  }
  return { sql: where.join(' AND '), params };
}

/** `(k1 < v1) OR (k1 = v1 AND k2 < v2) OR …`: rows strictly after the cursor in sort order. */
function keysetClause(keys: SortKey[], after: CursorValue[]): Fragment {
  const alternatives: string[] = [];
  const params: SqlValue[] = [];
  keys.forEach((key, i) => {
    const parts: string[] = [];
    for (let j = 0; j < i; j += 1) {
      parts.push(`m.${keys[j]?.column} = ?`);
      params.push(after[j] ?? null);
    }
    parts.push(`m.${key.column} ${key.descending ? '<' : '>'} ?`);
    params.push(after[i] ?? null);
    alternatives.push(`(${parts.join(' AND ')})`);
  });
  return { sql: alternatives.join(' OR '), params };
}

export function pageQuery(criteria: SearchCriteria, index: TextIndex): Fragment {
  const keys = SORT_KEYS[criteria.sort];
  const params: SqlValue[] = [];
  let tier = '';
  if (criteria.sort === 'relevance' && criteria.text) {
    const title = index.matchTitle(criteria.text);
    tier = `, CASE WHEN ${title.sql} THEN 1 ELSE 0 END AS tier`;
    params.push(...title.params);
  }
  if (criteria.sort === 'distance' && criteria.near) {
    const distance = distanceSql(criteria.near);
    tier += `, ${distance.sql} AS distance`;
    params.push(...distance.params);
  }
  const where = whereClause(criteria, index);
  params.push(...where.params);
  let keyset = '';
  if (criteria.after) {
    const clause = keysetClause(keys, criteria.after);
    keyset = `WHERE ${clause.sql}`;
    params.push(...clause.params);
  }
  const order = keys.map((k) => `m.${k.column} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
  params.push(criteria.limit + 1);
  return {
    sql: `SELECT * FROM (SELECT ${OFFER_READ_COLUMNS}${tier} FROM offers o WHERE ${where.sql}) m ${keyset} ORDER BY ${order} LIMIT ?`,
    params,
  };
}

/** Counts matches, stopping at `bound + 1` so a broad query never counts the whole table. */
export function countQuery(criteria: SearchCriteria, index: TextIndex, bound: number): Fragment {
  const where = whereClause(criteria, index);
  return {
    sql: `SELECT count(*) AS n FROM (SELECT 1 FROM offers o WHERE ${where.sql} LIMIT ?) c`,
    params: [...where.params, bound + 1],
  };
}

/**
 * Counts per value of one field over the first `bound` matches (the whole result set whenever
 * `total` is exact). The database groups; the top values are picked here by count, then by
 * value in byte order, so both backends agree whatever their collations.
 */
export function facetQuery(
  criteria: SearchCriteria,
  index: TextIndex,
  field: 'category' | 'tag' | 'city' | 'country',
  bound: number,
): Fragment {
  const where = whereClause(criteria, index);
  if (field === 'tag') {
    return {
      sql: `SELECT t.tag AS value, count(*) AS n FROM offer_tags t JOIN (SELECT o.id FROM offers o WHERE ${where.sql} LIMIT ?) m ON t.offer_id = m.id GROUP BY t.tag`,
      params: [...where.params, bound],
    };
  }
  return {
    sql: `SELECT m.${field} AS value, count(*) AS n FROM (SELECT o.${field} FROM offers o WHERE ${where.sql} LIMIT ?) m GROUP BY m.${field}`,
    params: [...where.params, bound],
  };
}

export function topFacetValues(rows: { value: string; n: number | string }[]) {
  return rows
    .map((r) => ({ value: r.value, count: Number(r.n) }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, FACET_TOP);
}
