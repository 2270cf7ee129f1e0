import roaring, { type RoaringBitmap32 } from 'roaring';

/**
 * Sets of live slots as compressed bitmaps (CRoaring through the `roaring` package, ADR 0019):
 * one per status, per facet value, per word, per word in titles and per grid cell. A query's
 * matches are AND/OR of these; its total is a cardinality and a facet count an AND-cardinality,
 * so counting never visits the matches one by one.
 */
export const Bitmap = roaring.RoaringBitmap32;
export type Bits = RoaringBitmap32;

/** Slots added to a set are handed to CRoaring this many at a time (one native call, not one each). */
const BATCH = 64;

/** One set per small integer (a value id of a column, a word id, a status code). */
export class ValueSets {
  private readonly sets: Array<Bits | undefined> = [];
  /**
   * Slots added but not yet in the bitmap (ascending: slots are handed out in order), the first
   * `counts[id]` of a typed array: CRoaring reads a Uint32Array's memory directly, a JS array
   * element by element. Dropped by `trim` (a bulk load's end); none after it (`direct`).
   */
  private readonly pending: Array<Uint32Array | undefined> = [];
  private counts = new Int32Array(16);
  /**
   * Once built (`trim`) or restored, slots go straight into their bitmaps (issue 26): writes then
   * come a few offers at a time, and a batch kept per set touched would stay allocated for good
   * (a typed array and its buffer for each of the tens of thousands of words and grid cells an
   * import reaches), for a saving of a native call per slot.
   */
  private direct = false;

  get length(): number {
    return this.sets.length;
  }

  /** The set of `id`; an empty one when no slot was ever added (never modify it). */
  get(id: number): Bits {
    this.flush(id);
    return this.sets[id] ?? EMPTY;
  }

  add(id: number, slot: number): void {
    if (this.direct) {
      let set = this.sets[id];
      if (set === undefined) {
        set = new Bitmap();
        this.sets[id] = set;
      }
      set.add(slot);
      return;
    }
    let pending = this.pending[id];
    if (pending === undefined) {
      if (this.sets[id] === undefined) this.sets[id] = new Bitmap();
      pending = new Uint32Array(BATCH);
      this.pending[id] = pending;
      if (id >= this.counts.length) {
        const counts = new Int32Array(Math.max(id + 1, this.counts.length * 2));
        counts.set(this.counts);
        this.counts = counts;
      }
    }
    const count = this.counts[id] as number;
    pending[count] = slot;
    if (count + 1 === BATCH) {
      (this.sets[id] as Bits).addMany(pending);
      this.counts[id] = 0;
    } else this.counts[id] = count + 1;
  }

  remove(id: number, slot: number): void {
    this.flush(id);
    this.sets[id]?.remove(slot);
  }

  private flush(id: number): void {
    const count = id < this.counts.length ? (this.counts[id] as number) : 0;
    if (count === 0) return;
    (this.sets[id] as Bits).addMany((this.pending[id] as Uint32Array).subarray(0, count));
    this.counts[id] = 0;
  }

  /** The sets of ids below `count`, pending slots added first (snapshot.ts; undefined: never used). */
  flushed(count: number): Array<Bits | undefined> {
    const out: Array<Bits | undefined> = [];
    for (let id = 0; id < Math.min(count, this.sets.length); id += 1) {
      this.flush(id);
      out.push(this.sets[id]);
    }
    return out;
  }

  /** Takes `sets` as its sets (on an empty ValueSets: snapshot.ts's load). */
  restore(sets: ReadonlyArray<Bits | undefined>): void {
    for (const set of sets) {
      this.sets.push(set);
      this.pending.push(undefined);
    }
    this.direct = true;
  }

  /** Everything pending added, run-length containers where smaller, no spare capacity; adds direct from now on. */
  trim(): void {
    for (let id = 0; id < this.sets.length; id += 1) {
      const set = this.sets[id];
      if (set === undefined) continue;
      this.flush(id);
      this.pending[id] = undefined;
      set.runOptimize();
      set.shrinkToFit();
    }
    this.direct = true;
  }
}

const EMPTY: Bits = new Bitmap();

/**
 * A query's temporary bitmaps come from this pool and go back to it when the search returns
 * (`releaseScratch`). Creating CRoaring bitmaps brings on V8 full collections (measured: one
 * mark-compact per ~5 000 created, 80–140 ms of CPU each with a million offers in the heap), so
 * a query creates none once the pool has grown to its needs. Searches are synchronous: a search
 * never sees another's scratch.
 */
const pool: Bits[] = [];
let taken = 0;

/** An empty scratch bitmap, valid until releaseScratch(). */
export function scratch(): Bits {
  let b = pool[taken];
  if (b === undefined) {
    b = new Bitmap();
    pool.push(b);
  }
  taken += 1;
  return b;
}

/** Empties every scratch bitmap taken since the last release and makes it available again. */
export function releaseScratch(): void {
  for (let i = 0; i < taken; i += 1) (pool[i] as Bits).clear();
  taken = 0;
}

/**
 * a ∧ b, a ∧ ¬b, a ∨ b, a copy: scratch bitmaps. `and` copies the smaller of the two (ADR 0056):
 * the copy costs its operand's size, the intersection in place about the smaller's.
 */
export const and = (a: Bits, b: Bits): Bits =>
  a.size <= b.size ? scratch().copyFrom(a).andInPlace(b) : scratch().copyFrom(b).andInPlace(a);
export const andNot = (a: Bits, b: Bits): Bits => scratch().copyFrom(a).andNotInPlace(b);
export const or = (a: Bits, b: Bits): Bits => scratch().copyFrom(a).orInPlace(b);
export const copyOf = (a: Bits): Bits => scratch().copyFrom(a);

/** Union of the sets (a scratch bitmap). */
export function unionOf(sets: readonly Bits[]): Bits {
  const out = scratch();
  for (const set of sets) out.orInPlace(set);
  return out;
}

/**
 * `unionOf` of many small sets that together are large (a radius's or a map window's grid
 * cells: hundreds): CRoaring's union of many (one pass per container), not a merge per set,
 * which copies the growing result's array containers again at each step. Its result is copied
 * into a scratch bitmap and emptied.
 */
function unionOfCells(sets: readonly Bits[]): Bits {
  if (sets.length < MANY) return unionOf(sets);
  const out = scratch();
  const all = Bitmap.orMany(sets);
  out.orInPlace(all);
  all.clear();
  return out;
}

/** From this many sets, `unionOfCells` takes CRoaring's union of many. */
const MANY = 8;

/** The members ascending, as a view over `buffer` when it is large enough. */
export function membersOf(bits: Bits, buffer: Int32Array): Int32Array {
  const n = bits.size;
  const out = buffer.length >= n ? buffer : new Int32Array(n);
  bits.toUint32Array(out);
  return out.subarray(0, n);
}

/** Every requested value's count among `bits`, as (value id, count) with count > 0. */
export function countValues(bits: Bits, sets: Pick<ValueSets, 'get' | 'length'>): Int32Array {
  const counts = new Int32Array(sets.length);
  for (let id = 0; id < sets.length; id += 1) counts[id] = bits.andCardinality(sets.get(id));
  return counts;
}

/** Buckets per doubling of a value: bucket edges 2^(1/8) ≈ 9 % apart. */
const BUCKETS_PER_OCTAVE = 8;

/**
 * The slots of a numeric column (price units, ≥ 0) by bucket of value: bucket 0 holds values
 * below 1, bucket b ≥ 1 those with ⌊log2(value) × 8⌋ = b − 1. The bucket of a value never
 * decreases as the value grows, so for a range [lo, hi] every bucket strictly between lo's and
 * hi's holds only values inside it: a range is a union of whole buckets plus the members of its
 * two end buckets, tested one by one.
 */
export class BucketSets {
  /** One set per bucket (exposed for snapshot.ts). */
  readonly sets = new ValueSets();

  bucket(value: number): number {
    return value < 1 ? 0 : 1 + Math.floor(Math.log2(value) * BUCKETS_PER_OCTAVE);
  }

  /** Buckets handed out so far (the highest bucket + 1). */
  get count(): number {
    return this.sets.length;
  }

  /** The set of bucket `b` (empty when none; never modify it). */
  set(b: number): Bits {
    return this.sets.get(b);
  }

  add(value: number, slot: number): void {
    this.sets.add(this.bucket(value), slot);
  }

  remove(value: number, slot: number): void {
    this.sets.remove(this.bucket(value), slot);
  }

  trim(): void {
    this.sets.trim();
  }

  /** The buckets in value order (descending: from the top) from the one holding `from` on. */
  *from(from: number | null, descending: boolean): Generator<Bits> {
    const last = this.sets.length - 1;
    const start = from === null ? (descending ? last : 0) : Math.min(this.bucket(Math.max(from, 0)), last);
    if (descending) for (let b = start; b >= 0; b -= 1) yield this.sets.get(b);
    else for (let b = start; b <= last; b += 1) yield this.sets.get(b);
  }
}

/**
 * Keeps the members of `bits` in the union of `inside`, or in the union of `ends` and passing
 * `test` (tested one by one).
 */
export function keepCovered(
  bits: Bits,
  inside: readonly Bits[],
  ends: readonly Bits[],
  test: (slot: number) => boolean,
  buffer: Int32Array,
): void {
  const edge = and(bits, unionOfCells(ends));
  bits.andInPlace(unionOfCells(inside));
  if (edge.size === 0) return;
  // The kept members are compacted in place (no array per query: large ones go straight to
  // V8's old space and bring on full collections).
  const members = membersOf(edge, buffer);
  let kept = 0;
  for (let i = 0; i < members.length; i += 1) {
    const slot = members[i] as number;
    if (test(slot)) members[kept++] = slot;
  }
  bits.addMany(members.subarray(0, kept));
}
