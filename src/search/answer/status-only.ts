import type { EngineQuery, EngineResult, FacetName, Facets } from '../engine.js';
import { addCounts, countsOf } from '../facets/facet-counts.js';
import { topValues } from '../facets/facets.js';
import type { CountsView, IndexView } from '../index-view.js';
import type { Position } from '../order/top-k.js';
import { keysOf } from '../query/cursor-keys.js';
import { hasFilter, STATUS_CODE } from '../query/filters.js';

/**
 * The status-only path: a query filtering on the status alone answered from the counts the
 * index keeps per stored status (and per status and facet value) and a walk of a sorted order,
 * without building its matches.
 */

/**
 * A query filtering on the status alone (no text, no other filter) sorted by publishedAt or
 * price: the total and facets from the maintained counts, adjusted for the active offers past
 * their expiry (the late set at `now`, and the counts the index keeps among it), and the page
 * walked in the sorted order testing the status. Null when the query is not of that kind or the walk would be long.
 */
export function statusOnly(
  ix: IndexView,
  query: EngineQuery,
  after: Position | null,
  facetNames: readonly FacetName[],
): EngineResult | null {
  const sort = query.sort;
  if (sort !== 'publishedAt' && sort !== '-publishedAt' && sort !== 'price' && sort !== '-price') return null;
  if (query.text !== null || hasFilter(query)) return null;
  const wanted = STATUS_CODE[query.status];
  const size = ix.ids.length;
  const now = query.now;
  // Offers stored active but past their expiry count as expired.
  const lateSet = ix.late.at(now, size);
  const alive = ix.alive.data;
  const status = ix.status.data;
  const sign = wanted === 0 ? -1 : wanted === 1 ? 1 : 0;
  const total = (ix.statusCounts[wanted] as number) + sign * lateSet.size;
  const k = query.limit + 1;
  if (total <= 0 || k * (size / total) > total) return null;
  const facets: Facets = {};
  for (const name of facetNames) {
    const values = ix.tables[name].values;
    const counts = countsOf(ix.valueCounts[wanted] as CountsView, name, values.length);
    if (sign !== 0) addCounts(counts, ix.lateCounts[name], sign);
    facets[name] = topValues(counts, values);
  }
  const expires = ix.activeUntil.data;
  const published = sort === 'publishedAt' || sort === '-publishedAt';
  const slots = (published ? ix.byPublished : ix.byPrice).walk(
    size,
    sort === '-publishedAt' || sort === '-price',
    after ? { value: after.primary, id: after.id } : null,
    (slot) => {
      if (alive[slot] === 0) return false;
      let st = status[slot] as number;
      if (st === 0 && (expires[slot] as number) <= now) st = 1;
      return st === wanted;
    },
    k,
  ) as number[];
  const more = slots.length > query.limit;
  if (more) slots.length = query.limit;
  const column = published ? ix.publishedAt.data : ix.price.data;
  const last = slots[slots.length - 1];
  return {
    ids: slots.map((slot) => ix.ids[slot] as string),
    total,
    facets,
    nextKeys: more && last !== undefined ? keysOf(ix, query, last, column[last] as number) : null,
  };
}
