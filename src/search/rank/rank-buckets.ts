import type { Position } from '../order/top-k.js';
import type { UnitSets } from '../query/match-set.js';
import { and, andNot, type Bits, scratch } from '../sets/slot-sets.js';
import { TOUCH_BATCH, walkInBatches } from './text-touch.js';

/**
 * sort=relevance for a query of one unit (one typed word or the prefix, no phrase; ADR 0019):
 * its rank classes are bitmaps, so a page never ranks every match. The rules of rules.ts, in
 * order: typos (the fewest edits of a stem the offer holds: the matches of level 0, then of
 * level 1 not already counted, …), proximity (0: one word), attribute (0 when the title holds
 * one of the unit's stems, 1 when the searchable attributes do, 2 else), exactness (0 when the offer holds the typed word itself), then
 * newest first and the greater id. Classes are visited in that order from the cursor's; within
 * a class the page is the newest members after the cursor, by walking the newest-first order
 * testing membership when the class is dense, or by selecting among its members when sparse.
 */

export interface ClassPager {
  /**
   * Up to `k` members of `members`, newest first (then id descending), strictly after `from`
   * (publishedAt, id) in that order when given.
   */
  newest(members: Bits, from: { value: number; id: string; tie?: number } | null, k: number): number[];
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
  /** The offers holding one of the unit's stems in the searchable attributes; null without any. */
  attribute: Bits | null,
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
    if (after !== null && pack(t, 2, 1) < after.primary) {
      rest = andNot(rest, unit.levels[t] as Bits);
      continue;
    }
    const level = and(rest, unit.levels[t] as Bits);
    rest = andNot(rest, level);
    let untitled: Bits | null = null;
    for (let a = 0; a < 3 && slots.length < k; a += 1) {
      if ((a === 1 && attribute === null) || (after !== null && pack(t, a, 1) < after.primary)) continue;
      if (a > 0) untitled ??= andNot(level, title);
      const side =
        untitled === null
          ? and(level, title)
          : attribute === null
            ? untitled
            : a === 1
              ? and(untitled, attribute)
              : andNot(untitled, attribute);
      for (let e = 0; e < 2 && slots.length < k; e += 1) {
        const rank = pack(t, a, e);
        if (after !== null && rank < after.primary) continue;
        let members: Bits;
        if (exact === null) {
          if (e === 0) continue;
          members = side;
        } else members = e === 0 ? and(side, exact) : andNot(side, exact);
        if (members.size === 0) continue;
        const from =
          after !== null && rank === after.primary
            ? { value: after.published, id: after.id, ...(after.tie !== undefined ? { tie: after.tie } : {}) }
            : null;
        for (const slot of pager.newest(members, from, k - slots.length)) {
          slots.push(slot);
          ranks.push(rank);
        }
      }
    }
  }
  return { slots, ranks };
}

/** What a page of a ranked `q` of several units (or with phrases) needs from the index. */
export interface ScanSource {
  /** The packed rank of one match (reads its words). */
  rankOf(slot: number): number;
  /**
   * A lower bound of the packed ranks of `members` (all of `typos` typos): the tighter, the
   * sooner a walk can stop; one no member reaches makes every walk run out and rank them all.
   */
  floor(typos: number, members: Bits): number;
  /** The typo count of a packed rank. */
  typosOf(rank: number): number;
  published: Float64Array;
  /** The ranking tie-break (tie-break.ts), ordering ties before `published`; absent: none. */
  tie?: (slot: number) => number;
  ids: readonly string[];
  /** Slots in the index (the length of the newest-first order). */
  size: number;
  /** Cost of one step of the newest-first walk against ranking one member (Tuning.walkCost). */
  walkCost: number;
  /** Slots past 8 × the expected walk before a part is offered to `refine` early (Tuning.rankWalkShort). */
  walkShort: number;
  /**
   * Visits the members newest first (then id descending; with a tie-break, by tie first) until `visit` returns true; false
   * when more than `maxSteps` slots were read first.
   */
  walkNewest(members: Bits, visit: (slot: number) => boolean, maxSteps: number): boolean;
  /**
   * Optional: loads the words of `slots[from, to)` ahead of ranking them, several members' cache
   * misses at once (ADR 0056); changes no rank.
   */
  touch?(slots: ArrayLike<number>, from: number, to: number): void;
  /** The members ascending (a scratch view: used before the next call). */
  members(bits: Bits): Int32Array;
  /**
   * Optional: a typo class cut into disjoint parts that cover it, each with a floor of its own
   * (a lower bound of its members' ranks, tighter than the class's): ranked best floor first,
   * the pages merged, a part skipped or its walk stopped once the page so far beats what it can
   * still hold. Parts alike in every rule but proximity (ADR 0029) leave a walk only proximity
   * to find, so it stops at the first members whose words are adjacent.
   */
  split?(members: Bits, typos: number): Part[];
  /**
   * Optional: a part whose walk gave up cut into finer parts, each of one rank (ADR 0040: by
   * the proximity of each pair of units); undefined to rank every member instead. `early`: the
   * walk still hopes but has run past a short walk's length (ADR 0043: cut now if that pays).
   */
  refine?(members: Bits, floor: number, early?: boolean): Part[] | undefined;
  /** The class pager (bucketPage's): the newest members of a part of one rank. */
  pager: ClassPager;
}

/** A part of a typo class and the least rank its members can have. */
export interface Part {
  members: Bits;
  floor: number;
  /** Every member is at `floor` (no ranking needed: the newest come first). */
  exact?: boolean;
}

/** The matches split by typo count (each unit's fewest edits, summed), fewest first. */
export function typoClasses(matches: Bits, units: readonly UnitSets[]): Bits[] {
  let classes: Bits[] = [matches];
  for (const unit of units) {
    const next: Bits[] = [];
    classes.forEach((set, sum) => {
      if (set === undefined) return;
      let rest = set;
      unit.levels.forEach((level, edits) => {
        if (rest.size === 0) return;
        const part = and(rest, level);
        // What the last level leaves is never used.
        if (edits + 1 < unit.levels.length) rest = andNot(rest, part);
        const at = sum + edits;
        const known = next[at];
        if (known === undefined) next[at] = part;
        else known.orInPlace(part);
      });
    });
    classes = next;
  }
  // Array.from, not map: map skips the holes of sums no combination reached.
  return Array.from(classes, (c) => c ?? scratch());
}

/**
 * The first `k` matches after the cursor by the full relevance order, one typo class at a time,
 * each class in the parts `split` gives (all of it when absent). A dense part is walked newest
 * first, ranking each member from its words, until the page holds `k` members of the least rank
 * the part allows (nothing older can come before them); a sparse one (or a walk that runs long)
 * ranks every member and selects. Parts go best floor first; a part whose floor the page so far
 * beats is skipped, and a walk stops once the page so far beats every member not yet reached
 * (ADR 0035). The parts' pages are merged.
 */
export function scanPage(
  matches: Bits,
  units: readonly UnitSets[],
  after: Position | null,
  k: number,
  source: ScanSource,
): BucketPage {
  const slots: number[] = [];
  const ranks: number[] = [];
  const { published, ids } = source;
  const tie = source.tie ?? null;
  // < 0 when (rank a, slot a) comes first in the relevance order.
  const compare = (ra: number, a: number, rb: number, b: number) => {
    if (ra !== rb) return ra - rb;
    if (tie !== null) {
      const ta = tie(a);
      const tb = tie(b);
      if (ta !== tb) return ta > tb ? -1 : 1;
    }
    const pa = published[a] as number;
    const pb = published[b] as number;
    if (pa !== pb) return pb - pa;
    const x = ids[a] as string;
    const y = ids[b] as string;
    return x === y ? 0 : x < y ? 1 : -1;
  };
  const isAfter = (rank: number, slot: number) => {
    if (after === null) return true;
    if (rank !== after.primary) return rank > after.primary;
    if (tie !== null) {
      const t = tie(slot);
      const at = after.tie ?? Number.NEGATIVE_INFINITY;
      if (t !== at) return t < at;
    }
    const p = published[slot] as number;
    if (p !== after.published) return p < after.published;
    return (ids[slot] as string) < after.id;
  };
  // The best `need` members of `members` (whose ranks are ≥ floor) after the cursor, in order;
  // `bar`, the best `need` of the parts ranked before: the walk stops once no member it has not
  // reached yet can come before bar's last (each is at least at the floor, and older).
  const best = (
    members: Bits,
    floor: number,
    need: number,
    bar: readonly Ranked[],
    exact: boolean,
  ): Ranked[] => {
    if (exact) {
      // One rank: the newest after the cursor, as bucketPage pages a class.
      if (after !== null && floor < after.primary) return [];
      const from =
        after !== null && floor === after.primary
          ? { value: after.published, id: after.id, ...(after.tie !== undefined ? { tie: after.tie } : {}) }
          : null;
      return source.pager.newest(members, from, need).map((slot) => ({ slot, rank: floor }));
    }
    const n = members.size;
    const top: Ranked[] = [];
    const offer = (slot: number, rank: number) => {
      if (!isAfter(rank, slot)) return;
      const last = top[need - 1];
      if (last !== undefined && compare(rank, slot, last.rank, last.slot) >= 0) return;
      let at = last !== undefined ? need - 1 : top.length;
      for (
        let prev = top[at - 1];
        prev !== undefined && compare(rank, slot, prev.rank, prev.slot) < 0;
        prev = top[at - 1]
      ) {
        top[at] = prev;
        at -= 1;
      }
      top[at] = { slot, rank };
    };
    const expected = (need * source.size) / n;
    const barLast = bar.length === need ? (bar[need - 1] as Ranked) : undefined;
    const maxSteps = walkBudget(source.size, n, source.walkCost);
    // Members the walk meets within maxSteps; the page is found once `need` of them rank at
    // the floor. A walk is given up once, at the rate its members so far reach the floor (one
    // more counted: a rate never seen yet), it would not find `need` of them within maxSteps:
    // sparse members at the floor are walked to (ADR 0043), and a part with none costs a walk of
    // about reachable / need members before it is ranked whole.
    const reachable = (maxSteps * n) / source.size;
    // Past a short walk (8 × the expected), the part is offered to `refine` once, early.
    const short = 8 * need + (source.walkShort * n) / source.size;
    let early: Part[] | undefined;
    let visited = 0;
    let atFloor = 0;
    let hopeless = false;
    const step = (slot: number): boolean => {
      const rank = source.rankOf(slot);
      offer(slot, rank);
      visited += 1;
      if (rank === floor) atFloor += 1;
      if (top.length === need && (top[need - 1] as Ranked).rank === floor) return true;
      if (
        barLast !== undefined &&
        (barLast.rank < floor ||
          (barLast.rank === floor && compare(barLast.rank, barLast.slot, floor, slot) <= 0))
      )
        return true;
      // Not when the walk has met the floor often enough to tell its rate, and at that rate
      // ends for less than reading the part (ADR 0052: a member read each; walked, a few).
      if (
        visited === Math.ceil(short) &&
        (atFloor < FLOOR_SEEN || ((need - atFloor) * visited * 4) / atFloor > n)
      ) {
        early = source.refine?.(members, floor, true);
        if (early !== undefined) return true;
      }
      hopeless = visited >= 2 * need && (atFloor + 1) * reachable < need * visited;
      return hopeless;
    };
    const walked =
      expected * source.walkCost <= n && walkInBatches(source, members, step, maxSteps) && !hopeless;
    if (early !== undefined) return pageOf(early, need, bar);
    if (!walked) {
      // Cut finer (each of one rank), once: a part of one rank is never refined.
      const finer = source.refine?.(members, floor);
      if (finer !== undefined) return pageOf(finer, need, bar);
      top.length = 0;
      const all = source.members(members);
      for (let i = 0; i < all.length; i += 1) {
        if (i % TOUCH_BATCH === 0) source.touch?.(all, i, Math.min(all.length, i + TOUCH_BATCH));
        offer(all[i] as number, source.rankOf(all[i] as number));
      }
    }
    return top;
  };
  const merge = (a: Ranked[], b: Ranked[], need: number) =>
    a.length === 0
      ? b
      : b.length === 0
        ? a
        : a
            .concat(b)
            .sort((x, y) => compare(x.rank, x.slot, y.rank, y.slot))
            .slice(0, need);
  // The best `need` members of the parts (disjoint), best floor first; `outer`, the best of
  // parts ranked before them (bounding only: not in the answer).
  function pageOf(parts: Part[], need: number, outer: readonly Ranked[]): Ranked[] {
    parts.sort((a, b) => a.floor - b.floor);
    let page: Ranked[] = [];
    let bar: readonly Ranked[] = outer;
    for (const part of parts) {
      if (part.members.size === 0) continue;
      // Parts come best floor first: once the bar beats a floor, it beats every later one.
      const last = bar[need - 1];
      if (last !== undefined && last.rank < part.floor) break;
      const top = best(part.members, part.floor, need, bar, part.exact === true);
      page = merge(page, top, need);
      bar = outer.length === 0 ? page : merge(outer as Ranked[], page, need);
    }
    return page;
  }
  const from = after === null ? 0 : source.typosOf(after.primary);
  const classes = typoClasses(matches, units);
  for (let t = from; t < classes.length && slots.length < k; t += 1) {
    const members = classes[t] as Bits;
    if (members.size === 0) continue;
    const need = k - slots.length;
    const parts = source.split ? source.split(members, t) : [{ members, floor: source.floor(t, members) }];
    const page = pageOf(parts, need, []);
    for (const { slot, rank } of page) {
      slots.push(slot);
      ranks.push(rank);
    }
  }
  return { slots, ranks };
}

/** Members at the floor a walk must have met before its rate is trusted to skip an early cut. */
const FLOOR_SEEN = 4;

/**
 * The most slots a newest-first walk over `n` members (of `size` slots) may read: what ranking
 * every member costs, the walk counted as its steps × walkCost plus the members it ranks (about
 * steps × n / size). Whether it goes that far is the walk's own estimate (scanPage's `hopeless`).
 */
export function walkBudget(size: number, n: number, walkCost: number): number {
  return n / (walkCost + n / size);
}

interface Ranked {
  slot: number;
  rank: number;
}
