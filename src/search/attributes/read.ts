import type { AttributeFilter, FacetCount, FacetStats } from '../engine.js';
import { attributeSort } from '../rules.js';
import { type Bits, countValues, unionOf } from '../sets/slot-sets.js';
import type { AttributeColumns, FewNumbers } from './columns.js';
import { shownValue } from './values.js';

/**
 * What a query reads of the declared attributes' columns (ADR 0028): the filters as sets to AND
 * (strings, booleans) or tests per match (numbers), the facets with their stats, the sort values.
 */

const FACET_TOP = 20;

/** Adds each filter to `parts` (sets every match is in) or `tests` (a test per match). */
export function attributeFilters(
  columns: AttributeColumns,
  filters: readonly AttributeFilter[],
  parts: Bits[],
  tests: Array<(slot: number) => boolean>,
): void {
  for (const filter of filters) {
    const column = columns.byName.get(filter.name);
    if (!column) throw new Error(`attribute ${filter.name} is not declared in this index`);
    const values = column.values.data;
    if (column.declaration.type !== 'number') {
      if (filter.values.length === 0) continue;
      const known: Bits[] = [];
      for (const v of filter.values) {
        const id = typeof v === 'string' ? column.table.ids.get(v) : v;
        if (id !== undefined) known.push(column.sets.get(id));
      }
      parts.push(unionOf(known));
      continue;
    }
    const wanted = filter.values.length > 0 ? new Set(filter.values as number[]) : null;
    const lo = filter.min ?? Number.NEGATIVE_INFINITY;
    const hi = filter.max ?? Number.POSITIVE_INFINITY;
    const few = column.few;
    if (few !== null) {
      // Few values: the union of the sets of those inside (no set holds an offer without one).
      const inside: Bits[] = [];
      few.values.forEach((v, id) => {
        if (v >= lo && v <= hi && (wanted === null || wanted.has(v))) inside.push(few.sets.get(id));
      });
      parts.push(unionOf(inside));
      continue;
    }
    // NaN (no value) fails every comparison.
    tests.push((slot) => {
      const v = values[slot] as number;
      return v >= lo && v <= hi && (wanted === null || wanted.has(v));
    });
  }
}

/**
 * `facets=attr.NAME`: the `limit` most frequent values over the matches (ties by value, numbers
 * as numbers), and for numbers their stats.
 */
export function attributeFacet(
  columns: AttributeColumns,
  name: string,
  bits: Bits,
  members: () => Int32Array,
  limit = FACET_TOP,
): { counts: FacetCount[]; stats: FacetStats | null } {
  const column = columns.byName.get(name);
  if (!column) throw new Error(`attribute ${name} is not declared in this index`);
  const type = column.declaration.type;
  if (type !== 'number') {
    // Strings: ties by the folded value, each shown as written (spellings.ts).
    const counts = countValues(bits, column.sets);
    const out: Array<FacetCount & { key: string }> = [];
    const { spellings } = column;
    counts.forEach((count, id) => {
      if (count === 0) return;
      const key = spellings === null ? shownValue(type, id) : (column.table.values[id] as string);
      out.push({ value: spellings === null ? key : spellings.shown(id), count, key });
    });
    out.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { counts: out.slice(0, limit).map(({ value, count }) => ({ value, count })), stats: null };
  }
  const few = column.few;
  if (few !== null) return fewNumbersFacet(few, bits, limit);
  const values = column.values.data;
  const matches = members();
  const perValue = new Map<number, number>();
  const stats = newStats();
  for (let i = 0; i < matches.length; i += 1) {
    const v = values[matches[i] as number] as number;
    if (Number.isNaN(v)) continue;
    perValue.set(v, (perValue.get(v) ?? 0) + 1);
    addStat(stats, v);
  }
  const out = [...perValue].map(([v, count]) => ({ value: String(v), count, v }));
  out.sort((a, b) => b.count - a.count || a.v - b.v);
  return {
    counts: out.slice(0, limit).map(({ value, count }) => ({ value, count })),
    stats: finishStats(stats),
  };
}

/**
 * A number facet read from the sets per value (few values): each value's count among the
 * matches, the stats from them (integers: the sum of count × value is exact, as the pass's).
 */
function fewNumbersFacet(
  few: FewNumbers,
  bits: Bits,
  limit: number,
): { counts: FacetCount[]; stats: FacetStats | null } {
  const counts = countValues(bits, few.sets);
  const out: Array<{ value: string; count: number; v: number }> = [];
  const stats = newStats();
  counts.forEach((count, id) => {
    if (count === 0) return;
    const v = few.values[id] as number;
    out.push({ value: String(v), count, v });
    if (v < stats.min) stats.min = v;
    if (v > stats.max) stats.max = v;
    stats.sum += count * v;
    stats.count += count;
  });
  out.sort((a, b) => b.count - a.count || a.v - b.v);
  return {
    counts: out.slice(0, limit).map(({ value, count }) => ({ value, count })),
    stats: finishStats(stats),
  };
}

/** Stats of a numeric column over the matches (`price` in its units, scaled by `scale`). */
export function columnStats(values: Float64Array, matches: Int32Array, scale = 1): FacetStats | null {
  const stats = newStats();
  for (let i = 0; i < matches.length; i += 1) addStat(stats, values[matches[i] as number] as number);
  const done = finishStats(stats);
  if (done === null || scale === 1) return done;
  return {
    min: done.min / scale,
    max: done.max / scale,
    sum: done.sum / scale,
    avg: done.sum / scale / done.count,
    count: done.count,
  };
}

interface Running {
  min: number;
  max: number;
  sum: number;
  count: number;
}

function newStats(): Running {
  return { min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY, sum: 0, count: 0 };
}

function addStat(s: Running, v: number): void {
  if (v < s.min) s.min = v;
  if (v > s.max) s.max = v;
  s.sum += v;
  s.count += 1;
}

function finishStats(s: Running): FacetStats | null {
  return s.count === 0 ? null : { min: s.min, max: s.max, avg: s.sum / s.count, sum: s.sum, count: s.count };
}

/**
 * `sort=attr.NAME` / `-attr.NAME` (numbers and booleans): each match's sort value, offers without
 * the attribute last either way (+∞ ascending, −∞ descending).
 */
export function attributeSortValues(
  columns: AttributeColumns,
  sort: string,
  matches: Int32Array,
  primary: Float64Array,
): void {
  const by = attributeSort(sort);
  const column = by ? columns.byName.get(by.name) : undefined;
  if (!by || !column || column.declaration.type === 'string')
    throw new Error(`sort ${sort} is not a sortable attribute of this index`);
  const values = column.values.data;
  const missing = by.descending ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  for (let i = 0; i < matches.length; i += 1) {
    const v = values[matches[i] as number] as number;
    primary[i] = Number.isNaN(v) ? missing : v;
  }
}
