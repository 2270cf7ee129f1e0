import { attributeFilters } from '../attributes/read.js';
import type { EngineQuery } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { distanceKm, inBox } from '../sets/geo.js';
import {
  andNot,
  type Bits,
  copyOf,
  keepCovered,
  membersOf,
  or,
  scratch,
  unionOf,
} from '../sets/slot-sets.js';
import { STATUS_CODE } from './filters.js';
import { textHolds } from './phrases.js';
import type { Plan } from './plan.js';
import { sequenceSets } from './split-pairs.js';

/**
 * A query's matches as one bitmap (ADR 0019): the effective status, each filter on a column
 * value and each word of `q` are bitmaps ANDed together, smallest first; a price or publication
 * range is a slice of the precomputed order (or a test per match when the matches are fewer);
 * what no bitmap holds (updatedSince, the points of the grid cells the radius crosses, phrases
 * and exclusions) is tested per remaining match.
 */

/** What one unit of `q` (a typed word or the prefix) matches. */
export interface UnitSets {
  /** Index = typo count: the offers holding a stem the unit matches with that many edits. */
  levels: Bits[];
  /** Every offer holding one of the unit's stems (or one of its sequences). */
  all: Bits;
  /** The offers holding one of its sequences in the title, in the searchable attributes, an exact one anywhere; null without. */
  sequenceTitle: Bits | null;
  sequenceAttribute: Bits | null;
  sequenceExact: Bits | null;
}

/** Slots per CRoaring container, and the steps an operation on one is counted as. */
const CONTAINER_SLOTS = 65_536;
const CONTAINER_STEPS = 64;

export function unitSets(ix: IndexView, plan: Plan): UnitSets[] {
  const sets = plan.units.map((unit) => unitSet(ix, unit));
  // Sequences no offer holds were dropped: without any, ranking takes its quicker paths.
  plan.hasSequences = plan.units.some((u) => u.sequences.length > 0);
  return sets;
}

function unitSet(ix: IndexView, unit: Plan['units'][number]): UnitSets {
  const stemsByCost: number[][] = [];
  for (const [s, cost] of unit.costs) {
    const list = stemsByCost[cost] ?? [];
    stemsByCost[cost] = list;
    list.push(s);
  }
  // Index = typo cost: each level the union of its stems' words (a scratch bitmap of its own).
  const levels: Bits[] = [];
  for (let c = 0; c < stemsByCost.length; c += 1) {
    const stems = stemsByCost[c];
    levels.push(stems === undefined ? scratch() : ix.unions.union(ix, 'word', stems));
  }
  let sequenceTitle: Bits | null = null;
  let sequenceAttribute: Bits | null = null;
  let sequenceExact: Bits | null = null;
  if (unit.sequences.length > 0) {
    const sets = sequenceSets(ix, unit.sequences);
    if (sets.any.size === 0) unit.sequences = [];
    if (levels.length === 0) levels.push(scratch());
    (levels[0] as Bits).orInPlace(sets.any);
    sequenceTitle = sets.title;
    sequenceAttribute = sets.attribute;
    sequenceExact = sets.exact;
  }
  return { levels, all: unionOf(levels), sequenceTitle, sequenceAttribute, sequenceExact };
}

/** The offers holding one of the stems (every word of each). */
export function stemsSet(ix: IndexView, stems: Iterable<number>, of: 'word' | 'title' | 'attribute'): Bits {
  return ix.unions.union(ix, of, [...stems]);
}

/**
 * The live offers whose effective status is `status` at `now`: the stored one, except that
 * active offers past their expiry count as expired (read from the expiry order up to `now`).
 */
export function effectiveStatus(ix: IndexView, status: keyof typeof STATUS_CODE, now: number): Bits {
  const code = STATUS_CODE[status];
  const own = ix.sets.status.get(code);
  if (code === 2) return own;
  const late = ix.late.at(now, ix.slots);
  if (late.size === 0) return own;
  return code === 0 ? andNot(own, late) : or(own, late);
}

/** The matches; `units` from unitSets(plan). Never one of the index's own bitmaps (safe to keep). */
export function matchSet(ix: IndexView, query: EngineQuery, plan: Plan | null, units: UnitSets[]): Bits {
  const parts: Bits[] = [effectiveStatus(ix, query.status, query.now)];
  const sets = ix.sets;
  const tables = ix.tables;
  if (query.categories.length > 0) {
    const known: Bits[] = [];
    for (const c of query.categories) {
      const id = tables.category.ids.get(c);
      if (id !== undefined) known.push(sets.category.get(id));
    }
    parts.push(unionOf(known));
  }
  const single = (name: 'city' | 'country' | 'currency' | 'tag', value: string | null) => {
    if (value === null) return;
    const id = tables[name].ids.get(value);
    parts.push(id === undefined ? scratch() : sets[name].get(id));
  };
  single('city', query.city);
  single('country', query.country);
  single('currency', query.currency);
  for (const tag of query.tags) single('tag', tag);
  for (const unit of units) parts.push(unit.all);
  const tests: Array<(slot: number) => boolean> = [];
  if (query.attributes.length > 0) attributeFilters(ix.attributes, query.attributes, parts, tests);
  if (plan) for (const phrase of plan.phrases) for (const s of phrase) parts.push(stemsSet(ix, [s], 'word'));
  parts.sort((a, b) => a.size - b.size);
  const bits = copyOf(parts[0] as Bits);
  for (let i = 1; i < parts.length && bits.size > 0; i += 1) bits.andInPlace(parts[i] as Bits);
  if (bits.size === 0) return bits;
  if (query.priceMin !== null || query.priceMax !== null) {
    const lo = query.priceMin ?? Number.NEGATIVE_INFINITY;
    const hi = query.priceMax ?? Number.POSITIVE_INFINITY;
    const { inside, ends, parts } = ix.priceRanges.cover(lo, hi);
    const price = ix.price.data;
    const test = (slot: number) => (price[slot] as number) >= lo && (price[slot] as number) <= hi;
    // The bitmaps cost about a step per container of each part and a test per member of the
    // ends; the other way, a test per match.
    let edge = 0;
    for (const end of ends) edge += end.size;
    const steps = edge + parts * Math.ceil(ix.slots / CONTAINER_SLOTS) * CONTAINER_STEPS;
    if (steps * ix.tuning.rangeSliceCost <= bits.size)
      keepCovered(bits, [inside()], ends, test, ix.scratchMembers());
    else tests.push(test);
  }
  if (query.near !== null && query.radiusKm !== null) within(ix, bits, query.near, query.radiusKm, tests);
  const box = query.bbox ?? null;
  if (box !== null) {
    // Whole grid cells inside the window, the points of the cells on its edges tested.
    const lat = ix.lat.data;
    const lon = ix.lon.data;
    const { inside, boundary } = ix.grid.cellsInBox(box);
    const test = (slot: number) => inBox(box, lat[slot] as number, lon[slot] as number);
    coverOrTest(ix, bits, inside, boundary, test, tests);
  }
  range(ix, bits, query.publishedAfter, query.publishedBefore, tests);
  if (query.updatedSince !== null) {
    const updated = ix.updatedAt.data;
    const since = query.updatedSince;
    tests.push((slot) => (updated[slot] as number) >= since);
  }
  if (plan !== null && (plan.phrases.length > 0 || plan.excluded.length > 0))
    tests.push((slot) => textHolds(ix, slot, plan));
  if (tests.length > 0) {
    // The members that fail a test, compacted in place in the scratch buffer.
    const members = membersOf(bits, ix.scratchMembers());
    let failed = 0;
    for (let i = 0; i < members.length; i += 1) {
      const slot = members[i] as number;
      for (let t = 0; t < tests.length; t += 1)
        if (!(tests[t] as (slot: number) => boolean)(slot)) {
          members[failed++] = slot;
          break;
        }
    }
    if (failed > 0) bits.removeMany(members.subarray(0, failed));
  }
  return bits;
}

/**
 * A publication range (from inclusive, `to` exclusive): ANDed as the slice of the sorted order
 * when that slice is smaller than the matches, else a test per match.
 */
function range(
  ix: IndexView,
  bits: Bits,
  from: number | null,
  to: number | null,
  tests: Array<(slot: number) => boolean>,
): void {
  if (from === null && to === null) return;
  const lo = from ?? Number.NEGATIVE_INFINITY;
  const hi = to ?? Number.POSITIVE_INFINITY;
  const slices = ix.byPublished.between(ix.slots, lo, hi, false);
  let inRange = 0;
  for (const slice of slices) inRange += slice.length;
  if (inRange * ix.tuning.rangeSliceCost < bits.size) {
    const slice = scratch();
    for (const part of slices) slice.addMany(part);
    bits.andInPlace(slice);
    return;
  }
  const values = ix.publishedAt.data;
  tests.push((slot) => (values[slot] as number) >= lo && (values[slot] as number) < hi);
}

/**
 * A range (or radius) as bitmaps: the union of what lies wholly inside, plus the members of the
 * ends tested one by one; or, when the matches are fewer than what lies inside, a test of every
 * match (pushed to `tests`).
 */
function coverOrTest(
  ix: IndexView,
  bits: Bits,
  inside: readonly Bits[],
  ends: readonly Bits[],
  test: (slot: number) => boolean,
  tests: Array<(slot: number) => boolean>,
): void {
  // Sizes summed only until they pass the matches': then a test per match is the cheaper way.
  const most = bits.size / ix.tuning.rangeSliceCost;
  let covered = 0;
  for (const set of inside) {
    covered += set.size;
    if (covered > most) {
      tests.push(test);
      return;
    }
  }
  keepCovered(bits, inside, ends, test, ix.scratchMembers());
}

/** Keeps the matches within the radius: whole grid cells inside it, points tested in the others. */
function within(
  ix: IndexView,
  bits: Bits,
  near: { lat: number; lon: number },
  radiusKm: number,
  tests: Array<(slot: number) => boolean>,
): void {
  const { inside, boundary } = ix.grid.cellsWithin(near, radiusKm);
  const point = { lat: 0, lon: 0 };
  const lat = ix.lat.data;
  const lon = ix.lon.data;
  const test = (slot: number) => {
    point.lat = lat[slot] as number;
    point.lon = lon[slot] as number;
    return distanceKm(near, point) <= radiusKm;
  };
  const cells = (list: typeof inside) => list.map((c) => c.bits);
  coverOrTest(ix, bits, cells(inside), cells(boundary), test, tests);
}
