import { describe, expect, it } from 'vitest';
import { Bitmap, type Bits } from '../sets/slot-sets.js';
import { TOUCH_BATCH, walkInBatches } from './text-touch.js';

/**
 * text-touch.ts (ADR 0056): a walk handed to `step` in batches meets the same members in the
 * same order and ends where the plain walk ends; each member's words are loaded (`touch`)
 * before `step` reads them. Fails when the batching steps a member before touching it (or never
 * touches), steps past the stop, or drops the members of the last, partial batch.
 */
describe('walkInBatches', () => {
  const members = Bitmap.from(Array.from({ length: 200 }, (_, i) => 3 * i));
  // The newest-first walk of the fake index (descending slots), as sorted-order.ts walks: true
  // once `visit` says stop or every member was met, false past maxSteps slots read.
  const walkNewest = (set: Bits, visit: (slot: number) => boolean, maxSteps: number) => {
    const order = set.toArray().reverse();
    for (let i = 0; i < order.length; i += 1) {
      if (i >= maxSteps) return false;
      if (visit(order[i] as number)) return true;
    }
    return true;
  };

  const run = (stopAt: number, maxSteps: number) => {
    const touched = new Set<number>();
    const stepped: number[] = [];
    let untouched = 0;
    const touch = (slots: ArrayLike<number>, from: number, to: number) => {
      for (let i = from; i < to; i += 1) touched.add(slots[i] as number);
    };
    const step = (slot: number) => {
      if (!touched.has(slot)) untouched += 1;
      stepped.push(slot);
      return stepped.length === stopAt;
    };
    const found = walkInBatches({ walkNewest, touch }, members, step, maxSteps);
    const plain: number[] = [];
    const plainFound = walkNewest(members, (slot) => plain.push(slot) === stopAt, maxSteps);
    return { found, plainFound, stepped, plain, untouched, touched: touched.size };
  };

  it('steps the plain walk’s members in its order, each touched first, and stops where it stops', () => {
    for (const stopAt of [1, 2, 3, 11, 40, 199]) {
      const r = run(stopAt, 1_000);
      expect(r.found).toBe(true);
      expect(r.plainFound).toBe(true);
      expect(r.stepped).toEqual(r.plain);
      expect(r.untouched).toBe(0);
      // Past the stop, at most the rest of one batch was loaded.
      expect(r.touched - r.stepped.length).toBeLessThan(TOUCH_BATCH);
    }
  });

  it('steps every member the walk met before it ran out, the last partial batch included', () => {
    for (const maxSteps of [0, 1, 5, 37, 1_000]) {
      const never = run(Number.POSITIVE_INFINITY, maxSteps);
      // Past maxSteps: false; every member met: true (the walk is complete).
      expect(never.found).toBe(maxSteps >= 200);
      expect(never.plainFound).toBe(never.found);
      expect(never.stepped).toEqual(never.plain);
      expect(never.stepped.length).toBe(Math.min(200, maxSteps));
      expect(never.untouched).toBe(0);
    }
    // A stop among the members of the last, partial batch is still a stop.
    const late = run(37, 37);
    expect(late.found).toBe(true);
    expect(late.plainFound).toBe(true);
    expect(late.stepped).toEqual(late.plain);
  });

  it('is the plain walk when the source loads nothing ahead', () => {
    const stepped: number[] = [];
    expect(walkInBatches({ walkNewest }, members, (slot) => stepped.push(slot) === 5, 1_000)).toBe(true);
    expect(stepped).toEqual([597, 594, 591, 588, 585]);
  });
});
