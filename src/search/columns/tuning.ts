/**
 * Where the engine switches between two exact ways of answering (ADR 0019). The defaults are
 * the measured break-even points; tests move them to force each path on small data.
 */
export interface Tuning {
  /** Facets by one pass over the matches below this many matches, by AND-cardinalities above. */
  facetPassBelow: number;
  /**
   * While the matches are sparse (CRoaring array containers), a column is counted by a pass
   * when its values ≥ this × the values an offer holds (1; tags: their mean per offer): an
   * AND-cardinality between sparse sets is a merge, so that way costs matches × values.
   * Infinity: never.
   */
  facetPassValues: number;
  /**
   * Cost of reading one slot of a precomputed order (membership test included) against selecting
   * among one match: a page is walked when the walk's expected length × this ≤ the matches.
   * 0: always walk; Infinity: never.
   */
  walkCost: number;
  /**
   * Same for a range or a radius: ANDed as bitmaps (a slice of the publication order; the price
   * buckets or grid cells inside) when their size × this ≤ the matches, else a test per match.
   */
  rangeSliceCost: number;
  /**
   * Same for a relevance page of several words: a step of the newest-first walk against ranking
   * one match from its words (much dearer than a selection step, hence below 1).
   */
  rankWalkCost: number;
  /**
   * A stem held by at least this many offers keeps its facet counts (stem-facets.ts), read by
   * queries of one word; at most `keptFacetsStems` stems do. Infinity: none.
   */
  keptFacetsFrom: number;
  keptFacetsStems: number;
  /**
   * `distinct`: the first chunk of the order read, in pages (limit + 1 offers); each next chunk
   * is four times the one before (answer/distinct.ts).
   */
  distinctChunk: number;
  /**
   * A relevance part of several words at least this large is cut by the proximity of its word
   * pairs (proximity-layers.ts) rather than ranked whole when its walk gives up (ADR 0040).
   * Infinity: never.
   */
  proximityPartFrom: number;
  /** Stem pairs whose stems are both in at least this many offers keep their proximity layers. */
  proximityPairsFrom: number;
  /** The most bytes the kept proximity layers take (the least recently used dropped first). */
  proximityBytes: number;
  /**
   * The most bits of the filter of stem pairs that stand next to each other (adjacent-pairs.ts,
   * ADR 0043; 2^25: 4 MiB). Below 1 024: none (every pair may be adjacent).
   */
  adjacentPairsBits: number;
  /**
   * A relevance walk past 8 × the members it expects to need plus this many slots' worth of
   * members offers its part to be cut by proximity layers, once (ADR 0043). 0 in tests: early.
   */
  rankWalkShort: number;
  /** Unions of at least this many words' sets are kept between queries (union-cache.ts, ADR 0047). */
  unionsFrom: number;
  /** The most bytes the kept unions take (the least recently used dropped first); 0: none kept. */
  unionBytes: number;
}

export const DEFAULT_TUNING: Tuning = {
  facetPassBelow: 4096,
  facetPassValues: 20,
  walkCost: 4,
  rangeSliceCost: 1,
  rankWalkCost: 0.3,
  keptFacetsFrom: 32_768,
  keptFacetsStems: 1024,
  distinctChunk: 3,
  proximityPartFrom: 2048,
  proximityPairsFrom: 1024,
  proximityBytes: 32 * 1024 * 1024,
  adjacentPairsBits: 2 ** 25,
  rankWalkShort: 1024,
  unionsFrom: 8,
  unionBytes: 32 * 1024 * 1024,
};
