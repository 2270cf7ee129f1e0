import { rankTie, tieKey, tieOfKey } from '../attributes/rank-tie.js';
import type { CursorValue, EngineQuery } from '../engine.js';
import type { IndexView } from '../index-view.js';
import type { Position } from '../order/top-k.js';

/**
 * A page's cursor both ways: the sort keys handed out with a page (`nextKeys`) and, read back,
 * the position in the order the next page starts after. A relevance tuple travels as its four
 * numbers and is compared packed into one.
 */

type Keys = CursorValue[];

/** The sort key of an offer without the attribute sorted by. */
const NONE = 'none';

// Relevance tuple packed into one number: typos ≤ 32, proximity ≤ 128, attribute ≤ 2 (0: title,
// 1: searchable attributes, 2: description; ADR 0042), inexact ≤ 16.
const PROX_RANGE = 256;
const ATTR_RANGE = 3;
const INEXACT_RANGE = 32;

export function packRank(typos: number, proximity: number, attribute: number, inexact: number): number {
  return ((typos * PROX_RANGE + proximity) * ATTR_RANGE + attribute) * INEXACT_RANGE + inexact;
}

export function unpackRank(packed: number): number[] {
  const inexact = packed % INEXACT_RANGE;
  let rest = (packed - inexact) / INEXACT_RANGE;
  const attribute = rest % ATTR_RANGE;
  rest = (rest - attribute) / ATTR_RANGE;
  const proximity = rest % PROX_RANGE;
  const typos = (rest - proximity) / PROX_RANGE;
  return [typos, proximity, attribute, inexact];
}

/** The cursor as a position in the order (cursor values are trusted only to be numbers or strings). */
export function position(ix: IndexView, query: EngineQuery): Position | null {
  const after = query.after;
  if (after === null) return null;
  if (query.sort === 'relevance') {
    const [typos, proximity, given, inexact, ...rest] = after;
    // Before ADR 0042 the description was attribute 1: without searchable attributes, class 1 is
    // empty, so such a cursor continues in the description's class.
    const attribute = ix.searchable.length === 0 && Number(given) === 1 ? 2 : Number(given);
    const primary = packRank(Number(typos), Number(proximity), attribute, Number(inexact));
    // With a ranking tie-break the attribute's value comes before publishedAt (tie-break.ts).
    if (rankTie(ix.attributes) !== null) {
      const [value, published, id] = rest;
      return { primary, tie: tieOfKey(ix.attributes, value), published: Number(published), id: String(id) };
    }
    const [published, id] = rest;
    return { primary, published: Number(published), id: String(id) };
  }
  // An attribute sort's offers without the attribute (last either way) travel as `none`.
  const primary =
    after[0] === NONE
      ? query.sort.startsWith('-')
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY
      : Number(after[0]);
  return { primary, published: 0, id: String(after[1]) };
}

export function keysOf(ix: IndexView, query: EngineQuery, slot: number, primary: number): Keys {
  const id = ix.ids[slot] as string;
  if (query.sort !== 'relevance') return [Number.isFinite(primary) ? primary : NONE, id];
  const tie = rankTie(ix.attributes);
  const published = ix.publishedAt.data[slot] as number;
  if (tie === null) return [...unpackRank(primary), published, id];
  return [...unpackRank(primary), tieKey(ix.attributes, tie(slot)), published, id];
}
