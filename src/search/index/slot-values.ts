import { countSlot, type FacetCounts } from '../facets/facet-counts.js';
import type { IndexView } from '../index-view.js';
import type { GeoGrid } from '../sets/geo-grid.js';
import type { PriceRanges } from '../sets/price-ranges.js';
import type { BucketSets, ValueSets } from '../sets/slot-sets.js';

/** What counting a slot's values writes: the value sets, the grid, the price buckets and ranges, the counts. */
export interface ValueColumns extends IndexView {
  readonly sets: IndexView['sets'] &
    Readonly<Record<'status' | 'category' | 'city' | 'country' | 'currency' | 'tag', ValueSets>>;
  readonly grid: GeoGrid;
  readonly priceBuckets: BucketSets;
  readonly priceRanges: PriceRanges;
  readonly statusCounts: Int32Array;
  readonly valueCounts: readonly FacetCounts[];
}

/**
 * A slot counted in (+1) or out (−1) of every value it has (search-index.ts `upsert`, `remove`):
 * the value sets, the grid, the price buckets and ranges, the attribute columns' sets, the
 * counts per stored status and per value.
 */
export function countValues(ix: ValueColumns, slot: number, delta: 1 | -1): void {
  const status = ix.status.data[slot] as number;
  const sets = ix.sets;
  const lat = ix.lat.data[slot] as number;
  const lon = ix.lon.data[slot] as number;
  const values: Array<[ValueSets, number]> = [
    [sets.status, status],
    [sets.category, ix.category.data[slot] as number],
    [sets.city, ix.city.data[slot] as number],
    [sets.country, ix.country.data[slot] as number],
    [sets.currency, ix.currency.data[slot] as number],
  ];
  for (let p = ix.tagOffsets.data[slot] as number; p < (ix.tagOffsets.data[slot + 1] as number); p += 1)
    values.push([sets.tag, ix.tagIds.data[p] as number]);
  const price = ix.price.data[slot] as number;
  if (delta === 1) {
    for (const [set, value] of values) set.add(value, slot);
    ix.grid.add(slot, lat, lon);
    ix.priceBuckets.add(price, slot);
    ix.priceRanges.added(price, slot);
  } else {
    for (const [set, value] of values) set.remove(value, slot);
    ix.grid.remove(slot, lat, lon);
    ix.priceBuckets.remove(price, slot);
    ix.priceRanges.removed(price, slot);
  }
  ix.attributes.count(slot, delta);
  ix.statusCounts[status] = (ix.statusCounts[status] as number) + delta;
  countSlot(ix, ix.valueCounts[status] as FacetCounts, slot, delta);
}
