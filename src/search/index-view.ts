import type { AttributeColumns } from './attributes/columns.js';
import type { Dictionary } from './columns/dictionary.js';
import type { GrowableWords } from './columns/growable.js';
import type { Tuning } from './columns/tuning.js';
import type { FacetName } from './engine.js';
import type { SortedOrder } from './order/sorted-order.js';
import type { GeoGrid } from './sets/geo-grid.js';
import type { LateOffers } from './sets/late-offers.js';
import type { PriceRanges } from './sets/price-ranges.js';
import type { Bits, BucketSets, ValueSets } from './sets/slot-sets.js';

/**
 * What the reading functions (query/, rank/, facets/, answer/) see of the Index: its columns, sets,
 * orders and counts, read-only, and the per-query scratch. Only index/search-index.ts writes
 * them (upsert, remove, the bulk load, snapshot restore), through the Index class itself.
 */

/** A column by slot (or by value id): `data[i]` for `i < length`; the array past `length` is spare. */
export interface Column<T> {
  readonly data: T;
  readonly length: number;
}

/** Strings interned to ids: `values[id]`. */
export interface Table {
  readonly ids: ReadonlyMap<string, number>;
  readonly values: readonly string[];
}

/** The word and stem dictionary, as the reading side uses it. */
export type DictionaryView = Pick<
  Dictionary,
  'wordIds' | 'wordText' | 'stemIds' | 'stemText' | 'stemWords' | 'stemCount' | 'walk'
> & {
  readonly wordStem: Column<Int32Array>;
  readonly wordDocs: Column<Int32Array>;
  readonly stemDocs: Column<Int32Array>;
};

/** Live slots per value id (`get`), as the reading side uses them. */
export type SetsView = Pick<ValueSets, 'get' | 'length'>;

/** Kept counts per value id of each facet column (a FacetCounts, read-only). */
export type CountsView = Readonly<Record<FacetName, Column<Int32Array>>>;

export interface IndexView {
  readonly tuning: Readonly<Tuning>;
  /** The declared attributes' columns. */
  readonly attributes: AttributeColumns;
  readonly dict: DictionaryView;
  /** Slot → offer id (dead slots keep theirs). */
  readonly ids: readonly string[];
  /** Slots handed out (live or dead): the bound of every per-slot column. */
  readonly slots: number;
  /** Offers held (live slots). */
  readonly size: number;
  readonly alive: Column<Uint8Array>;
  readonly status: Column<Uint8Array>;
  readonly activeUntil: Column<Float64Array>;
  readonly publishedAt: Column<Float64Array>;
  readonly updatedAt: Column<Float64Array>;
  readonly price: Column<Float64Array>;
  readonly lat: Column<Float64Array>;
  readonly lon: Column<Float64Array>;
  readonly category: Column<Int32Array>;
  readonly city: Column<Int32Array>;
  readonly country: Column<Int32Array>;
  readonly currency: Column<Int32Array>;
  /** Publisher ids interned in `tables.publisher`. */
  readonly publisher: Column<Int32Array>;
  readonly tags: Table;
  readonly tables: Readonly<
    Record<'category' | 'city' | 'country' | 'currency' | 'tag' | 'publisher', Table>
  >;
  /** Slot s's tags are tagIds[tagOffsets[s], tagOffsets[s + 1]). */
  readonly tagOffsets: Column<Int32Array>;
  readonly tagIds: Column<Int32Array>;
  /**
   * Word ids in text order; slot s's title is [textOffsets[2s], textOffsets[2s + 1]), then come
   * its searchable attributes' words (`attributeWords[s]` of them; none without `searchable`),
   * then its description, to textOffsets[2s + 2] (ADR 0042).
   */
  readonly text: Pick<GrowableWords, 'data' | 'length'>;
  readonly textOffsets: Column<Int32Array>;
  /** The names of the searchable attributes (by name); empty: no slot has attribute words. */
  readonly searchable: readonly string[];
  /** Per slot, its searchable attributes' word count (empty without `searchable`). */
  readonly attributeWords: Column<Int32Array>;
  readonly grid: Pick<GeoGrid, 'cellsWithin' | 'cellsInBox' | 'nearestFirst'>;
  /** Unions of many words' sets, kept between queries (query/union-cache.ts, ADR 0047). */
  readonly unions: UnionsView;
  readonly sets: Readonly<
    Record<
      'status' | 'category' | 'city' | 'country' | 'currency' | 'tag' | 'word' | 'title' | 'attribute',
      SetsView
    >
  >;
  readonly priceBuckets: Pick<BucketSets, 'from' | 'bucket' | 'count' | 'set'>;
  readonly priceRanges: Pick<PriceRanges, 'cover'>;
  readonly byPublished: Pick<SortedOrder, 'walk' | 'between'>;
  readonly byPrice: Pick<SortedOrder, 'walk' | 'between'>;
  /** Stored-active offers past their expiry at a query's `now` (the set is kept between queries). */
  readonly late: Pick<LateOffers, 'at'>;
  /** Live offers per stored status, and per stored status and facet value; the same among the late offers. */
  readonly statusCounts: Int32Array;
  readonly valueCounts: readonly CountsView[];
  readonly lateCounts: CountsView;
  /** Per-query scratch (reused: never kept past the query): the matches, their sort values, word bits. */
  readonly matchBuffer: Int32Array;
  readonly wordBits: Int32Array;
  scratchMembers(): Int32Array;
  primaries(n: number): Float64Array;
  /** Scratch sized for the index as it is now (called once per query, before any use). */
  growScratch(): void;
}

/** The offers holding one of `stems` in a field, as a scratch bitmap the caller may change. */
export interface UnionsView {
  union(ix: IndexView, field: 'word' | 'title' | 'attribute', stems: readonly number[]): Bits;
}

/** Where slot's searchable attribute words end and its description starts (`middle`: its title's end). */
export function attributesEnd(ix: IndexView, slot: number, middle: number): number {
  return ix.searchable.length === 0 ? middle : middle + (ix.attributeWords.data[slot] as number);
}
