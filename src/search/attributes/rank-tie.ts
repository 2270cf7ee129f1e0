import type { AttributeColumns } from './columns.js';

/**
 * The ranking tie-break (`--rank-by attr.NAME:desc|asc`, ADR 0039): among matches the text rules
 * leave tied, the declared number attribute orders them before the newest. As a "tie" per slot,
 * greater first whichever the direction: the value (descending) or its negation (ascending), an
 * offer without the value −∞ (last either way), so one comparison serves both directions.
 */
export type Tie = (slot: number) => number;

/** The index's tie of each slot, null without a tie-break (the columns as they are now). */
export function rankTie(columns: AttributeColumns): Tie | null {
  const rankBy = columns.schema.rankBy;
  if (!rankBy) return null;
  const column = columns.byName.get(rankBy.name);
  if (!column) return null;
  const values = column.values.data;
  const sign = rankBy.descending ? 1 : -1;
  return (slot) => {
    const v = values[slot] as number;
    return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : sign * v;
  };
}

/** The cursor's value of a tie (the attribute's own value, `none` without one). */
export function tieKey(columns: AttributeColumns, tie: number): number | 'none' {
  if (tie === Number.NEGATIVE_INFINITY) return 'none';
  return columns.schema.rankBy?.descending === false ? -tie : tie;
}

/** A cursor's value back to a tie (trusted only to be a number or a string). */
export function tieOfKey(columns: AttributeColumns, key: unknown): number {
  if (key === 'none') return Number.NEGATIVE_INFINITY;
  const v = Number(key);
  return columns.schema.rankBy?.descending === false ? -v : v;
}
