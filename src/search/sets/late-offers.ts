import type { SortedOrder } from '../order/sorted-order.js';
import { Bitmap, type Bits } from './slot-sets.js';

/**
 * The live offers stored `active` whose expiry has passed at a query's `now`: they count as
 * expired at query time (SPEC §6). Every query needs this set, and with real time most of it is
 * the same from one query to the next, so it is kept, not recomputed: a query at a later `now`
 * adds the offers whose expiry falls between the last `now` and this one (a binary search and a
 * short slice of the expiry order); an upsert or removal keeps it exact at once; a query at an
 * earlier `now` (a test's clock moved back) rebuilds it from the expiry order.
 */
export class LateOffers {
  private readonly bits = new Bitmap();
  /** The `now` the set is exact for (−∞: empty, nothing checked yet). */
  private upTo = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly byExpiry: SortedOrder,
    /** Expiry of each slot if stored active, else +∞ (the column byExpiry orders). */
    private readonly activeUntil: () => Float64Array,
    private readonly alive: () => Uint8Array,
    /** Told of each slot that turns late as `now` moves forward, and of each rebuild. */
    private readonly watcher: { late(slot: number): void; rebuilt(): void },
  ) {}

  /** The set at `now` (the index's own: never modify it, never keep it past the query). */
  at(now: number, slots: number): Bits {
    if (now < this.upTo) {
      this.bits.clear();
      this.upTo = Number.NEGATIVE_INFINITY;
      this.watcher.rebuilt();
    }
    if (now === this.upTo) return this.bits;
    const alive = this.alive();
    const fresh: number[] = [];
    const from = this.upTo === Number.NEGATIVE_INFINITY ? -Number.MAX_VALUE : this.upTo;
    for (const run of this.byExpiry.between(slots, from, now, true)) {
      for (let i = 0; i < run.length; i += 1) {
        const slot = run[i] as number;
        // The slice starts at the kept `now` itself: a slot expiring exactly then is in already.
        if (alive[slot] === 1 && !this.bits.has(slot)) fresh.push(slot);
      }
    }
    if (fresh.length > 0) this.bits.addMany(fresh);
    for (const slot of fresh) this.watcher.late(slot);
    this.upTo = now;
    return this.bits;
  }

  /**
   * The first moment after `now` at which a live offer stored active starts to count as expired
   * (+∞: none will): until then the set `at` gives is the same.
   */
  nextAfter(now: number, slots: number): number {
    const alive = this.alive();
    const until = this.activeUntil();
    let next = Number.POSITIVE_INFINITY;
    // The slices are in expiry order: the first live slot of each past `now` is its earliest.
    for (const run of this.byExpiry.between(slots, now, Number.POSITIVE_INFINITY, false)) {
      for (let i = 0; i < run.length; i += 1) {
        const slot = run[i] as number;
        const value = until[slot] as number;
        if (value > now && alive[slot] === 1) {
          if (value < next) next = value;
          break;
        }
      }
    }
    return next;
  }

  /**
   * A slot was added: it is late at once when stored active and expired by the kept `now`.
   * Whether it is.
   */
  added(slot: number): boolean {
    if ((this.activeUntil()[slot] as number) > this.upTo) return false;
    this.bits.add(slot);
    return true;
  }

  /** A slot died (removed, or replaced by a new slot). Whether it was late. */
  removed(slot: number): boolean {
    return this.bits.remove(slot);
  }
}
