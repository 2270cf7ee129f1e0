import type { UnitSets } from './match-set.js';
import { Bitmap, type Bits } from './slot-sets.js';
import type { Position } from './top-k.js';

/**
 * sort=relevance for a query of one unit (one typed word or the prefix, no phrase; ADR 0019):
 * its rank classes are bitmaps, so a page never ranks every match. The rules of rules.ts, in
 * order: typos (the fewest edits of a stem the offer holds: the matches of level 0, then of
 * level 1 not already counted, …), proximity (0: one word), attribute (0 when the title holds
 * one of the unit's stems), exactness (0 when the offer holds the typed word itself), then
 * newest first and the greater id. Classes are visited in that order from the cursor's; within
 * a class the page is the newest members after the cursor, by walking the newest-first order
 * testing membership when the class is dense, or by selecting among its members when sparse.
 */

export interface ClassPager {
  /**
   * Up to `k` members of `members`, newest first (then id descending), strictly after `from`
   * (publishedAt, id) in that order when given.
   */
  newest(members: Bits, from: { value: number; id: string } | null, k: number): number[];
}

export interface BucketPage {
  slots: number[];
  /** The packed rank of each slot of `slots`. */
  ranks: number[];
}

/**
 * The first `k` matches after the cursor. `pack(typos, attribute, inexact)` gives a class's
 * packed rank (increasing with the class order, proximity 0).
 */
export function bucketPage(
  matches: Bits,
  unit: UnitSets,
  title: Bits,
  exact: Bits | null,
  after: Position | null,
  k: number,
  pager: ClassPager,
  pack: (typos: number, attribute: number, inexact: number) => number,
): BucketPage {
  const slots: number[] = [];
  const ranks: number[] = [];
  let rest = matches;
  for (let t = 0; t < unit.levels.length && slots.length < k; t += 1) {
    if (rest.size === 0) break;
    // Skip whole typo levels that lie before the cursor without splitting them.
    if (after !== null && pack(t, 1, 1) < after.primary) {
      rest = Bitmap.andNot(rest, unit.levels[t] as Bits);
      continue;
    }
    const level = Bitmap.and(rest, unit.levels[t] as Bits);
    rest = Bitmap.andNot(rest, level);
    for (let a = 0; a < 2 && slots.length < k; a += 1) {
      if (after !== null && pack(t, a, 1) < after.primary) continue;
      const side = a === 0 ? Bitmap.and(level, title) : Bitmap.andNot(level, title);
      for (let e = 0; e < 2 && slots.length < k; e += 1) {
        const rank = pack(t, a, e);
        if (after !== null && rank < after.primary) continue;
        let members: Bits;
        if (exact === null) {
          if (e === 0) continue;
          members = side;
        } else members = e === 0 ? Bitmap.and(side, exact) : Bitmap.andNot(side, exact);
        if (members.size === 0) continue;
        const from =
          after !== null && rank === after.primary ? { value: after.published, id: after.id } : null;
        for (const slot of pager.newest(members, from, k - slots.length)) {
          slots.push(slot);
          ranks.push(rank);
        }
      }
    }
  }
  return { slots, ranks };
}
