import { Bitmap, type Bits, type BucketSets, scratch } from './slot-sets.js';

/** Price buckets per octave (BucketSets: bucket b ≥ 1 holds ⌊log2(value) × 8⌋ = b − 1). */
const PER_OCTAVE = 8;

/**
 * A price range as a few bitmaps (issue 12): the union of the price buckets strictly inside a
 * range is everything from its first inner bucket up, less everything from its end bucket up.
 * "Everything from bucket b up" is a kept union of whole octaves (all slots priced ≥ 2^o, one
 * bitmap per octave) plus at most seven buckets below the next octave: a range costs at most two
 * kept unions and fourteen buckets, where the union of its buckets one by one cost one bitmap per
 * bucket (over a hundred for `priceMin` alone).
 *
 * The octave unions are built on first use (one pass down the buckets) and then kept exact by
 * every write (`added`/`removed`), so a build pays nothing for them.
 */
export class PriceRanges {
  /** aboveOctave[o]: the slots in buckets ≥ first bucket of octave o (null until first used). */
  private aboveOctave: Bits[] | null = null;

  constructor(private readonly buckets: BucketSets) {}

  private firstBucketOf(octave: number): number {
    return octave * PER_OCTAVE + 1;
  }

  /** Builds the octave unions from the buckets, top down. */
  private build(): Bits[] {
    const out: Bits[] = [];
    // Bucket b ≥ 1 is in octave ⌊(b − 1) / 8⌋.
    const count = this.buckets.count;
    const octaves = count <= 1 ? 0 : Math.floor((count - 2) / PER_OCTAVE) + 1;
    let acc = new Bitmap();
    for (let o = octaves - 1; o >= 0; o -= 1) {
      const from = this.firstBucketOf(o);
      for (let b = Math.min(this.buckets.count - 1, from + PER_OCTAVE - 1); b >= from; b -= 1)
        acc.orInPlace(this.buckets.set(b));
      out[o] = acc;
      acc = acc.clone();
    }
    return out;
  }

  /** Builds the octave unions now (at the end of a bulk load), not at the first price range. */
  prepare(): void {
    this.aboveOctave ??= this.build();
  }

  /** A slot was added to the buckets (keeps the octave unions exact once built). */
  added(value: number, slot: number): void {
    if (this.aboveOctave === null) return;
    const b = this.buckets.bucket(value);
    if (b === 0) return;
    const top = Math.floor((b - 1) / PER_OCTAVE);
    const kept = this.aboveOctave;
    for (let o = 0; o <= top; o += 1) {
      if (kept[o] === undefined) kept[o] = new Bitmap();
      (kept[o] as Bits).add(slot);
    }
  }

  /** A slot was removed from the buckets. */
  removed(value: number, slot: number): void {
    if (this.aboveOctave === null) return;
    const b = this.buckets.bucket(value);
    if (b === 0) return;
    const top = Math.floor((b - 1) / PER_OCTAVE);
    for (let o = 0; o <= top; o += 1) this.aboveOctave[o]?.remove(slot);
  }

  /** Everything in bucket `b` and above, as parts to union. */
  private from(b: number, parts: Bits[]): void {
    const count = this.buckets.count;
    if (b >= count) return;
    if (b === 0) {
      parts.push(this.buckets.set(0));
      b = 1;
    }
    const octave = Math.ceil((b - 1) / PER_OCTAVE);
    const boundary = this.firstBucketOf(octave);
    for (let i = b; i < Math.min(boundary, count); i += 1) parts.push(this.buckets.set(i));
    if (boundary >= count) return;
    this.aboveOctave ??= this.build();
    const kept = this.aboveOctave[octave];
    if (kept !== undefined) parts.push(kept);
  }

  /**
   * The range [lo, hi]: the (at most two) end buckets, whose members need a test; how many
   * bitmaps the inner part combines; and that part, built on demand (a scratch bitmap).
   */
  cover(lo: number, hi: number): { ends: Bits[]; parts: number; inside: () => Bits } {
    const first = this.buckets.bucket(Math.max(lo, 0));
    const last = Math.min(this.buckets.bucket(hi), this.buckets.count - 1);
    const ends: Bits[] = [];
    if (first > last) return { ends, parts: 0, inside: scratch };
    ends.push(this.buckets.set(first));
    if (last > first) ends.push(this.buckets.set(last));
    const plus: Bits[] = [];
    const minus: Bits[] = [];
    if (last > first + 1) {
      this.from(first + 1, plus);
      this.from(last, minus);
    }
    const inside = () => {
      const out = scratch();
      for (const part of plus) out.orInPlace(part);
      for (const part of minus) out.andNotInPlace(part);
      return out;
    };
    return { ends, parts: plus.length + minus.length, inside };
  }
}
