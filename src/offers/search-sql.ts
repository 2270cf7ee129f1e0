import type { SqlValue } from '../db/database.js';
import type { CursorValue } from './cursor.js';
import type { SortOrder } from './schemas.js';
import { OFFER_READ_COLUMNS, type SearchCriteria, type TextIndex } from './store.js';

interface SortKey {
  column: 'tier' | 'published_at' | 'price_value' | 'id';
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
};

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
  if (criteria.categories.length > 0) {
    where.push(`o.category IN (${criteria.categories.map(() => '?').join(', ')})`);
    params.push(...criteria.categories);
  }
  const comparisons: [string, string, number | string | null][] = [
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
