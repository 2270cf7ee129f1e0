import type { FacetName } from '../offers/schemas.js';
import type { Facets } from '../offers/store.js';
import type { Index } from './search-index.js';
import { type Bits, countValues, membersOf } from './slot-sets.js';

/**
 * A query's facets (ADR 0019): exact counts over every match, the top FACET_TOP values of each
 * requested column; one AND-cardinality per value, or one pass over the matches when few.
 */

const FACET_TOP = 20;

/** Exact counts: one AND-cardinality per value, or one pass over the matches when they are few. */
export function facetsOf(ix: Index, bits: Bits, names: readonly FacetName[]): Facets {
  if (names.length === 0) return {};
  if (bits.size < ix.tuning.facetPassBelow) return passFacets(ix, membersOf(bits, ix.matchBuffer), names);
  const out: Facets = {};
  for (const name of names) out[name] = topValues(countValues(bits, ix.sets[name]), ix.tables[name].values);
  return out;
}

/** Every requested facet counted in one pass over the matches (local arrays, no per-match allocation). */
function passFacets(ix: Index, matches: Int32Array, names: readonly FacetName[]): Facets {
  const counter = (wanted: FacetName, size: number) => (names.includes(wanted) ? new Int32Array(size) : null);
  const categoryCounts = counter('category', ix.categories.values.length);
  const cityCounts = counter('city', ix.cities.values.length);
  const countryCounts = counter('country', ix.countries.values.length);
  const tagCounts = counter('tag', ix.tags.values.length);
  if (categoryCounts || cityCounts || countryCounts || tagCounts) {
    const category = ix.category.data;
    const city = ix.city.data;
    const country = ix.country.data;
    const offsets = ix.tagOffsets.data;
    const tagIds = ix.tagIds.data;
    const count = matches.length;
    for (let i = 0; i < count; i += 1) {
      const slot = matches[i] as number;
      if (categoryCounts !== null) {
        const v = category[slot] as number;
        categoryCounts[v] = (categoryCounts[v] as number) + 1;
      }
      if (cityCounts !== null) {
        const v = city[slot] as number;
        cityCounts[v] = (cityCounts[v] as number) + 1;
      }
      if (countryCounts !== null) {
        const v = country[slot] as number;
        countryCounts[v] = (countryCounts[v] as number) + 1;
      }
      if (tagCounts !== null) {
        const to = offsets[slot + 1] as number;
        for (let p = offsets[slot] as number; p < to; p += 1) {
          const t = tagIds[p] as number;
          tagCounts[t] = (tagCounts[t] as number) + 1;
        }
      }
    }
  }
  const out: Facets = {};
  for (const name of names) {
    if (name === 'category') out.category = topValues(categoryCounts as Int32Array, ix.categories.values);
    else if (name === 'city') out.city = topValues(cityCounts as Int32Array, ix.cities.values);
    else if (name === 'country') out.country = topValues(countryCounts as Int32Array, ix.countries.values);
    else out.tag = topValues(tagCounts as Int32Array, ix.tags.values);
  }
  return out;
}

export function emptyFacets(names: readonly FacetName[]): Facets {
  const out: Facets = {};
  for (const name of names) out[name] = [];
  return out;
}

/** The FACET_TOP values with the most offers (ties by value), from counts per value id. */
export function topValues(counts: Int32Array, values: readonly string[]) {
  const out: Array<{ value: string; count: number }> = [];
  counts.forEach((count, id) => {
    if (count > 0) out.push({ value: values[id] as string, count });
  });
  out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return out.slice(0, FACET_TOP);
}
