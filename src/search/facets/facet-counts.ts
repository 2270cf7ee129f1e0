import { GrowableInt32 } from '../columns/growable.js';
import type { FacetName } from '../engine.js';
import type { Column, CountsView, IndexView } from '../index-view.js';

/**
 * Counts per value of each facet column (category, city, country, tag) over some set of offers
 * the index keeps as offers come and go: per stored status (Index.valueCounts), among the late
 * offers (Index.lateCounts), per frequent stem (stem-facets.ts).
 */
export type FacetCounts = Record<FacetName, GrowableInt32>;

export function facetCounts(): FacetCounts {
  return {
    category: new GrowableInt32(),
    city: new GrowableInt32(),
    country: new GrowableInt32(),
    tag: new GrowableInt32(),
  };
}

/** Counts the slot's values in (+1) or out (−1). */
export function countSlot(ix: IndexView, counts: FacetCounts, slot: number, delta: number): void {
  counts.category.bump(ix.category.data[slot] as number, delta);
  counts.city.bump(ix.city.data[slot] as number, delta);
  counts.country.bump(ix.country.data[slot] as number, delta);
  const to = ix.tagOffsets.data[slot + 1] as number;
  for (let p = ix.tagOffsets.data[slot] as number; p < to; p += 1)
    counts.tag.bump(ix.tagIds.data[p] as number, delta);
}

/** Adds `sign` × the kept counts of `column` into `counts` (by value id). */
export function addCounts(counts: Int32Array, column: Column<Int32Array>, sign = 1): void {
  const to = Math.min(column.length, counts.length);
  for (let v = 0; v < to; v += 1) counts[v] = (counts[v] as number) + sign * (column.data[v] as number);
}

/** The kept counts of column `name` as an array over its values (a copy, zeros past the kept). */
export function countsOf(counts: CountsView, name: FacetName, values: number): Int32Array {
  const kept = counts[name];
  const out = new Int32Array(values);
  out.set(kept.data.subarray(0, Math.min(kept.length, values)));
  return out;
}
