import type { Tie } from '../attributes/rank-tie.js';
import type { IndexView } from '../index-view.js';
import { membersOf } from '../sets/slot-sets.js';
import type { ClassPager } from './rank-buckets.js';

/**
 * Members of a class in the order (tie, newest, greater id), by rounds of selection after the
 * last one visited (64, then twice as many each round): what a newest-first walk gives without
 * a tie-break, at a pass over the members per round instead of per ranked member. Stops when
 * `visit` returns true (true) or after `rounds` rounds (false: the caller ranks them all).
 */
export function walkByTie(
  slots: Int32Array,
  tie: Tie,
  published: Float64Array,
  ids: readonly string[],
  visit: (slot: number) => boolean,
  rounds = 8,
  start: { t: number; p: number; id: string } | null = null,
  first = 64,
): boolean {
  const n = slots.length;
  const keyTie = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keyTie[i] = tie(slots[i] as number);
  // < 0 when member i comes before (t, p, id).
  const before = (i: number, t: number, p: number, id: string) => {
    const a = keyTie[i] as number;
    if (a !== t) return a > t ? -1 : 1;
    const slot = slots[i] as number;
    const b = published[slot] as number;
    if (b !== p) return b > p ? -1 : 1;
    const x = ids[slot] as string;
    return x === id ? 0 : x > id ? -1 : 1;
  };
  let from = start;
  let batch = Math.max(1, first);
  for (let round = 0; round < rounds; round += 1) {
    const picked: number[] = [];
    // The last of the best `batch` so far (-1: fewer yet): a member after it is out at once,
    // most of them on the tie alone.
    let bound = -1;
    let boundTie = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i += 1) {
      if (bound >= 0) {
        const t = keyTie[i] as number;
        if (t < boundTie) continue;
        const b = slots[bound] as number;
        if (t === boundTie && before(i, boundTie, published[b] as number, ids[b] as string) >= 0) continue;
      }
      if (from !== null && before(i, from.t, from.p, from.id) <= 0) continue;
      picked.push(i);
      // Keep it bounded: sort and cut whenever it doubles past the batch.
      if (picked.length >= 2 * batch) {
        cut(picked, batch);
        bound = picked[batch - 1] as number;
        boundTie = keyTie[bound] as number;
      }
    }
    cut(picked, batch);
    for (const i of picked) {
      const slot = slots[i] as number;
      if (visit(slot)) return true;
    }
    if (picked.length < batch) return true;
    const last = picked[picked.length - 1] as number;
    const slot = slots[last] as number;
    from = { t: keyTie[last] as number, p: published[slot] as number, id: ids[slot] as string };
    batch *= 2;
  }
  return false;

  function cut(picked: number[], k: number): void {
    picked.sort((a, b) => {
      const slot = slots[b] as number;
      return before(a, keyTie[b] as number, published[slot] as number, ids[slot] as string);
    });
    if (picked.length > k) picked.length = k;
  }
}

/** Within a relevance class with a tie-break: the first members by (tie, newest, greater id). */
export function tiePager(ix: IndexView, tie: Tie): ClassPager {
  return {
    newest: (members, from, k) => {
      const slots = membersOf(members, ix.matchBuffer).slice();
      const start =
        from === null ? null : { t: from.tie ?? Number.NEGATIVE_INFINITY, p: from.value, id: from.id };
      const page: number[] = [];
      const visit = (slot: number) => {
        page.push(slot);
        return page.length >= k;
      };
      walkByTie(slots, tie, ix.publishedAt.data, ix.ids, visit, Number.POSITIVE_INFINITY, start, k);
      return page;
    },
  };
}
