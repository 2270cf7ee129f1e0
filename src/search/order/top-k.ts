/**
 * The page of a result: the `limit` first matches after the cursor in the query's order, found
 * in one pass over the matches with a bounded heap. A page costs the same at any depth: the
 * cursor is a position in the order (sort values), never an offset to walk.
 */
export interface Order {
  /** Smaller primary value first, unless descending. */
  primaryDescending: boolean;
  /** Relevance: ties on the primary (the packed rank) go to the newest, then the greater id. */
  relevance: boolean;
}

export interface Position {
  primary: number;
  /** Relevance with a ranking tie-break (rank/tie-break.ts): the tie, greater first. */
  tie?: number;
  published: number;
  id: string;
}

export interface Rows {
  slots: Int32Array;
  primary: Float64Array;
  published: Float64Array;
  ids: readonly string[];
}

/** < 0 when match i comes before position (p, pub, id) in the order. */
function compareTo(rows: Rows, order: Order, i: number, p: number, pub: number, id: string): number {
  const a = rows.primary[i] as number;
  if (a !== p) return (a < p ? -1 : 1) * (order.primaryDescending ? -1 : 1);
  const slot = rows.slots[i] as number;
  if (order.relevance) {
    const b = rows.published[slot] as number;
    if (b !== pub) return b > pub ? -1 : 1;
  }
  const x = rows.ids[slot] as string;
  if (x === id) return 0;
  const c = x < id ? -1 : 1;
  return order.relevance || order.primaryDescending ? -c : c;
}

/**
 * Whether an offer with these sort values comes after `position` in the order (the same
 * comparison as a page's, for offers read outside a selection: answer/distinct.ts).
 */
export function comesAfter(
  order: Order,
  primary: number,
  published: number,
  id: string,
  at: Position,
  tie?: number,
): boolean {
  if (primary !== at.primary) return primary < at.primary === order.primaryDescending;
  // A ranking tie-break orders relevance ties before the newest, greater first.
  if (order.relevance && tie !== undefined && at.tie !== undefined && tie !== at.tie) return tie < at.tie;
  if (order.relevance && published !== at.published) return published < at.published;
  if (id === at.id) return false;
  return id < at.id === (order.relevance || order.primaryDescending);
}

function compare(rows: Rows, order: Order, i: number, j: number): number {
  const slot = rows.slots[j] as number;
  return compareTo(
    rows,
    order,
    i,
    rows.primary[j] as number,
    rows.published[slot] as number,
    rows.ids[slot] as string,
  );
}

/** Indexes (into `rows.slots`) of the page in order, and whether more matches follow it. */
export function selectPage(
  rows: Rows,
  count: number,
  order: Order,
  after: Position | null,
  limit: number,
): { page: number[]; more: boolean } {
  const k = limit + 1;
  const heap: number[] = [];
  // Max-heap on the order: heap[0] is the last of the best k seen so far.
  const up = (at: number) => {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(rows, order, heap[i] as number, heap[parent] as number) <= 0) break;
      [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
      i = parent;
    }
  };
  const down = () => {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && compare(rows, order, heap[l] as number, heap[top] as number) > 0) top = l;
      if (r < heap.length && compare(rows, order, heap[r] as number, heap[top] as number) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top] as number, heap[i] as number];
      i = top;
    }
  };
  // Fast paths on the primary value alone: strictly before the cursor, or strictly after the
  // last of the best k, a match is out without the full comparison.
  const sign = order.primaryDescending ? -1 : 1;
  const from = after ? after.primary * sign : Number.NEGATIVE_INFINITY;
  const primary = rows.primary;
  for (let i = 0; i < count; i += 1) {
    const p = (primary[i] as number) * sign;
    if (p < from) continue;
    if (heap.length === k && p > (primary[heap[0] as number] as number) * sign) continue;
    if (after && compareTo(rows, order, i, after.primary, after.published, after.id) <= 0) continue;
    if (heap.length < k) {
      heap.push(i);
      up(heap.length - 1);
    } else if (compare(rows, order, i, heap[0] as number) < 0) {
      heap[0] = i;
      down();
    }
  }
  heap.sort((a, b) => compare(rows, order, a, b));
  const more = heap.length > limit;
  return { page: more ? heap.slice(0, limit) : heap, more };
}
