import type { FacetCount, FacetName, FacetRequest, Facets } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { andNot, type Bits, countValues, membersOf, scratch } from '../sets/slot-sets.js';
import { addCounts } from './facet-counts.js';
import type { StemBase } from './stem-facets.js';

/**
 * A query's facets (ADR 0019): exact counts over every match, the top FACET_TOP values of each
 * requested column. Each column is counted the cheaper of two exact ways, chosen per column:
 *
 * - one AND-cardinality per value: about constant once the matches are dense (CRoaring bitset
 *   containers, over 4 096 of a block of 65 536 slots), but between two sparse (array)
 *   containers a merge, so its cost grows with the matches × the column's values;
 * - a pass over the matches reading the column: grows with the matches × values per offer.
 *
 * So: a pass for few matches (`facetPassBelow`), or while the matches are sparse for a column
 * of many values per value an offer holds (`facetPassValues`); else the AND-cardinalities.
 */

const FACET_TOP = 20;
/** A CRoaring container holds 2^16 slots; above this many members it is a bitset. */
const BLOCK = 65_536;
const SPARSE_BELOW = 4_096;

export function facetsOf(
  ix: IndexView,
  bits: Bits,
  names: readonly FacetName[],
  base: StemBase | null = null,
): Facets {
  const out: Facets = {};
  if (names.length === 0) return out;
  // With a base (stem-facets.ts), `bits` holds every offer of the base's set that the kept
  // counts count: those are added, and only the rest of the matches counted here.
  const rest = base === null ? bits : base.set === null ? scratch() : andNot(bits, base.set);
  const blocks = Math.max(1, Math.ceil(ix.ids.length / BLOCK));
  const sparse = rest.size < SPARSE_BELOW * blocks;
  let members: Int32Array | null = null;
  for (const name of names) {
    const counts = columnCounts(ix, rest, name, sparse, () => {
      members ??= membersOf(rest, ix.matchBuffer);
      return members;
    });
    if (base !== null) addCounts(counts, base.counts[name]);
    out[name] = topValues(counts, ix.tables[name].values);
  }
  return out;
}

/**
 * Every value of column `name` with its count over `bits` (facet-value search, ADR 0037): the
 * same exact counting as `facetsOf`, without the top cut.
 */
export function allFacetValues(ix: IndexView, bits: Bits, name: FacetName): FacetCount[] {
  const blocks = Math.max(1, Math.ceil(ix.ids.length / BLOCK));
  const members = () => membersOf(bits, ix.matchBuffer);
  const counts = columnCounts(ix, bits, name, bits.size < SPARSE_BELOW * blocks, members);
  return topValues(counts, ix.tables[name].values, Number.POSITIVE_INFINITY);
}

/** Counts per value id of column `name` over `rest`, the cheaper exact way (see above). */
function columnCounts(
  ix: IndexView,
  rest: Bits,
  name: FacetName,
  sparse: boolean,
  members: () => Int32Array,
): Int32Array {
  const n = rest.size;
  const values = ix.tables[name].values.length;
  const perOffer = name === 'tag' ? Math.max(1, ix.tagIds.length / Math.max(1, ix.ids.length)) : 1;
  const pass = n < ix.tuning.facetPassBelow || (sparse && values >= ix.tuning.facetPassValues * perOffer);
  if (n === 0) return new Int32Array(values);
  if (pass) return name === 'tag' ? passTags(ix, members()) : passColumn(ix[name].data, values, members());
  return countValues(rest, ix.sets[name]);
}

/** Counts per value id of a one-value column (category, city, country) over the matches. */
function passColumn(column: Int32Array, values: number, matches: Int32Array): Int32Array {
  const counts = new Int32Array(values);
  for (let i = 0; i < matches.length; i += 1) {
    const v = column[matches[i] as number] as number;
    counts[v] = (counts[v] as number) + 1;
  }
  return counts;
}

/** Counts per tag id over the matches (an offer's tags are distinct). */
function passTags(ix: IndexView, matches: Int32Array): Int32Array {
  const counts = new Int32Array(ix.tags.values.length);
  const offsets = ix.tagOffsets.data;
  const tagIds = ix.tagIds.data;
  for (let i = 0; i < matches.length; i += 1) {
    const slot = matches[i] as number;
    const to = offsets[slot + 1] as number;
    for (let p = offsets[slot] as number; p < to; p += 1) {
      const t = tagIds[p] as number;
      counts[t] = (counts[t] as number) + 1;
    }
  }
  return counts;
}

export function emptyFacets(names: readonly FacetRequest[]): Facets {
  const out: Facets = {};
  for (const name of names) if (name !== 'price') out[name] = [];
  return out;
}

/** The `top` values with the most offers (ties by value), from counts per value id. */
export function topValues(counts: Int32Array, values: readonly string[], top = FACET_TOP): FacetCount[] {
  const out: FacetCount[] = [];
  counts.forEach((count, id) => {
    if (count > 0) out.push({ value: values[id] as string, count });
  });
  out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return out.slice(0, top);
}
