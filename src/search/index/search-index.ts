import { forEachIndexWordId, WordIds } from '../analysis/tokens.js';
import { type AnswerIndex, answer } from '../answer/answer.js';
import { facetValuesOf } from '../answer/facet-values.js';
import { AttributeColumns } from '../attributes/columns.js';
import { searchableNames, searchableTexts } from '../attributes/values.js';
import { Dictionary } from '../columns/dictionary.js';
import {
  GrowableFloat64,
  GrowableInt32,
  GrowableUint8,
  GrowableWords,
  grownCapacity,
} from '../columns/growable.js';
import { flatString, Interned } from '../columns/interned.js';
import { SlotTable, type SlotTableState } from '../columns/slot-table.js';
import { DEFAULT_TUNING, type Tuning } from '../columns/tuning.js';
import type {
  EngineQuery,
  EngineResult,
  FacetName,
  FacetRequest,
  IndexDocument,
  SearchIndex,
  SearchSchema,
} from '../engine.js';
import { NO_ATTRIBUTES } from '../engine.js';
import { countSlot, facetCounts } from '../facets/facet-counts.js';
import { StemFacets } from '../facets/stem-facets.js';
import { idKey } from '../order/id-keys.js';
import { rankIds } from '../order/slot-sort.js';
import { SortedOrder } from '../order/sorted-order.js';
import { STATUS_CODE } from '../query/filters.js';
import { UnionCache } from '../query/union-cache.js';
import { ProximityLayers } from '../rank/proximity-layers.js';
import type { ClassPager } from '../rank/rank-buckets.js';
import { newestPager } from '../rank/relevance.js';
import { GeoGrid } from '../sets/geo-grid.js';
import { LateOffers } from '../sets/late-offers.js';
import { PriceRanges } from '../sets/price-ranges.js';
import { BucketSets, releaseScratch, ValueSets } from '../sets/slot-sets.js';
import { countValues } from './slot-values.js';
import { TermCounts } from './term-counts.js';

/**
 * An offer's slot is its position in every column. Slots are never reused: an update is a removal
 * (the old slot dies) and an insert (a new slot at the end), so posting lists stay sorted by
 * appending. The class holds the columns, sets and counts and their writes (upsert, remove);
 * reading them is done by functions over the Index in the modules beside it (answer.ts first).
 */
export class Index implements SearchIndex, AnswerIndex {
  readonly dict = new Dictionary();
  readonly ids: string[] = [];
  private readonly slotOf = new SlotTable(this.ids); // Each live id's slot (a Map doubled past 2²⁰ ids).
  readonly idKeys = new GrowableFloat64(); // Each slot's id's idKey (id-keys.ts): the orders' last tie-break.
  readonly alive = new GrowableUint8();
  readonly status = new GrowableUint8();
  /** When a stored-active offer starts to count as expired (+∞: never, or not stored active). */
  readonly activeUntil = new GrowableFloat64();
  readonly publishedAt = new GrowableFloat64();
  readonly updatedAt = new GrowableFloat64();
  readonly price = new GrowableFloat64();
  readonly lat = new GrowableFloat64();
  readonly lon = new GrowableFloat64();
  readonly category = new GrowableInt32();
  readonly city = new GrowableInt32();
  readonly country = new GrowableInt32();
  readonly currency = new GrowableInt32();
  /** Each slot's publisher id, interned (`distinct=publisher`). */
  readonly publisher = new GrowableInt32();
  readonly tags = new Interned();
  /** The values of each interned column, by id. */
  readonly tables = {
    category: new Interned(),
    city: new Interned(),
    country: new Interned(),
    currency: new Interned(),
    tag: this.tags,
    publisher: new Interned(),
  };
  /** Slot s's tags are tagIds[tagOffsets[s], tagOffsets[s + 1]). */
  readonly tagOffsets = new GrowableInt32();
  readonly tagIds = new GrowableInt32();
  /** Word ids in text order, stop words left out: by slot, title, searchable attributes, description (IndexView). */
  readonly text = new GrowableWords();
  readonly textOffsets = new GrowableInt32();
  readonly attributeWords = new GrowableInt32(); // Per slot, its searchable attributes' word count.
  readonly searchable: readonly string[]; // The searchable attributes' names (ADR 0042).
  readonly grid = new GeoGrid();
  /** Live slots per stored status, per value of each column, per word (anywhere; in the title; in the attributes). */
  readonly sets = {
    status: new ValueSets(),
    category: new ValueSets(),
    city: new ValueSets(),
    country: new ValueSets(),
    currency: new ValueSets(),
    tag: new ValueSets(),
    word: new ValueSets(),
    title: new ValueSets(),
    attribute: new ValueSets(),
  };
  /** Live slots per price bucket (about 9 % wide), for price ranges. */
  readonly priceBuckets = new BucketSets();
  /** Price ranges as a few bitmaps (kept unions of whole octaves of buckets). */
  readonly priceRanges = new PriceRanges(this.priceBuckets);
  private live = 0;
  private changes = 0;
  /** The matches of the query being answered (reused: a query's matches never outlive it). */
  matchBuffer = new Int32Array(0);
  /** The sort value of each of those matches (reused likewise). */
  private primaryBuffer = new Float64Array(0);
  /** Word id → bit u set when plan unit u matches its stem, during a ranking scan; all 0 otherwise. */
  wordBits = new Int32Array(0);
  /** Counts an offer's distinct words and stems in and out (term-counts.ts). */
  private readonly terms = new TermCounts();
  /** Precomputed orders for sort=publishedAt / price (both directions), walked from the cursor. */
  readonly byPublished = new SortedOrder(
    () => this.publishedAt.data,
    this.ids,
    () => this.idKeys.data,
    () => this.alive.data,
  );
  /** Slots by activeUntil: the stored-active offers past their expiry at `now` lead it. */
  readonly byExpiry = new SortedOrder(
    () => this.activeUntil.data,
    this.ids,
    () => this.idKeys.data,
    () => this.alive.data,
  );
  /**
   * Live offers per stored status, and per status and facet value (category, city, country, tag):
   * a status-only query's total and facets, adjusted for the active offers past their expiry.
   */
  readonly statusCounts = new Int32Array(3);
  readonly valueCounts = [0, 1, 2].map(() => facetCounts());
  /** The same among the late offers (stored active, past their expiry at the late set's `now`). */
  readonly lateCounts = facetCounts();
  readonly byPrice = new SortedOrder(
    () => this.price.data,
    this.ids,
    () => this.idKeys.data,
    () => this.alive.data,
  );

  readonly attributes: AttributeColumns; // The declared attributes' columns (attributes/columns.ts).
  constructor(
    readonly tuning: Tuning,
    readonly schema: SearchSchema = NO_ATTRIBUTES,
  ) {
    this.attributes = new AttributeColumns(schema);
    this.searchable = searchableNames(schema.attributes);
    this.tagOffsets.push(0);
    this.textOffsets.push(0);
  }

  /** The dictionary's ids of the words the memo of tokens.ts has seen. */
  private readonly wordIds = new WordIds((word) => this.dict.wordId(word));
  private readonly pushWord = (id: number): void => {
    this.text.push(id);
  };

  get size(): number {
    return this.live;
  }

  get version(): number {
    return this.changes;
  }

  statusChangeAfter(now: number): number {
    return this.late.nextAfter(now, this.ids.length);
  }

  /** Slots handed out (live or dead): the bound of every per-slot array. */
  get slots(): number {
    return this.ids.length;
  }

  /** A buffer for a query's members, one per slot (reused: never kept past the query). */
  scratchMembers(): Int32Array {
    return this.matchBuffer;
  }

  /** Stored-active offers past their expiry at a query's `now` (kept between queries). */
  readonly late = new LateOffers(
    this.byExpiry,
    () => this.activeUntil.data,
    () => this.alive.data,
    {
      late: (slot) => {
        this.stemFacets.slot(slot, -1);
        countSlot(this, this.lateCounts, slot, 1);
      },
      rebuilt: () => {
        this.stemFacets.clear();
        for (const column of Object.values(this.lateCounts)) column.length = 0;
      },
    },
  );

  /** Facet counts kept per frequent stem, for queries of one word (stem-facets.ts). */
  readonly stemFacets = new StemFacets(this);

  /** Within a relevance class: the newest members (relevance.ts). */
  readonly pager: ClassPager = newestPager(this);
  readonly proximity = new ProximityLayers(); // Frequent stem pairs' proximity (ADR 0040).
  readonly unions = new UnionCache(); // Many words' sets united, kept (ADR 0047).

  upsert(doc: IndexDocument): void {
    this.changes += 1;
    // Flattened first: the lookup and the insert below then hash the id once (V8 caches it).
    const id = flatString(doc.id);
    this.remove(id);
    const slot = this.ids.length;
    this.ids.push(id);
    this.idKeys.push(idKey(id));
    this.slotOf.set(id, slot);
    this.alive.push(1);
    this.status.push(STATUS_CODE[doc.status]);
    this.activeUntil.push(
      doc.status === 'active' ? (doc.expiresAt ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY,
    );
    this.publishedAt.push(doc.publishedAt);
    this.updatedAt.push(doc.updatedAt);
    this.price.push(doc.price);
    this.lat.push(doc.lat);
    this.lon.push(doc.lon);
    this.category.push(this.tables.category.id(doc.category));
    this.city.push(this.tables.city.id(doc.city));
    this.country.push(this.tables.country.id(doc.country));
    this.currency.push(this.tables.currency.id(doc.currency));
    this.publisher.push(this.tables.publisher.id(doc.publisher));
    this.attributes.push(doc.attributes);
    for (const tag of new Set(doc.tags)) this.tagIds.push(this.tags.id(tag));
    this.tagOffsets.push(this.tagIds.length);
    forEachIndexWordId(doc.title, this.wordIds, this.pushWord);
    this.textOffsets.push(this.text.length);
    if (this.searchable.length > 0) {
      const from = this.text.length;
      for (const value of searchableTexts(this.searchable, doc.attributes))
        forEachIndexWordId(value, this.wordIds, this.pushWord);
      this.attributeWords.push(this.text.length - from);
    }
    forEachIndexWordId(doc.description, this.wordIds, this.pushWord);
    this.textOffsets.push(this.text.length);
    countValues(this, slot, 1);
    this.terms.count(this, slot, 1);
    if (this.late.added(slot)) countSlot(this, this.lateCounts, slot, 1);
    else if (doc.status === 'active') this.stemFacets.slot(slot, 1);
    this.live += 1;
  }

  /** What a snapshot keeps of the id lookup (snapshot.ts): each slot's id key and the id table. */
  lookupState(): { keys: Float64Array; table: SlotTableState } {
    const slots = this.ids.length;
    return { keys: this.idKeys.data.slice(0, slots), table: this.slotOf.state(slots) };
  }

  /**
   * snapshot.ts's load: the id lookup the snapshot kept (its ids are `ids`), then the live count
   * and the attribute columns' counts of slots [from, to) (ranges from 0 on).
   */
  restoreLookup(keys: Float64Array, table: SlotTableState): void {
    this.idKeys.data = keys;
    this.idKeys.length = keys.length;
    this.slotOf.restore(table);
    this.live = 0;
  }

  restoreSlots(from: number, to: number): void {
    const alive = this.alive.data;
    for (let slot = from; slot < to; slot += 1) {
      if (alive[slot] !== 1) continue;
      this.attributes.restored(slot);
      this.live += 1;
    }
  }

  /** What the first query would do first (engine.ts `warm`). */
  warm(now: number): void {
    this.late.at(now, this.ids.length);
    this.priceRanges.prepare();
    this.dict.settle();
    this.proximity.adjacent.catchUp(this);
  }

  /**
   * The end of a bulk load (ADR 0022): every live slot put in each precomputed order at once
   * (native sorts), the dictionary's keys sorted, the bitmaps compacted; the columns keep their
   * spare capacity (trimmed, the first write would copy each into an array twice its size).
   */
  finishBuild(): void {
    this.buildOrders();
    this.dict.settle();
    this.compactSets();
  }

  /** Every live slot put in each precomputed order (finishBuild without compact). */
  buildOrders(): void {
    const n = this.ids.length;
    const alive = this.alive.data;
    const slots = new Int32Array(this.live);
    let k = 0;
    for (let s = 0; s < n; s += 1) if (alive[s] === 1) slots[k++] = s;
    const ranks = rankIds(slots, this.ids);
    for (const order of [this.byPublished, this.byExpiry, this.byPrice]) order.rebuild(n, slots, ranks);
  }

  /** Gives back the spare capacity of every array (call after a bulk load). */
  compact(): void {
    for (const column of [
      this.idKeys,
      this.alive,
      this.status,
      this.activeUntil,
      this.publishedAt,
      this.updatedAt,
      this.price,
      this.lat,
      this.lon,
      this.category,
      this.city,
      this.country,
      this.currency,
      this.publisher,
      this.tagOffsets,
      this.tagIds,
      this.text,
      this.textOffsets,
      this.attributeWords,
    ])
      column.trim();
    this.attributes.trim();
    this.compactSets();
  }

  /** Every pending slot added to its bitmap, run-length containers where smaller, no spare capacity. */
  private compactSets(): void {
    for (const sets of Object.values(this.sets)) sets.trim();
    this.priceBuckets.trim();
    this.grid.trim();
  }

  remove(id: string): void {
    const slot = this.slotOf.delete(id);
    if (slot === undefined) return;
    this.changes += 1;
    this.alive.data[slot] = 0;
    if (this.late.removed(slot)) countSlot(this, this.lateCounts, slot, -1);
    else if (this.status.data[slot] === STATUS_CODE.active) this.stemFacets.slot(slot, -1);
    countValues(this, slot, -1);
    this.terms.count(this, slot, -1);
    this.unions.removed(slot);
    this.live -= 1;
  }

  search(query: EngineQuery, facetNames: readonly FacetRequest[]): EngineResult {
    return scratched(() => answer(this, query, facetNames));
  }

  facetValues(query: EngineQuery, facet: FacetName | `attr.${string}`, prefix: string, limit: number) {
    return scratched(() => facetValuesOf(this, query, facet, prefix, limit));
  }

  /** A scratch array of `n` sort values (reused: large arrays per query bring on full collections). */
  primaries(n: number): Float64Array {
    if (this.primaryBuffer.length < n)
      this.primaryBuffer = new Float64Array(Math.max(n, this.matchBuffer.length));
    return this.primaryBuffer.subarray(0, n);
  }

  /** Scratch sized for the index as it is now (called once per query, before any use). */
  growScratch(): void {
    const n = this.ids.length;
    if (this.matchBuffer.length < n)
      this.matchBuffer = new Int32Array(Math.max(grownCapacity(this.matchBuffer.length, n), 1024));
    const words = this.dict.wordText.length;
    if (this.wordBits.length < words) this.wordBits = new Int32Array(Math.max(words * 2, 1024));
  }
}

export type { Tuning } from '../columns/tuning.js';

export function createSearchIndex(tuning: Partial<Tuning> = {}, schema?: SearchSchema): SearchIndex {
  return new Index({ ...DEFAULT_TUNING, ...tuning }, schema);
}

/** Runs a query, then gives back the scratch bitmaps it took. */
function scratched<T>(run: () => T): T {
  try {
    return run();
  } finally {
    releaseScratch();
  }
}
