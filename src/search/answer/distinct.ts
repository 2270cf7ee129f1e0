import { rankTie } from '../attributes/rank-tie.js';
import type { EngineQuery } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { comesAfter, type Position } from '../order/top-k.js';
import { type Bits, membersOf, scratch } from '../sets/slot-sets.js';

/**
 * `distinct=publisher` (ADR 0038): of the matches, only the first of each publisher in the
 * query's order is kept. The total counts the kept offers (one per publisher among the matches,
 * exact); a page is the kept offers after the cursor.
 *
 * Whether an offer is kept depends on every match before it, so the order is walked from its
 * start, a chunk at a time (each chunk the ordinary page machinery's, its size growing fourfold),
 * marking each publisher at its first offer, until the page after the cursor is full or every
 * publisher of the matches has been met (nothing after that point is kept). Between two chunks
 * the matches may be narrowed to those of the publishers not met yet (their first match lies
 * further on; the order of a subset is the order of the whole), so a walk to the last publisher
 * does not rank every match before it: at once for relevance (each offer read is ranked from its
 * words), else when the offers read reach an eighth of the matches left (a walk step is cheap).
 */

/** A page of the plain order: its slots, whether more follow, each one's primary sort value. */
export interface OrderedPage {
  slots: readonly number[];
  more: boolean;
  primary: (i: number) => number;
}

/** The members of `bits` whose publisher is not marked in `seen`, as a scratch bitmap. */
function unmet(ix: IndexView, bits: Bits, seen: Uint8Array): Bits {
  const publisher = ix.publisher.data;
  const members = membersOf(bits, ix.matchBuffer);
  let k = 0;
  for (let i = 0; i < members.length; i += 1) {
    const slot = members[i] as number;
    if (seen[publisher[slot] as number] === 0) members[k++] = slot;
  }
  // Slots are below 2^31: the same bits read as unsigned, still in ascending order.
  return scratch().addMany(new Uint32Array(members.buffer, members.byteOffset, k));
}

export function distinctPage(
  ix: IndexView,
  query: EngineQuery,
  bits: Bits,
  after: Position | null,
  pageAfter: (from: Position | null, limit: number, bits: Bits) => OrderedPage,
): { slots: number[]; primary: number[]; more: boolean; total: number } {
  const publisher = ix.publisher.data;
  const seen = new Uint8Array(ix.tables.publisher.values.length);
  let total = 0;
  const members = membersOf(bits, ix.matchBuffer);
  for (let i = 0; i < members.length; i += 1) {
    const p = publisher[members[i] as number] as number;
    if (seen[p] === 0) {
      seen[p] = 1;
      total += 1;
    }
  }
  seen.fill(0);
  const order = { primaryDescending: query.sort.startsWith('-'), relevance: query.sort === 'relevance' };
  const published = ix.publishedAt.data;
  // With a ranking tie-break, relevance ties are ordered by it before the newest.
  const tie = order.relevance ? rankTie(ix.attributes) : null;
  const slots: number[] = [];
  const primary: number[] = [];
  let met = 0;
  let from: Position | null = null;
  let chunk = Math.max(1, Math.ceil(ix.tuning.distinctChunk * (query.limit + 1)));
  let rest = bits;
  let read = 0;
  const relevance = query.sort === 'relevance' && query.text !== null;
  walk: while (met < total) {
    const part = pageAfter(from, chunk, rest);
    const n = part.slots.length;
    for (let i = 0; i < n; i += 1) {
      const slot = part.slots[i] as number;
      const p = publisher[slot] as number;
      if (seen[p] === 1) continue;
      seen[p] = 1;
      met += 1;
      const value = part.primary(i);
      if (
        after === null ||
        comesAfter(order, value, published[slot] as number, ix.ids[slot] as string, after, tie?.(slot))
      ) {
        slots.push(slot);
        primary.push(value);
        if (slots.length > query.limit) break walk;
      }
      if (met === total) break walk;
    }
    if (!part.more || n === 0) break;
    const last = part.slots[n - 1] as number;
    from = {
      primary: part.primary(n - 1),
      ...(tie === null ? {} : { tie: tie(last) }),
      published: published[last] as number,
      id: ix.ids[last] as string,
    };
    read += n;
    // Narrowed once reading on costs more than a pass: at once when each offer read is ranked
    // from its words (relevance), else once the offers read are an eighth of the matches left.
    if (relevance || read * 8 >= rest.size) {
      rest = unmet(ix, rest, seen);
      read = 0;
    }
    chunk = Math.min(chunk * 4, rest.size);
  }
  const more = slots.length > query.limit;
  if (more) {
    slots.length = query.limit;
    primary.length = query.limit;
  }
  return { slots, primary, more, total };
}
