import { attributeSortValues } from '../attributes/read.js';
import { GrowableFloat64, GrowableInt32 } from '../columns/growable.js';
import type { EngineQuery } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { type Position, selectPage } from '../order/top-k.js';
import { attributeSort } from '../rules.js';
import { distanceKm } from '../sets/geo.js';
import { and, andNot, type Bits, membersOf, unionOf } from '../sets/slot-sets.js';

/**
 * Pages in a sort order of their own (ADR 0019): publishedAt and price by walking the
 * precomputed order or by price bucket, distance by grid cells nearest first, and the sort
 * values of the matches when the page is selected among all of them.
 */

/**
 * sort=publishedAt / price in either direction: the page by walking the precomputed order from
 * the cursor, testing membership in the matches, when that walk is expected to be shorter than
 * a pass over the matches (the walk reads about (limit + 1) × slots / matches slots). Null when
 * the pass over the matches is the cheaper (or the only) way.
 */
export function walkPage(
  ix: IndexView,
  query: EngineQuery,
  bits: Bits,
  after: Position | null,
): SortedPage | null {
  const sort = query.sort;
  if (sort.includes('attr.')) return attributePage(ix, query, bits, after);
  if (sort !== 'publishedAt' && sort !== '-publishedAt' && sort !== 'price' && sort !== '-price') return null;
  const count = bits.size;
  const size = ix.ids.length;
  const k = query.limit + 1;
  const expected = k * (size / count);
  const published = sort === 'publishedAt' || sort === '-publishedAt';
  if (count === 0) return null;
  if (expected * ix.tuning.walkCost > count) return published ? null : pricePage(ix, query, bits, after);
  const order = published ? ix.byPublished : ix.byPrice;
  const slots = order.walk(
    size,
    sort === '-publishedAt' || sort === '-price',
    after ? { value: after.primary, id: after.id } : null,
    (slot) => bits.has(slot),
    k,
    // The matches may cluster at the far end of the order: past this, the pass is cheaper.
    4 * expected + 64,
  );
  if (slots === null) return published ? null : pricePage(ix, query, bits, after);
  const more = slots.length > query.limit;
  if (more) slots.length = query.limit;
  return { slots, more, value: columnValue(published ? ix.publishedAt.data : ix.price.data) };
}

/** A page in a sort order of its own, and a slot's sort value (the cursor's primary). */
export interface SortedPage {
  slots: number[];
  more: boolean;
  value: (slot: number) => number;
}

const columnValue = (column: Float64Array) => (slot: number) => column[slot] as number;

/**
 * sort=attr.NAME / -attr.NAME on a number attribute of few values (a set per value, ADR 0046):
 * the values in order from the cursor's, each value's set ANDed with the matches, the page
 * selected among the members of the few values it needs (ties by id, as in a pass over every
 * match); the matches without the attribute after them all, either way (their value ±∞). Null
 * without sets per value: every match's value is read (`sortValues`).
 */
function attributePage(
  ix: IndexView,
  query: EngineQuery,
  bits: Bits,
  after: Position | null,
): SortedPage | null {
  const by = attributeSort(query.sort);
  const column = by ? ix.attributes.byName.get(by.name) : undefined;
  const few = column?.few ?? null;
  if (by === null || column === undefined || few === null) return null;
  const { descending } = by;
  const missing = descending ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const k = query.limit + 1;
  const order = { primaryDescending: descending, relevance: false };
  const out: number[] = [];
  const select = (members: Int32Array, value: number) => {
    const primary = ix.primaries(members.length);
    primary.fill(value, 0, members.length);
    const rows = { slots: members, primary, published: ix.publishedAt.data, ids: ix.ids };
    for (const i of selectPage(rows, members.length, order, after, k - out.length).page)
      out.push(members[i] as number);
  };
  const ids = few.values.map((_, id) => id);
  ids.sort((a, b) => ((few.values[a] as number) - (few.values[b] as number)) * (descending ? -1 : 1));
  for (const id of ids) {
    if (out.length >= k) break;
    const value = few.values[id] as number;
    // Values before the cursor's hold nothing after it.
    if (after !== null && (descending ? value > after.primary : value < after.primary)) continue;
    const members = membersOf(and(few.sets.get(id), bits), ix.matchBuffer);
    if (members.length > 0) select(members, value);
  }
  if (out.length < k) {
    const valued = unionOf(ids.map((id) => few.sets.get(id)));
    const members = membersOf(andNot(bits, valued), ix.matchBuffer);
    if (members.length > 0) select(members, missing);
  }
  const more = out.length > query.limit;
  if (more) out.length = query.limit;
  const values = column.values.data;
  return {
    slots: out,
    more,
    value: (slot) => (Number.isNaN(values[slot] as number) ? missing : (values[slot] as number)),
  };
}

/**
 * sort=price / -price without a short walk: the price buckets in order from the cursor's, each
 * ANDed with the matches, the page selected among the members of the few buckets it needs
 * (every value of a bucket comes before every value of the next).
 */
function pricePage(ix: IndexView, query: EngineQuery, bits: Bits, after: Position | null): SortedPage {
  const descending = query.sort === '-price';
  const k = query.limit + 1;
  const out: number[] = [];
  const price = ix.price.data;
  const order = { primaryDescending: descending, relevance: false };
  for (const bucket of ix.priceBuckets.from(after ? after.primary : null, descending)) {
    const members = membersOf(and(bucket, bits), ix.matchBuffer);
    if (members.length === 0) continue;
    const primary = ix.primaries(members.length);
    for (let i = 0; i < members.length; i += 1) primary[i] = price[members[i] as number] as number;
    const rows = { slots: members, primary, published: ix.publishedAt.data, ids: ix.ids };
    const { page } = selectPage(rows, members.length, order, after, k - out.length);
    for (const i of page) out.push(members[i] as number);
    if (out.length >= k) break;
  }
  const more = out.length > query.limit;
  if (more) out.length = query.limit;
  return { slots: out, more, value: columnValue(price) };
}

/**
 * sort=distance: the matches of the grid cells nearest `near`, cell after cell, until more
 * than a page lies after the cursor and no further cell can hold anything nearer than the
 * page's last (the (limit + 1)-th nearest read so far); with their distances. Everything left
 * out comes after all of them.
 */
export function nearest(
  ix: IndexView,
  near: { lat: number; lon: number },
  bits: Bits,
  after: Position | null,
  limit: number,
  /** The query's radius: cells wholly beyond it hold no match and are never read. */
  radiusKm: number | null = null,
): { slots: Int32Array; primary: Float64Array } {
  const slots = new GrowableInt32(64);
  const distances = new GrowableFloat64(64);
  const point = { lat: 0, lon: 0 };
  const from = after ? after.primary : Number.NEGATIVE_INFINITY;
  // The limit + 1 smallest distances read after the cursor, ascending.
  const best: number[] = [];
  // Every match lies in one cell: once all are read, no further cell can hold one (without this a
  // query with few or no matches would read every cell on the globe).
  let unread = bits.size;
  for (const { cell, min, max } of ix.grid.nearestFirst(near, radiusKm)) {
    if (unread === 0) break;
    if (best.length > limit && min > (best[limit] as number)) break;
    const members = membersOf(and(cell.bits, bits), ix.matchBuffer);
    unread -= members.length;
    if (max < from) continue;
    for (let k = 0; k < members.length; k += 1) {
      const slot = members[k] as number;
      point.lat = ix.lat.data[slot] as number;
      point.lon = ix.lon.data[slot] as number;
      const d = distanceKm(near, point);
      if (d < from || (d === from && after !== null && (ix.ids[slot] as string) <= after.id)) continue;
      slots.push(slot);
      distances.push(d);
      if (best.length <= limit || d < (best[limit] as number)) {
        let at = best.length <= limit ? best.length : limit;
        while (at > 0 && (best[at - 1] as number) > d) {
          best[at] = best[at - 1] as number;
          at -= 1;
        }
        best[at] = d;
        if (best.length > limit + 1) best.length = limit + 1;
      }
    }
  }
  return { slots: slots.view(), primary: distances.data.subarray(0, distances.length) };
}

/** The sort value of each match (publishedAt, price or distance), for a selection among all. */
export function sortValues(
  ix: IndexView,
  query: EngineQuery,
  matches: Int32Array,
  primary: Float64Array,
): void {
  if (query.sort.includes('attr.')) {
    attributeSortValues(ix.attributes, query.sort, matches, primary);
    return;
  }
  const column =
    query.sort === 'price' || query.sort === '-price'
      ? ix.price.data
      : query.sort === 'distance'
        ? null
        : ix.publishedAt.data;
  if (column) {
    for (let i = 0; i < matches.length; i += 1) primary[i] = column[matches[i] as number] as number;
    return;
  }
  const near = query.near ?? { lat: 0, lon: 0 };
  const point = { lat: 0, lon: 0 };
  for (let i = 0; i < matches.length; i += 1) {
    const slot = matches[i] as number;
    point.lat = ix.lat.data[slot] as number;
    point.lon = ix.lon.data[slot] as number;
    primary[i] = distanceKm(near, point);
  }
}
