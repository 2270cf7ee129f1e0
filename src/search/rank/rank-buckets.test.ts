import { describe, expect, it } from 'vitest';
import { Bitmap, type Bits, membersOf } from '../sets/slot-sets.js';
import { type ScanSource, scanPage } from './rank-buckets.js';

/**
 * scanPage's parts (ADR 0035): a part ranked later stops its walk on the page found so far only
 * when nothing it has not reached can come first, ties on rank broken by the newest.
 */
describe('scanPage over parts', () => {
  // Part A (floor 10) holds slots 0 and 1, both at rank 12 (as a title part can, with a phrase
  // outside the title); part B (floor 12) holds 2 at rank 12, newer than 1, and 3–5 at rank 20,
  // newer still, so B's walk meets them first.
  const rank = [12, 12, 12, 20, 20, 20];
  const published = new Float64Array([100, 90, 95, 200, 190, 180]);
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const part = (...slots: number[]) => new Bitmap(slots);
  const source = (): ScanSource => ({
    rankOf: (slot) => rank[slot] as number,
    floor: () => 10,
    typosOf: () => 0,
    published,
    ids,
    size: ids.length,
    walkCost: 0,
    walkShort: 1024,
    walkNewest: (members, visit) => {
      const order = [...members.toArray()].sort(
        (x, y) => (published[y] as number) - (published[x] as number),
      );
      for (const slot of order) if (visit(slot)) return true;
      return false;
    },
    members: (bits: Bits) => membersOf(bits, new Int32Array(ids.length)),
    pager: {
      newest: (members, from, k) =>
        [...members.toArray()]
          .sort((x, y) => (published[y] as number) - (published[x] as number))
          .filter((slot) => from === null || (published[slot] as number) < from.value)
          .slice(0, k),
    },
    split: () => [
      { members: part(0, 1), floor: 10 },
      { members: part(2, 3, 4, 5), floor: 12 },
    ],
  });

  it('keeps a member of a later part at its floor that is newer than the page so far', () => {
    const page = scanPage(part(0, 1, 2, 3, 4, 5), [], null, 2, source());
    expect(page.slots).toEqual([0, 2]);
    expect(page.ranks).toEqual([12, 12]);
  });

  it('skips a part whose floor the page so far already beats', () => {
    const seen: number[] = [];
    const src = source();
    const rankOf = src.rankOf;
    src.rankOf = (slot) => {
      seen.push(slot);
      return rankOf(slot);
    };
    src.split = () => [
      { members: part(0, 1), floor: 10 },
      { members: part(3, 4, 5), floor: 20 },
    ];
    expect(scanPage(part(0, 1, 3, 4, 5), [], null, 2, src).slots).toEqual([0, 1]);
    // Part B is never ranked (A is ranked by its walk, then whole).
    expect([...new Set(seen)].sort()).toEqual([0, 1]);
  });

  it('cuts a part whose walk gives up into parts of one rank, paged newest first unranked (ADR 0040)', () => {
    const seen: number[] = [];
    const src = source();
    src.rankOf = (slot) => {
      seen.push(slot);
      return rank[slot] as number;
    };
    src.walkNewest = () => false;
    src.split = () => [{ members: part(0, 1, 2, 3, 4, 5), floor: 10 }];
    let refined = 0;
    src.refine = () => {
      refined += 1;
      return [
        { members: part(3, 4, 5), floor: 20, exact: true },
        { members: part(0, 1, 2), floor: 12, exact: true },
      ];
    };
    const page = scanPage(part(0, 1, 2, 3, 4, 5), [], null, 4, src);
    expect(page.slots).toEqual([0, 2, 1, 3]);
    expect(page.ranks).toEqual([12, 12, 12, 20]);
    expect(refined).toBe(1);
    expect(seen).toEqual([]);
  });

  it('does not cut a part early while its walk meets the floor at a rate that ends it for less (ADR 0052)', () => {
    // 2 000 members, slot 0 the newest; every tenth at the floor (10), the rest at 20.
    const n = 2_000;
    const pub = Float64Array.from({ length: n }, (_, slot) => 1_000 - slot);
    const all = new Bitmap(Array.from({ length: n }, (_, slot) => slot));
    const run = (atFloor: (slot: number) => boolean) => {
      const early: boolean[] = [];
      const src = source();
      Object.assign(src, {
        published: pub,
        ids: Array.from({ length: n }, (_, slot) => `o${String(slot).padStart(3, '0')}`),
        size: n,
        walkShort: 0,
        rankOf: (slot: number) => (atFloor(slot) ? 10 : 20),
        walkNewest: (_: Bits, visit: (slot: number) => boolean) => {
          for (let slot = 0; slot < n; slot += 1) if (visit(slot)) return true;
          return false;
        },
        split: () => [{ members: all, floor: 10 }],
        refine: (_: Bits, __: number, isEarly = false) => {
          early.push(isEarly);
          return undefined;
        },
      });
      return { page: scanPage(all, [], null, 8, src).slots, early };
    };
    // After 8 × 8 members, 6 at the floor: the last two are 20 members away, not a read of 2 000.
    expect(run((slot) => slot % 10 === 9)).toEqual({ page: [9, 19, 29, 39, 49, 59, 69, 79], early: [] });
    // One at the floor by then (too few to tell a rate): the part is offered to be cut.
    expect(run((slot) => slot === 9 || slot === n - 1).early[0]).toBe(true);
  });
});
