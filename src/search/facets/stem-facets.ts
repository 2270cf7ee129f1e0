import type { EngineQuery } from '../engine.js';
import { FACET_NAMES } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { hasFilter, STATUS_CODE } from '../query/filters.js';
import { stemsSet, type UnitSets } from '../query/match-set.js';
import type { Plan } from '../query/plan.js';
import { type Bits, countValues } from '../sets/slot-sets.js';
import { countSlot, type FacetCounts, facetCounts } from './facet-counts.js';

/**
 * Facet counts kept per frequent stem (ADR 0027). A query of one word and no filter is the
 * commonest search there is, and for a word many offers hold the dearest to count facets for:
 * one AND-cardinality per facet value over hundreds of thousands of matches, or a pass whose
 * every read is a cache miss. So for a stem held by at least `tuning.keptFacetsFrom` offers the
 * index keeps, per category, city, country and tag, how many of the offers effectively active
 * hold it (live, stored active, not past their expiry at the late set's `now`). A query of one
 * unit matches whole stems (plan.ts): it reads the kept counts of its most frequent stem and
 * counts only the matches that stem does not hold (a typo's or a longer prefix's: few, often
 * none).
 *
 * Counts are made on a stem's first such query, from the bitmaps (exact at that moment), and
 * kept exact by every change after it: an offer entering or leaving the effectively active
 * ones (added, removed, or turning late as the late set moves forward). When the late set is
 * rebuilt (a query at an earlier `now`) every kept count is dropped and made again on demand.
 */

/**
 * The kept counts of one stem, and its offers (live, any status); `set` is null when the query
 * matches no other stem, so no match lies outside the stem (its union is then never built).
 */
export interface StemBase {
  set: Bits | null;
  counts: FacetCounts;
}

export class StemFacets {
  /** Stem id → its counts (undefined: not kept). */
  private kept: Array<FacetCounts | undefined> = [];
  private stems = 0;
  /** Per stem id, the last call of `slot` that counted it (an offer's stems are counted once). */
  private seen = new Int32Array(0);
  private stamp = 0;

  constructor(private readonly ix: IndexView) {}

  /** Stems whose counts are kept. */
  get size(): number {
    return this.stems;
  }

  /**
   * The base to count a one-word query's facets from: its most frequent stem and that stem's
   * kept counts (made now if need be). Null when the query is not of that kind (one unit of
   * `q`, no phrase, no exclusion, no filter, status active) or no stem of it is frequent enough.
   */
  baseFor(query: EngineQuery, plan: Plan | null, units: readonly UnitSets[]): StemBase | null {
    const ix = this.ix;
    if (plan === null || units.length !== 1 || plan.phrases.length > 0 || plan.excluded.length > 0)
      return null;
    if (plan.hasSequences) return null;
    if (query.status !== 'active' || hasFilter(query)) return null;
    const docs = ix.dict.stemDocs.data;
    const stems = (plan.units[0] as Plan['units'][number]).costs;
    let best = -1;
    for (const s of stems.keys()) if (best < 0 || (docs[s] as number) > (docs[best] as number)) best = s;
    if (best < 0 || (docs[best] as number) < ix.tuning.keptFacetsFrom) return null;
    const counts = this.kept[best] ?? this.make(best, query.now);
    if (counts === null) return null;
    return { set: stems.size === 1 ? null : stemsSet(ix, [best], 'word'), counts };
  }

  /** Counts for stem `s` from the bitmaps at `now`; null past the cap on kept stems. */
  private make(s: number, now: number): FacetCounts | null {
    const ix = this.ix;
    if (this.stems >= ix.tuning.keptFacetsStems) return null;
    const active = ix.sets.status.get(STATUS_CODE.active);
    const late = ix.late.at(now, ix.slots);
    const holders = stemsSet(ix, [s], 'word').andInPlace(active);
    if (late.size > 0) holders.andNotInPlace(late);
    const counts = facetCounts();
    for (const name of FACET_NAMES) {
      const values = countValues(holders, ix.sets[name]);
      counts[name].reserve(values.length);
      for (const v of values) counts[name].push(v);
    }
    this.kept[s] = counts;
    this.stems += 1;
    return counts;
  }

  /**
   * Slot `slot` enters (+1) or leaves (−1) the effectively active live offers: each kept stem
   * it holds counts its values in or out.
   */
  slot(slot: number, delta: 1 | -1): void {
    if (this.stems === 0) return;
    const ix = this.ix;
    const dict = ix.dict;
    if (this.seen.length < dict.stemCount) {
      const next = new Int32Array(dict.stemCount * 2);
      next.set(this.seen);
      this.seen = next;
    }
    if (this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    this.stamp += 1;
    const stamp = this.stamp;
    const text = ix.text.data;
    const to = ix.textOffsets.data[2 * slot + 2] as number;
    for (let p = ix.textOffsets.data[2 * slot] as number; p < to; p += 1) {
      const s = dict.wordStem.data[text[p] as number] as number;
      if (this.seen[s] === stamp) continue;
      this.seen[s] = stamp;
      const counts = this.kept[s];
      if (counts !== undefined) countSlot(ix, counts, slot, delta);
    }
  }

  /** Every kept count dropped (the late set was rebuilt). */
  clear(): void {
    this.kept = [];
    this.stems = 0;
  }
}
