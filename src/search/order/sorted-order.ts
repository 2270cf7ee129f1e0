import { compareIds, idKey } from './id-keys.js';
import { rankIds, sortSlots } from './slot-sort.js';

/**
 * Slots added to a sorted tail are placed into it one by one (a binary search each) while the
 * tail holds at least this many times as many; else the whole tail is sorted again.
 */
const PLACE_RATIO = 32;

/**
 * A precomputed order of the slots by one column (value ascending, then id ascending; walked
 * backwards it is value descending, then id descending: the engine's `-publishedAt` and `-price`
 * orders). A page of a sorted query is then a walk from the cursor that stops after `limit + 1`
 * matches, instead of a pass over every match.
 *
 * Slots never change their values (an update is a new slot at the end), so the order stays
 * valid: dead slots are skipped by the walk's membership test, and slots added since the last
 * build form a tail `[covered, size)` sorted on demand and merged into the walk; the next
 * slots are placed into that sorted tail, not sorted again with it (a write between queries
 * costs a few binary searches, not a sort of the tail: up to 27 ms at 62 500 slots). The
 * tail is folded in (each tail slot's place found by galloping, dead slots dropped) once it
 * grows past a fraction of the order. A bulk load orders every slot at once (`rebuild`, from the index's `finishBuild`), so
 * no query pays the first fold of a million slots; lists of more than a few slots are sorted
 * with native typed-array sorts (slot-sort.ts), never a comparator over the whole list.
 */
export class SortedOrder {
  private sorted: Int32Array = new Int32Array(0);
  /** Slots below this are in `sorted` (when alive at the last build). */
  private covered = 0;
  private tail: Int32Array = new Int32Array(0);
  private tailFor = -1;

  constructor(
    private readonly column: () => Float64Array,
    private readonly ids: readonly string[],
    /** idKey of each slot's id (id-keys.ts): ties on the value compare these first. */
    private readonly keys: () => Float64Array,
    private readonly alive: () => Uint8Array,
    /** Tail length always tolerated before folding (tests fold early with 0). */
    private readonly minTail = 4096,
    /** Slots from which a list is sorted natively (slot-sort.ts), not with the comparator. */
    private readonly nativeFrom = 256,
    /** New slots are placed into the tail while it holds this many times as many (PLACE_RATIO). */
    private readonly placeRatio = PLACE_RATIO,
  ) {}

  /** The folded order and the slots it covers (snapshot.ts; the array is replaced, never changed). */
  state(): { sorted: Int32Array; covered: number } {
    return { sorted: this.sorted, covered: this.covered };
  }

  restore(sorted: Int32Array, covered: number): void {
    this.sorted = sorted;
    this.covered = covered;
    this.tailFor = -1;
  }

  private compare(a: number, b: number): number {
    const values = this.column();
    const x = values[a] as number;
    const y = values[b] as number;
    if (x !== y) return x < y ? -1 : 1;
    const keys = this.keys();
    return compareIds(this.ids[a] as string, keys[a] as number, this.ids[b] as string, keys[b] as number);
  }

  /** < 0 when the slot comes before (value, id) in ascending order; `key` = idKey(id). */
  private compareTo(slot: number, value: number, id: string, key: number): number {
    const x = this.column()[slot] as number;
    if (x !== value) return x < value ? -1 : 1;
    return compareIds(this.ids[slot] as string, this.keys()[slot] as number, id, key);
  }

  /** Brings the order up to `size` slots; returns the sorted tail of slots not yet folded in. */
  private refresh(size: number): Int32Array {
    const pending = size - this.covered;
    if (pending > 0 && pending > Math.max(this.minTail, this.sorted.length >> 4)) {
      this.fold(size);
    }
    if (this.tailFor !== size) {
      // The tail holds slots [covered, tailFor): a few slots more are placed into it, else it
      // is sorted again (after a fold, or when many slots came at once).
      const kept = this.tailFor > this.covered ? this.tailFor - this.covered : 0;
      const from = this.covered + kept;
      const fresh = new Int32Array(size - from);
      for (let i = 0; i < fresh.length; i += 1) fresh[i] = from + i;
      if (kept > 0 && fresh.length * this.placeRatio <= kept)
        this.tail = this.place(this.tail, this.order(fresh));
      else {
        const all = new Int32Array(size - this.covered);
        for (let i = 0; i < all.length; i += 1) all[i] = this.covered + i;
        this.tail = this.order(all);
      }
      this.tailFor = size;
    }
    return this.tail;
  }

  /** The first index of `list` (ordered) in [lo, hi) whose slot comes after `slot`. */
  private firstAfter(list: Int32Array, slot: number, lo: number, hi: number): number {
    let from = lo;
    let to = hi;
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (this.compare(list[mid] as number, slot) <= 0) from = mid + 1;
      else to = mid;
    }
    return from;
  }

  /**
   * `into` and `slots` ordered: both as one ordered list, each of `slots` placed by a binary
   * search in `into` and the runs of `into` between them copied whole.
   */
  private place(into: Int32Array, slots: Int32Array): Int32Array {
    const out = new Int32Array(into.length + slots.length);
    let from = 0;
    let n = 0;
    for (let k = 0; k < slots.length; k += 1) {
      const slot = slots[k] as number;
      const lo = this.firstAfter(into, slot, from, into.length);
      out.set(into.subarray(from, lo), n);
      n += lo - from;
      from = lo;
      out[n++] = slot;
    }
    out.set(into.subarray(from), n);
    return out;
  }

  /** The slots (ascending) in (value, id) order: a comparator sort when few, native sorts else. */
  private order(slots: Int32Array): Int32Array {
    if (slots.length < this.nativeFrom) return slots.sort((a, b) => this.compare(a, b));
    return sortSlots(slots, this.column(), rankIds(slots, this.ids));
  }

  /**
   * Orders every live slot below `size` at once (the end of a bulk load, ADR 0022): `slots` are
   * exactly those, ascending, and `ranks` their rankIds (shared by the index's orders).
   */
  rebuild(size: number, slots: Int32Array, ranks: Int32Array): void {
    this.sorted = sortSlots(slots, this.column(), ranks);
    this.covered = size;
    this.tailFor = -1;
  }

  private fold(size: number): void {
    const alive = this.alive();
    const fresh: number[] = [];
    for (let s = this.covered; s < size; s += 1) if (alive[s] === 1) fresh.push(s);
    const tail = this.order(Int32Array.from(fresh));
    // Each tail slot's place in the old order found by galloping from the last one's (a few
    // comparisons where a linear merge makes one per old slot: each reads the column at a
    // random slot); the old slots between are copied, the dead left out.
    const old = this.sorted;
    const out = new Int32Array(old.length + tail.length);
    let i = 0;
    let n = 0;
    for (let j = 0; j < tail.length; j += 1) {
      const b = tail[j] as number;
      let lo = i;
      let hi = i;
      let step = 1;
      while (hi < old.length && this.compare(old[hi] as number, b) <= 0) {
        lo = hi + 1;
        hi = i + step;
        step *= 2;
      }
      const at = this.firstAfter(old, b, lo, Math.min(hi, old.length));
      for (; i < at; i += 1) {
        const a = old[i] as number;
        if (alive[a] === 1) out[n++] = a;
      }
      out[n++] = b;
    }
    for (; i < old.length; i += 1) {
      const a = old[i] as number;
      if (alive[a] === 1) out[n++] = a;
    }
    this.sorted = out.slice(0, n);
    this.covered = size;
    this.tailFor = -1;
  }

  /** Visits every slot whose value is at most `bound` (in no particular order; dead ones too). */
  forEachUpTo(size: number, bound: number, visit: (slot: number) => void): void {
    const tail = this.refresh(size);
    const values = this.column();
    const main = this.sorted;
    for (let i = 0; i < main.length && (values[main[i] as number] as number) <= bound; i += 1)
      visit(main[i] as number);
    for (let j = 0; j < tail.length && (values[tail[j] as number] as number) <= bound; j += 1)
      visit(tail[j] as number);
  }

  /**
   * The slots whose value is in [from, to] (`inclusiveEnd`) or [from, to), as slices of the
   * order (dead slots too; no copy).
   */
  between(size: number, from: number, to: number, inclusiveEnd: boolean): Int32Array[] {
    const tail = this.refresh(size);
    const values = this.column();
    const first = (list: Int32Array, value: number, strict: boolean) => {
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const v = values[list[mid] as number] as number;
        if (v < value || (strict && v === value)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [this.sorted, tail].map((list) =>
      list.subarray(first(list, from, false), first(list, to, inclusiveEnd)),
    );
  }

  /** First index of `list` whose slot is after (value, id) ascending (strictly when `strict`). */
  private bound(list: Int32Array, value: number, id: string, strict: boolean): number {
    const key = idKey(id);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compareTo(list[mid] as number, value, id, key);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The first `k` slots accepted by `accept`, in ascending or descending order, strictly after
   * the cursor (value, id) in that order.
   */
  walk(
    size: number,
    descending: boolean,
    after: { value: number; id: string } | null,
    accept: (slot: number) => boolean,
    k: number,
    /** Slots read at most; past it the walk gives up (null). */
    maxSteps = Number.POSITIVE_INFINITY,
  ): number[] | null {
    const tail = this.refresh(size);
    const main = this.sorted;
    const out: number[] = [];
    let steps = 0;
    if (!descending) {
      let i = after ? this.bound(main, after.value, after.id, true) : 0;
      let j = after ? this.bound(tail, after.value, after.id, true) : 0;
      while (out.length < k && (i < main.length || j < tail.length)) {
        let slot: number;
        if (j >= tail.length || (i < main.length && this.compare(main[i] as number, tail[j] as number) <= 0))
          slot = main[i++] as number;
        else slot = tail[j++] as number;
        if (accept(slot)) out.push(slot);
        else if (++steps > maxSteps) return null;
      }
      return out;
    }
    let i = (after ? this.bound(main, after.value, after.id, false) : main.length) - 1;
    let j = (after ? this.bound(tail, after.value, after.id, false) : tail.length) - 1;
    while (out.length < k && (i >= 0 || j >= 0)) {
      let slot: number;
      if (j < 0 || (i >= 0 && this.compare(main[i] as number, tail[j] as number) >= 0))
        slot = main[i--] as number;
      else slot = tail[j--] as number;
      if (accept(slot)) out.push(slot);
      else if (++steps > maxSteps) return null;
    }
    return out;
  }
}
