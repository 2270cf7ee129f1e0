import roaring, { type RoaringBitmap32 } from 'roaring';

/**
 * Sets of live slots as compressed bitmaps (CRoaring through the `roaring` package, ADR 0019):
 * one per status, per facet value, per word, per word in titles and per grid cell. A query's
 * matches are AND/OR of these; its total is a cardinality and a facet count an AND-cardinality,
 * so counting never visits the matches one by one.
 */
export const Bitmap = roaring.RoaringBitmap32;
export type Bits = RoaringBitmap32;

/** One set per small integer (a value id of a column, a word id, a status code). */
export class ValueSets {
  private readonly sets: Array<Bits | undefined> = [];

  get length(): number {
    return this.sets.length;
  }

  /** The set of `id`; an empty one when no slot was ever added (never modify it). */
  get(id: number): Bits {
    return this.sets[id] ?? EMPTY;
  }

  add(id: number, slot: number): void {
    let set = this.sets[id];
    if (set === undefined) {
      set = new Bitmap();
      this.sets[id] = set;
    }
    set.add(slot);
  }

  remove(id: number, slot: number): void {
    this.sets[id]?.remove(slot);
  }

  /** Run-length containers where they are smaller, and no spare capacity. */
  trim(): void {
    for (const set of this.sets) {
      if (set === undefined) continue;
      set.runOptimize();
      set.shrinkToFit();
    }
  }
}

const EMPTY: Bits = new Bitmap();

/** Union of the sets (a new bitmap). */
export function unionOf(sets: readonly Bits[]): Bits {
  if (sets.length === 0) return new Bitmap();
  if (sets.length === 1) return (sets[0] as Bits).clone();
  return Bitmap.orMany(sets as Bits[]);
}

/** The members ascending, as a view over `buffer` when it is large enough. */
export function membersOf(bits: Bits, buffer: Int32Array): Int32Array {
  const n = bits.size;
  const out = buffer.length >= n ? buffer : new Int32Array(n);
  bits.toUint32Array(out);
  return out.subarray(0, n);
}

/** Every requested value's count among `bits`, as (value id, count) with count > 0. */
export function countValues(bits: Bits, sets: ValueSets): Int32Array {
  const counts = new Int32Array(sets.length);
  for (let id = 0; id < sets.length; id += 1) counts[id] = bits.andCardinality(sets.get(id));
  return counts;
}
