import type { SqlValue } from '../db/database.js';
import type { CursorValue } from './cursor.js';
import { FACET_TOP, type FacetName, type SortOrder } from './schemas.js';
import {
  type Facets,
  type Fragment,
  OFFER_READ_COLUMNS,
  type SearchCriteria,
  type TextIndex,
} from './store.js';

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

/** The filter part shared by the page query and the count. */
export function whereClause(
  criteria: SearchCriteria,
  index: TextIndex,
  options: { skipText?: boolean; perRow?: boolean } = {},
): Fragment {
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
  if (criteria.text && !options.skipText) {
    const match =
      options.perRow && index.perRow ? index.perRow.match(criteria.text) : index.match(criteria.text);
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

export interface PageOptions {
  /**
   * `sort=relevance` runs as two ordered reads, one per tier (1: the title matches, 0: the
   * rest), each in `published_at, id` order, so an index can deliver the rows already sorted and
   * the read stops after `limit + 1` instead of sorting every match.
   */
  tier?: 0 | 1;
  /**
   * SQLite only: `INDEXED BY …` for a broad text query (more matches than the count bound),
   * where walking the sort index and testing each row against the text index finds a page
   * after a few rows, while starting from the text index sorts every match first.
   */
  indexHint?: string;
  /** While walking, check each row against FTS5 instead of listing the matches once. */
  perRow?: boolean;
  /**
   * SQLite: read the text matches first (`NOT INDEXED` leaves the planner only the rowid
   * lookups of the listed matches), for a text query known to match few offers.
   */
  textFirst?: boolean;
  limit?: number;
}

export type Walk = 'none' | 'list' | 'perRow';

/**
 * How to read a text query on SQLite, from its number of text matches (`matches`, counted up
 * to `walkCap`). Walking the sort index visits about (limit + 1) × rows / matches index entries
 * and stops; starting from FTS5 reads and sorts every match. With the matches listed once (a
 * bloom-filtered list, cheap per entry), walking wins from matches² > (limit + 1) × rows.
 * A per-row FTS5 check skips building the list but costs ~60× an entry, so it wins only for
 * very common words, matches² > 64 × (limit + 1) × rows — and never for a prefix, which FTS5
 * re-expands on every check.
 */
export function walkCap(limit: number, rows: number): number {
  return Math.ceil(Math.sqrt(64 * (limit + 1) * rows));
}

/**
 * From this many matches, walking with the matches listed once beats reading them all: a walk
 * step costs about a table-row lookup, or less where the table is stored roughly in date order
 * (imports usually are; 1M seeded offers: 0.8 µs a step against 2.8 µs a looked-up match), so
 * walking wins from matches² ≈ (limit + 1) × rows. Measured: 8 000 matches, 24 ms read first,
 * 2 ms walked.
 */
export function listCap(limit: number, rows: number): number {
  return Math.ceil(Math.sqrt((limit + 1) * rows));
}

export function chooseWalk(matches: number, limit: number, rows: number, hasPrefix: boolean): Walk {
  if (matches >= walkCap(limit, rows) && !hasPrefix) return 'perRow';
  return matches >= listCap(limit, rows) ? 'list' : 'none';
}

/**
 * SQLite: the index for a radius query without text. The planner, left alone, may prefer the
 * category index and then read the table row of every offer in the category to test its
 * position; the geo index holds position, category, status and expiry, so counting and ranking
 * by distance need no table row at all.
 */
export function geoIndex(criteria: SearchCriteria): string | undefined {
  return criteria.near && criteria.radiusKm !== null && !criteria.text ? 'offers_geo' : undefined;
}

/** The first ring searched by `sort=distance` over many matches (see `nearestFirst`), km. */
export const FIRST_RING_KM = 1;

/**
 * The index whose order is the sort order (SQLite hint for broad queries), if any; with one
 * category, the category's own date order.
 */
export function sortIndex(sort: SortOrder, categories: readonly string[] = []): string | null {
  if (sort === 'relevance' || sort === '-publishedAt' || sort === 'publishedAt')
    return categories.length === 1 ? 'offers_category_published' : 'offers_published';
  if (sort === 'price' || sort === '-price') return 'offers_price';
  return null;
}

export function pageQuery(criteria: SearchCriteria, index: TextIndex, options: PageOptions = {}): Fragment {
  const tiered = criteria.sort === 'relevance' && criteria.text !== null && options.tier !== undefined;
  // Within one tier the order is the rest of the relevance keys.
  const keys = tiered ? SORT_KEYS[criteria.sort].slice(1) : SORT_KEYS[criteria.sort];
  let after = criteria.after;
  const params: SqlValue[] = [];
  let extra = '';
  const perRow = options.indexHint !== undefined && options.perRow === true;
  // Tier 1 (the title matches the query) implies the text matches: only exclusions remain.
  const tierOne = tiered && options.tier === 1 && criteria.text;
  const filters = tierOne
    ? { ...criteria, text: { ...tierOne, terms: [], prefix: null, phrases: [] } }
    : criteria;
  const where = whereClause(filters, index, { perRow });
  const matchTitle = (text: NonNullable<SearchCriteria['text']>) =>
    perRow && index.perRow ? index.perRow.matchTitle(text) : index.matchTitle(text);
  let whereSql = where.sql;
  const whereParams = [...where.params];
  if (tiered && criteria.text) {
    const title = matchTitle(criteria.text);
    extra = `, ${options.tier} AS tier`;
    whereSql += options.tier === 1 ? ` AND ${title.sql}` : ` AND NOT (${title.sql})`;
    whereParams.push(...title.params);
    // A cursor in tier 1 continues tier 1 and then starts tier 0 from its top.
    after = after && Number(after[0]) === options.tier ? after.slice(1) : null;
  } else if (criteria.sort === 'relevance' && criteria.text) {
    const title = matchTitle(criteria.text);
    extra = `, CASE WHEN ${title.sql} THEN 1 ELSE 0 END AS tier`;
    params.push(...title.params);
  }
  if (criteria.sort === 'distance' && criteria.near) {
    const distance = distanceSql(criteria.near);
    extra += `, ${distance.sql} AS distance`;
    params.push(...distance.params);
  }
  params.push(...whereParams);
  let keyset = '';
  if (after) {
    const clause = keysetClause(keys, after);
    keyset = `WHERE ${clause.sql}`;
    params.push(...clause.params);
  }
  const order = keys.map((k) => `m.${k.column} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
  params.push((options.limit ?? criteria.limit) + 1);
  const hint = options.indexHint
    ? ` INDEXED BY ${options.indexHint}`
    : options.textFirst && criteria.text
      ? ' NOT INDEXED'
      : '';
  return {
    sql: `SELECT * FROM (SELECT ${OFFER_READ_COLUMNS}${extra} FROM offers o${hint} WHERE ${whereSql}) m ${keyset} ORDER BY ${order} LIMIT ?`,
    params,
  };
}

/**
 * The offers a query reads, as FROM + WHERE, driven by the text index where it offers to, else
 * by `indexHint` (SQLite) when given.
 */
function firstMatches(
  criteria: SearchCriteria,
  index: TextIndex,
  indexHint?: string,
): { from: string; where: Fragment } {
  const drive = criteria.text && index.drivingJoin ? index.drivingJoin(criteria.text) : null;
  const where = whereClause(criteria, index, { skipText: drive !== null });
  if (!drive) return { from: indexHint ? `offers o INDEXED BY ${indexHint}` : 'offers o', where };
  return {
    from: drive.from,
    where: { sql: `${drive.sql} AND ${where.sql}`, params: [...drive.params, ...where.params] },
  };
}

/** Counts matches, stopping at `bound + 1` so a broad query never counts the whole table. */
export function countQuery(
  criteria: SearchCriteria,
  index: TextIndex,
  bound: number,
  indexHint?: string,
): Fragment {
  const { from, where } = firstMatches(criteria, index, indexHint);
  return {
    sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where.sql} LIMIT ?) c`,
    params: [...where.params, bound + 1],
  };
}

/**
 * The facet fields of the first `bound` matches (the whole result set whenever `total` is
 * exact): one read, counted in JavaScript (see `countFacets`), so four facets cost one scan and
 * both backends agree whatever their collations.
 */
export function facetRowsQuery(
  criteria: SearchCriteria,
  index: TextIndex,
  bound: number,
  indexHint?: string,
): Fragment {
  const { from, where } = firstMatches(criteria, index, indexHint);
  return {
    sql: `SELECT o.category, o.tags, o.city, o.country FROM ${from} WHERE ${where.sql} LIMIT ?`,
    params: [...where.params, bound],
  };
}

export interface FacetRow {
  category: string;
  tags: string;
  city: string;
  country: string;
}

/** The top values of each field: by count, then by value in byte order. */
export function countFacets(rows: readonly FacetRow[], fields: readonly FacetName[]): Facets {
  const out: Facets = {};
  for (const field of fields) {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const values = field === 'tag' ? [...new Set(JSON.parse(row.tags) as string[])] : [row[field]];
      for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    out[field] = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, FACET_TOP);
  }
  return out;
}
