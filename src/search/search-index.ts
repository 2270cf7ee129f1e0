import type { CursorValue } from '../offers/cursor.js';
import { distanceKm, EARTH_RADIUS_KM } from '../offers/geo.js';
import type { FacetName, OfferStatus } from '../offers/schemas.js';
import type { Facets } from '../offers/store.js';
import { Dictionary } from './dictionary.js';
import type { EngineQuery, EngineResult, IndexDocument, SearchIndex } from './engine.js';
import { GeoGrid } from './geo-grid.js';
import { GrowableFloat64, GrowableInt32, GrowableUint8, GrowableWords } from './growable.js';
import { type Plan, planText, type Unit } from './plan.js';
import { PROXIMITY_CAP } from './rules.js';
import { intersect, union } from './slot-lists.js';
import { SortedOrder } from './sorted-order.js';
import { forEachIndexWord } from './tokens.js';
import { type Position, selectPage } from './top-k.js';

type Words = Uint16Array | Int32Array;
const ANY = -1;
const NONE = -2;
const DEGREE = Math.PI / 180;

/** A query's filters over column values (ANY: no filter). */
interface Filter {
  status: number;
  now: number;
  categories: Uint8Array | null;
  tags: number[];
  city: number;
  country: number;
  currency: number;
  priceMin: number;
  priceMax: number;
  publishedMin: number;
  publishedEnd: number;
  updatedMin: number;
  near: { lat: number; lon: number };
  /** Km, or −1 for no radius. */
  radius: number;
  latitudeBand: number;
  point: { lat: number; lon: number };
}

const STATUS_CODE: Record<OfferStatus, number> = { active: 0, expired: 1, withdrawn: 2 };
const FACET_TOP = 20;
const TITLE_BIT = 0x80;
const WORD_BITS = 7;

/** Strings of one column (category, city, …) as small integers. */
class Interned {
  readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}

type Keys = CursorValue[];

/**
 * An offer's slot is its position in every column. Slots are never reused: an update is a removal
 * (the old slot dies) and an insert (a new slot at the end), so posting lists stay sorted by
 * appending.
 */
class Index implements SearchIndex {
  private readonly dict = new Dictionary();
  private readonly ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly alive = new GrowableUint8();
  private readonly status = new GrowableUint8();
  private readonly expiresAt = new GrowableFloat64();
  private readonly publishedAt = new GrowableFloat64();
  private readonly updatedAt = new GrowableFloat64();
  private readonly price = new GrowableFloat64();
  private readonly lat = new GrowableFloat64();
  private readonly lon = new GrowableFloat64();
  private readonly category = new GrowableInt32();
  private readonly city = new GrowableInt32();
  private readonly country = new GrowableInt32();
  private readonly currency = new GrowableInt32();
  private readonly categories = new Interned();
  private readonly cities = new Interned();
  private readonly countries = new Interned();
  private readonly currencies = new Interned();
  private readonly tags = new Interned();
  /** Slot s's tags are tagIds[tagOffsets[s], tagOffsets[s + 1]). */
  private readonly tagOffsets = new GrowableInt32();
  private readonly tagIds = new GrowableInt32();
  /** Word ids in text order, stop words left out: slot s's title is [textOffsets[2s], textOffsets[2s + 1]), its description runs to textOffsets[2s + 2]. */
  private readonly text = new GrowableWords();
  private readonly textOffsets = new GrowableInt32();
  private readonly grid = new GeoGrid();
  private live = 0;
  // Per-slot scratch of a query (stamped, so never cleared between queries).
  private mark = new Int32Array(0);
  /** The matches of the query being answered (reused: a query's matches never outlive it). */
  private matchBuffer = new Int32Array(0);
  /** Whether the last match() answered its slots ascending (not when the geo grid chose them). */
  private matchesAscending = true;
  /** rank()'s per-slot packed rank (valid where mark holds rankStamp) and its class counts. */
  private slotRank = new Float64Array(0);
  private readonly rankClasses = new Int32Array(64);
  private rankStamp = -1;
  private unitMark = new Int32Array(0);
  private unitBest = new Uint8Array(0);
  private unitFlags = new Uint8Array(0);
  private stamp = 0;
  /** Stem id → bit u set when plan unit u matches it, during a ranking scan; all 0 otherwise. */
  private stemBits = new Int32Array(0);
  // Per-term scratch of an insert: the slot that last counted each word and stem, and the
  // info byte built for each stem.
  private wordSeen = new Int32Array(0);
  private stemSeen = new Int32Array(0);
  private stemInfo = new Uint8Array(0);
  private readonly docStems: number[] = [];
  /** Precomputed orders for sort=publishedAt / price (both directions), walked from the cursor. */
  private readonly byPublished = new SortedOrder(
    () => this.publishedAt.data,
    this.ids,
    () => this.alive.data,
  );
  /** Live offers by expiry (no expiry: +∞), for the offers past it at query time. */
  private readonly byExpiry = new SortedOrder(
    () => this.expiresAt.data,
    this.ids,
    () => this.alive.data,
  );
  /**
   * Live offers per stored status, and per stored status and facet value (category, city,
   * country, tag): a query filtering on the status alone reads its total and facets here,
   * adjusted for the active offers past their expiry.
   */
  private readonly statusCounts = new Int32Array(3);
  private readonly valueCounts = [0, 1, 2].map(() => ({
    category: new GrowableInt32(),
    city: new GrowableInt32(),
    country: new GrowableInt32(),
    tag: new GrowableInt32(),
  }));
  private readonly byPrice = new SortedOrder(
    () => this.price.data,
    this.ids,
    () => this.alive.data,
  );

  constructor() {
    this.tagOffsets.push(0);
    this.textOffsets.push(0);
  }

  private readonly pushWord = (word: string): void => {
    this.text.push(this.dict.wordId(word));
  };

  get size(): number {
    return this.live;
  }

  upsert(doc: IndexDocument): void {
    this.remove(doc.id);
    const slot = this.ids.length;
    const id = flatString(doc.id);
    this.ids.push(id);
    this.slotOf.set(id, slot);
    this.alive.push(1);
    this.status.push(STATUS_CODE[doc.status]);
    this.expiresAt.push(doc.expiresAt ?? Number.POSITIVE_INFINITY);
    this.publishedAt.push(doc.publishedAt);
    this.updatedAt.push(doc.updatedAt);
    this.price.push(doc.price);
    this.lat.push(doc.lat);
    this.lon.push(doc.lon);
    this.category.push(this.categories.id(doc.category));
    this.city.push(this.cities.id(doc.city));
    this.country.push(this.countries.id(doc.country));
    this.currency.push(this.currencies.id(doc.currency));
    for (const tag of new Set(doc.tags)) this.tagIds.push(this.tags.id(tag));
    this.tagOffsets.push(this.tagIds.length);
    for (const field of [doc.title, doc.description]) {
      forEachIndexWord(field, this.pushWord);
      this.textOffsets.push(this.text.length);
    }
    this.grid.add(slot, doc.lat, doc.lon);
    this.countValues(slot, 1);
    this.countTerms(slot, 1);
    this.live += 1;
  }

  /** Gives back the spare capacity of every array (call after a bulk load). */
  compact(): void {
    for (const column of [
      this.alive,
      this.status,
      this.expiresAt,
      this.publishedAt,
      this.updatedAt,
      this.price,
      this.lat,
      this.lon,
      this.category,
      this.city,
      this.country,
      this.currency,
      this.tagOffsets,
      this.tagIds,
      this.text,
      this.textOffsets,
    ])
      column.trim();
    for (const list of this.dict.postings) list.trim();
    for (const info of this.dict.postingInfo) info.trim();
    this.grid.trim();
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive.data[slot] = 0;
    this.countValues(slot, -1);
    this.countTerms(slot, -1);
    this.live -= 1;
  }

  private countValues(slot: number, delta: 1 | -1): void {
    const status = this.status.data[slot] as number;
    this.statusCounts[status] = (this.statusCounts[status] as number) + delta;
    const counts = this.valueCounts[status] as (typeof this.valueCounts)[number];
    const add = (column: GrowableInt32, value: number) => {
      while (column.length <= value) column.push(0);
      column.data[value] = (column.data[value] as number) + delta;
    };
    add(counts.category, this.category.data[slot] as number);
    add(counts.city, this.city.data[slot] as number);
    add(counts.country, this.country.data[slot] as number);
    const to = this.tagOffsets.data[slot + 1] as number;
    for (let p = this.tagOffsets.data[slot] as number; p < to; p += 1)
      add(counts.tag, this.tagIds.data[p] as number);
  }

  /**
   * A query filtering on the status alone (no text, no other filter) sorted by publishedAt or
   * price: the total and facets from the maintained counts, adjusted for the active offers past
   * their expiry (the expiry order read up to `now`), and the page walked in the sorted order
   * testing the status. Null when the query is not of that kind or the walk would be long.
   */
  private statusOnly(
    query: EngineQuery,
    after: Position | null,
    facetNames: readonly FacetName[],
  ): EngineResult | null {
    const sort = query.sort;
    if (sort !== 'publishedAt' && sort !== '-publishedAt' && sort !== 'price' && sort !== '-price')
      return null;
    const q = query;
    if (
      q.text !== null ||
      q.categories.length > 0 ||
      q.tags.length > 0 ||
      q.city !== null ||
      q.country !== null ||
      q.currency !== null ||
      q.priceMin !== null ||
      q.priceMax !== null ||
      q.publishedAfter !== null ||
      q.publishedBefore !== null ||
      q.updatedSince !== null ||
      (q.near !== null && q.radiusKm !== null)
    )
      return null;
    const wanted = STATUS_CODE[q.status];
    const size = this.ids.length;
    const now = q.now;
    // Offers stored active but past their expiry count as expired.
    const late: number[] = [];
    const alive = this.alive.data;
    const status = this.status.data;
    this.byExpiry.forEachUpTo(size, now, (slot) => {
      if (alive[slot] === 1 && status[slot] === 0) late.push(slot);
    });
    const sign = wanted === 0 ? -1 : wanted === 1 ? 1 : 0;
    const total = (this.statusCounts[wanted] as number) + sign * late.length;
    const k = query.limit + 1;
    if (total <= 0 || k * (size / total) > total) return null;
    const facets: Facets = {};
    for (const name of facetNames) {
      const table =
        name === 'category'
          ? this.categories
          : name === 'city'
            ? this.cities
            : name === 'country'
              ? this.countries
              : this.tags;
      const kept = (this.valueCounts[wanted] as (typeof this.valueCounts)[number])[name];
      const counts = new Int32Array(table.values.length);
      counts.set(kept.data.subarray(0, Math.min(kept.length, counts.length)));
      if (sign !== 0) {
        for (const slot of late) {
          if (name === 'tag') {
            const to = this.tagOffsets.data[slot + 1] as number;
            for (let p = this.tagOffsets.data[slot] as number; p < to; p += 1) {
              const t = this.tagIds.data[p] as number;
              counts[t] = (counts[t] as number) + sign;
            }
          } else {
            const column = name === 'category' ? this.category : name === 'city' ? this.city : this.country;
            const v = column.data[slot] as number;
            counts[v] = (counts[v] as number) + sign;
          }
        }
      }
      facets[name] = topValues(counts, table.values);
    }
    const expires = this.expiresAt.data;
    const published = sort === 'publishedAt' || sort === '-publishedAt';
    const slots = (published ? this.byPublished : this.byPrice).walk(
      size,
      sort === '-publishedAt' || sort === '-price',
      after ? { value: after.primary, id: after.id } : null,
      (slot) => {
        if (alive[slot] === 0) return false;
        let st = status[slot] as number;
        if (st === 0 && (expires[slot] as number) <= now) st = 1;
        return st === wanted;
      },
      k,
    ) as number[];
    const more = slots.length > query.limit;
    if (more) slots.length = query.limit;
    const column = published ? this.publishedAt.data : this.price.data;
    const last = slots[slots.length - 1];
    return {
      ids: slots.map((slot) => this.ids[slot] as string),
      total,
      facets,
      nextKeys: more && last !== undefined ? this.keysOf(query, last, column[last] as number) : null,
    };
  }

  /**
   * Adds (+1) or withdraws (−1) the slot's distinct words and stems from the dictionary's
   * counts; on adding, appends the slot to each stem's posting list with its info byte.
   */
  private countTerms(slot: number, delta: 1 | -1): void {
    const dict = this.dict;
    if (this.wordSeen.length < dict.wordText.length) {
      const next = new Int32Array(dict.wordText.length * 2);
      next.set(this.wordSeen);
      this.wordSeen = next;
    }
    if (this.stemSeen.length < dict.stemCount) {
      const next = new Int32Array(dict.stemCount * 2);
      next.set(this.stemSeen);
      this.stemSeen = next;
      this.stemInfo = new Uint8Array(dict.stemCount * 2);
    }
    // Stamps are slot + 1 for an insert, −(slot + 1) for a removal: unique per call.
    const stamp = delta === 1 ? slot + 1 : -(slot + 1);
    const text = this.text.data;
    const from = this.textOffsets.data[2 * slot] as number;
    const middle = this.textOffsets.data[2 * slot + 1] as number;
    const to = this.textOffsets.data[2 * slot + 2] as number;
    const stems = this.docStems;
    stems.length = 0;
    for (let p = from; p < to; p += 1) {
      const w = text[p] as number;
      const s = dict.wordStem.data[w] as number;
      if (this.stemSeen[s] !== stamp) {
        this.stemSeen[s] = stamp;
        this.stemInfo[s] = 0;
        stems.push(s);
        dict.stemDocs.data[s] = (dict.stemDocs.data[s] as number) + delta;
      }
      if (this.wordSeen[w] !== stamp) {
        this.wordSeen[w] = stamp;
        dict.wordDocs.data[w] = (dict.wordDocs.data[w] as number) + delta;
      }
      const local = dict.wordLocal.data[w] as number;
      let info = this.stemInfo[s] as number;
      if (local < WORD_BITS) info |= 1 << local;
      if (p < middle) info |= TITLE_BIT;
      this.stemInfo[s] = info;
    }
    if (delta === -1) return;
    for (const s of stems) {
      (dict.postings[s] as GrowableInt32).push(slot);
      (dict.postingInfo[s] as GrowableUint8).push(this.stemInfo[s] as number);
    }
  }

  search(query: EngineQuery, facetNames: readonly FacetName[]): EngineResult {
    const plan = query.text ? planText(this.dict, query.text) : null;
    if (plan === 'nothing') return { ids: [], total: 0, facets: emptyFacets(facetNames), nextKeys: null };
    this.growScratch();
    const quick = plan === null ? this.statusOnly(query, this.position(query), facetNames) : null;
    if (quick !== null) return quick;
    const matches = this.match(query, plan);
    const count = matches.length;
    const relevance = query.sort === 'relevance';
    const after = this.position(query);
    const sortedPage = this.walkPage(query, matches, after);
    if (sortedPage !== null) {
      const { slots, more, column } = sortedPage;
      const last = slots[slots.length - 1];
      return this.finish(plan, {
        ids: slots.map((slot) => this.ids[slot] as string),
        total: count,
        facets: this.facets(matches, facetNames),
        nextKeys: more && last !== undefined ? this.keysOf(query, last, column[last] as number) : null,
      });
    }
    let ordered = matches;
    let primary: Float64Array;
    if (query.sort === 'distance' && query.near !== null) {
      ({ slots: ordered, primary } = this.nearest(query.near, matches, after, query.limit));
    } else {
      primary = new Float64Array(count);
      if (relevance && plan && plan.units.length > 0) {
        this.rank(plan, matches, primary);
        const bucket = this.bucketPage(count, after, query.limit);
        if (bucket !== null) {
          const last = bucket.slots[bucket.slots.length - 1];
          return this.finish(plan, {
            ids: bucket.slots.map((slot) => this.ids[slot] as string),
            total: count,
            facets: this.facets(matches, facetNames),
            nextKeys: last !== undefined ? this.keysOf(query, last, bucket.rank) : null,
          });
        }
      } else if (!relevance) this.sortValues(query, matches, primary);
    }
    const order = {
      primaryDescending: query.sort === '-publishedAt' || query.sort === '-price',
      relevance,
    };
    const rows = { slots: ordered, primary, published: this.publishedAt.data, ids: this.ids };
    const { page, more } = selectPage(rows, ordered.length, order, after, query.limit);
    const last = page[page.length - 1];
    const result: EngineResult = {
      ids: page.map((i) => this.ids[ordered[i] as number] as string),
      total: count,
      facets: this.facets(matches, facetNames),
      nextKeys:
        more && last !== undefined
          ? this.keysOf(query, ordered[last] as number, primary[last] as number)
          : null,
    };
    return this.finish(plan, result);
  }

  private finish(plan: Plan | null, result: EngineResult): EngineResult {
    if (plan) {
      const live = [...plan.unitsOfStem.keys()].filter((s) => (this.dict.stemDocs.data[s] as number) > 0);
      result.matchedStems = live.map((s) => this.dict.stemText[s] as string).sort();
    }
    return result;
  }

  /**
   * sort=publishedAt / price in either direction: the page by walking the precomputed order from
   * the cursor, testing membership in the matches, when that walk is expected to be shorter than
   * a pass over the matches (the walk reads about (limit + 1) × slots / matches slots). Null when
   * the pass over the matches is the cheaper (or the only) way.
   */
  private walkPage(
    query: EngineQuery,
    matches: Int32Array,
    after: Position | null,
  ): { slots: number[]; more: boolean; column: Float64Array } | null {
    const sort = query.sort;
    if (sort !== 'publishedAt' && sort !== '-publishedAt' && sort !== 'price' && sort !== '-price')
      return null;
    const count = matches.length;
    const size = this.ids.length;
    const k = query.limit + 1;
    if (count === 0 || k * (size / count) > count) return null;
    // Membership: a binary search in the ascending matches (a walk reads few slots), else a stamp.
    let accept: (slot: number) => boolean;
    if (this.matchesAscending) {
      accept = (slot) => {
        let lo = 0;
        let hi = count;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((matches[mid] as number) < slot) lo = mid + 1;
          else hi = mid;
        }
        return lo < count && matches[lo] === slot;
      };
    } else {
      const stamp = this.nextStamp();
      const mark = this.mark;
      for (let i = 0; i < count; i += 1) mark[matches[i] as number] = stamp;
      accept = (slot) => mark[slot] === stamp;
    }
    const published = sort === 'publishedAt' || sort === '-publishedAt';
    const order = published ? this.byPublished : this.byPrice;
    const slots = order.walk(
      size,
      sort === '-publishedAt' || sort === '-price',
      after ? { value: after.primary, id: after.id } : null,
      accept,
      k,
    ) as number[];
    const more = slots.length > query.limit;
    if (more) slots.length = query.limit;
    return { slots, more, column: published ? this.publishedAt.data : this.price.data };
  }

  /**
   * sort=distance: the matches of the grid cells nearest `near`, cell after cell, until more
   * than a page lies after the cursor and no further cell can hold anything nearer; with their
   * distances. Everything left out comes after all of them.
   */
  private nearest(
    near: { lat: number; lon: number },
    matches: Int32Array,
    after: Position | null,
    limit: number,
  ): { slots: Int32Array; primary: Float64Array } {
    const stamp = this.nextStamp();
    const mark = this.mark;
    for (let i = 0; i < matches.length; i += 1) mark[matches[i] as number] = stamp;
    const slots = new GrowableInt32(64);
    const distances = new GrowableFloat64(64);
    const point = { lat: 0, lon: 0 };
    const from = after ? after.primary : Number.NEGATIVE_INFINITY;
    let past = 0;
    let farthest = Number.NEGATIVE_INFINITY;
    for (const { cell, min, max } of this.grid.byDistance(near)) {
      if (past > limit && min > farthest) break;
      if (max < from) continue;
      const data = cell.slots.data;
      for (let k = 0; k < cell.slots.length; k += 1) {
        const slot = data[k] as number;
        if (mark[slot] !== stamp) continue;
        point.lat = this.lat.data[slot] as number;
        point.lon = this.lon.data[slot] as number;
        const d = distanceKm(near, point);
        if (d < from || (d === from && after !== null && (this.ids[slot] as string) <= after.id)) continue;
        slots.push(slot);
        distances.push(d);
        past += 1;
        if (d > farthest) farthest = d;
      }
    }
    return { slots: slots.view(), primary: distances.data.subarray(0, distances.length) };
  }

  /** The cursor as a position in the order (cursor values are trusted only to be numbers or strings). */
  private position(query: EngineQuery): Position | null {
    const after = query.after;
    if (after === null) return null;
    if (query.sort === 'relevance') {
      const [typos, proximity, attribute, inexact, published, id] = after;
      return {
        primary: packRank(Number(typos), Number(proximity), Number(attribute), Number(inexact)),
        published: Number(published),
        id: String(id),
      };
    }
    return { primary: Number(after[0]), published: 0, id: String(after[1]) };
  }

  private keysOf(query: EngineQuery, slot: number, primary: number): Keys {
    const id = this.ids[slot] as string;
    if (query.sort !== 'relevance') return [primary, id];
    return [...unpackRank(primary), this.publishedAt.data[slot] as number, id];
  }

  private growScratch(): void {
    const n = this.ids.length;
    if (this.mark.length < n) {
      const size = Math.max(n, this.mark.length * 2, 1024);
      this.mark = new Int32Array(size);
      this.unitMark = new Int32Array(size);
      this.unitBest = new Uint8Array(size);
      this.unitFlags = new Uint8Array(size);
      this.slotRank = new Float64Array(size);
      this.stamp = 0;
    }
    if (this.stemBits.length < this.dict.stemCount)
      this.stemBits = new Int32Array(Math.max(this.dict.stemCount * 2, 1024));
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7ffffff0) {
      this.mark.fill(0);
      this.unitMark.fill(0);
      this.stamp = 0;
    }
    this.stamp += 1;
    return this.stamp;
  }

  /** Every live slot matching the filters and the text, ascending when the text chose them. */
  private match(query: EngineQuery, plan: Plan | null): Int32Array {
    let candidates: Int32Array | null = plan ? this.textCandidates(plan) : null;
    this.matchesAscending = true;
    if (candidates === null && query.near !== null && query.radiusKm !== null) {
      this.matchesAscending = false;
      const parts: Int32Array[] = [];
      for (const { cell } of this.grid.cellsWithin(query.near, query.radiusKm)) parts.push(cell.slots.view());
      candidates = concat(parts);
    }
    const filter = this.compileFilter(query);
    if (filter === null) return new Int32Array(0);
    const checkText = plan !== null && (plan.phrases.length > 0 || plan.excluded.length > 0);
    const n = candidates ? candidates.length : this.ids.length;
    if (this.matchBuffer.length < n) this.matchBuffer = new Int32Array(Math.max(n, this.ids.length));
    const out = this.matchBuffer;
    // The column tests inline over local typed arrays (a call and two property loads per test
    // per slot otherwise); tags and the radius, rarer, in passesFilters.
    const alive = this.alive.data;
    const status = this.status.data;
    const expires = this.expiresAt.data;
    const price = this.price.data;
    const published = this.publishedAt.data;
    const updated = this.updatedAt.data;
    const category = this.category.data;
    const city = this.city.data;
    const country = this.country.data;
    const currency = this.currency.data;
    const f = filter;
    const wanted = f.status;
    const now = f.now;
    const categories = f.categories;
    const ranges =
      f.priceMin !== Number.NEGATIVE_INFINITY ||
      f.priceMax !== Number.POSITIVE_INFINITY ||
      f.publishedMin !== Number.NEGATIVE_INFINITY ||
      f.publishedEnd !== Number.POSITIVE_INFINITY ||
      f.updatedMin !== Number.NEGATIVE_INFINITY;
    const rest = f.tags.length > 0 || f.radius >= 0;
    let found = 0;
    for (let k = 0; k < n; k += 1) {
      const slot = candidates ? (candidates[k] as number) : k;
      if (alive[slot] === 0) continue;
      let st = status[slot] as number;
      if (st === 0 && (expires[slot] as number) <= now) st = 1;
      if (st !== wanted) continue;
      if (categories !== null && categories[category[slot] as number] !== 1) continue;
      if (f.city !== ANY && city[slot] !== f.city) continue;
      if (f.country !== ANY && country[slot] !== f.country) continue;
      if (f.currency !== ANY && currency[slot] !== f.currency) continue;
      if (ranges) {
        const p = price[slot] as number;
        if (p < f.priceMin || p > f.priceMax) continue;
        const t = published[slot] as number;
        if (t < f.publishedMin || t >= f.publishedEnd) continue;
        if ((updated[slot] as number) < f.updatedMin) continue;
      }
      if (rest && !this.passesFilters(slot, filter)) continue;
      if (checkText && !this.textHolds(slot, plan)) continue;
      out[found++] = slot;
    }
    return out.subarray(0, found);
  }

  private sortValues(query: EngineQuery, matches: Int32Array, primary: Float64Array): void {
    const column =
      query.sort === 'price' || query.sort === '-price'
        ? this.price.data
        : query.sort === 'distance'
          ? null
          : this.publishedAt.data;
    if (column) {
      for (let i = 0; i < matches.length; i += 1) primary[i] = column[matches[i] as number] as number;
      return;
    }
    const near = query.near ?? { lat: 0, lon: 0 };
    const point = { lat: 0, lon: 0 };
    for (let i = 0; i < matches.length; i += 1) {
      const slot = matches[i] as number;
      point.lat = this.lat.data[slot] as number;
      point.lon = this.lon.data[slot] as number;
      primary[i] = distanceKm(near, point);
    }
  }
  /** The query's filters resolved to column values; null when some value is held by no offer. */
  private compileFilter(q: EngineQuery): Filter | null {
    const id = (table: Interned, value: string | null) =>
      value === null ? ANY : (table.ids.get(value) ?? NONE);
    const city = id(this.cities, q.city);
    const country = id(this.countries, q.country);
    const currency = id(this.currencies, q.currency);
    const tags = q.tags.map((t) => this.tags.ids.get(t) ?? NONE);
    if (city === NONE || country === NONE || currency === NONE || tags.includes(NONE)) return null;
    let categories: Uint8Array | null = null;
    if (q.categories.length > 0) {
      categories = new Uint8Array(this.categories.values.length);
      for (const c of q.categories) {
        const cid = this.categories.ids.get(c);
        if (cid !== undefined) categories[cid] = 1;
      }
    }
    const radius = q.near !== null && q.radiusKm !== null ? q.radiusKm : -1;
    return {
      status: STATUS_CODE[q.status],
      now: q.now,
      categories,
      tags,
      city,
      country,
      currency,
      priceMin: q.priceMin ?? Number.NEGATIVE_INFINITY,
      priceMax: q.priceMax ?? Number.POSITIVE_INFINITY,
      publishedMin: q.publishedAfter ?? Number.NEGATIVE_INFINITY,
      publishedEnd: q.publishedBefore ?? Number.POSITIVE_INFINITY,
      updatedMin: q.updatedSince ?? Number.NEGATIVE_INFINITY,
      near: q.near ?? { lat: 0, lon: 0 },
      radius,
      // Great-circle distance is at least the latitude difference (as an arc): a cheap first test.
      latitudeBand: radius < 0 ? 0 : (radius * (1 + 1e-9) + 1e-6) / (EARTH_RADIUS_KM * DEGREE),
      point: { lat: 0, lon: 0 },
    };
  }

  private passesFilters(slot: number, f: Filter): boolean {
    let status = this.status.data[slot] as number;
    if (status === 0 && (this.expiresAt.data[slot] as number) <= f.now) status = 1;
    if (status !== f.status) return false;
    if (f.categories !== null && f.categories[this.category.data[slot] as number] !== 1) return false;
    if (f.city !== ANY && this.city.data[slot] !== f.city) return false;
    if (f.country !== ANY && this.country.data[slot] !== f.country) return false;
    if (f.currency !== ANY && this.currency.data[slot] !== f.currency) return false;
    const price = this.price.data[slot] as number;
    if (price < f.priceMin || price > f.priceMax) return false;
    const published = this.publishedAt.data[slot] as number;
    if (published < f.publishedMin || published >= f.publishedEnd) return false;
    if ((this.updatedAt.data[slot] as number) < f.updatedMin) return false;
    if (f.tags.length > 0) {
      const from = this.tagOffsets.data[slot] as number;
      const to = this.tagOffsets.data[slot + 1] as number;
      for (const tag of f.tags) {
        let found = false;
        for (let p = from; p < to && !found; p += 1) found = this.tagIds.data[p] === tag;
        if (!found) return false;
      }
    }
    if (f.radius >= 0) {
      const lat = this.lat.data[slot] as number;
      if (Math.abs(lat - f.near.lat) > f.latitudeBand) return false;
      f.point.lat = lat;
      f.point.lon = this.lon.data[slot] as number;
      if (distanceKm(f.near, f.point) > f.radius) return false;
    }
    return true;
  }

  /** Slots holding a stem of every unit and every phrase word, ascending; null when the text has none. */
  private textCandidates(plan: Plan): Int32Array | null {
    const lists: Int32Array[] = [];
    for (const unit of plan.units) {
      const parts: Int32Array[] = [];
      for (const s of unit.costs.keys()) parts.push((this.dict.postings[s] as GrowableInt32).view());
      lists.push(union(parts));
    }
    for (const phrase of plan.phrases)
      for (const s of phrase) lists.push((this.dict.postings[s] as GrowableInt32).view());
    if (lists.length === 0) return null;
    lists.sort((a, b) => a.length - b.length);
    let out = lists[0] as Int32Array;
    for (let i = 1; i < lists.length && out.length > 0; i += 1) out = intersect(out, lists[i] as Int32Array);
    return out;
  }

  /** Phrases present and exclusions absent in the slot's words. */
  private textHolds(slot: number, plan: Plan): boolean {
    const text = this.text.data;
    const wordStem = this.dict.wordStem.data;
    const start = this.textOffsets.data[2 * slot] as number;
    const middle = this.textOffsets.data[2 * slot + 1] as number;
    const end = this.textOffsets.data[2 * slot + 2] as number;
    for (const sequence of plan.excluded) {
      if (
        hasSequence(text, wordStem, start, middle, sequence) ||
        hasSequence(text, wordStem, middle, end, sequence)
      )
        return false;
    }
    for (const sequence of plan.phrases) {
      if (!hasSequence(text, wordStem, start, end, sequence, middle)) return false;
    }
    return true;
  }

  /** Whether every phrase is in the title (for the attribute rule). */
  private phrasesInTitle(slot: number, plan: Plan): boolean {
    const start = this.textOffsets.data[2 * slot] as number;
    const middle = this.textOffsets.data[2 * slot + 1] as number;
    for (const sequence of plan.phrases)
      if (!hasSequence(this.text.data, this.dict.wordStem.data, start, middle, sequence)) return false;
    return true;
  }

  /** The packed relevance tuple of every match. */
  private rank(plan: Plan, matches: Int32Array, primary: Float64Array): void {
    this.rankStamp = -1;
    if (plan.scan) {
      const bits = this.stemBits;
      for (const [s, b] of plan.unitsOfStem) bits[s] = b;
      for (let i = 0; i < matches.length; i += 1) primary[i] = this.scanRank(matches[i] as number, plan);
      for (const s of plan.unitsOfStem.keys()) bits[s] = 0;
      return;
    }
    // One unit: its typo count, title presence and exactness per offer come from the posting
    // lists of its stems and their info bytes, without reading the offers' words.
    const unit = plan.units[0] as Unit;
    const stamp = this.nextStamp();
    const mark = this.mark;
    const seen = this.unitMark;
    const best = this.unitBest;
    const flags = this.unitFlags;
    for (let i = 0; i < matches.length; i += 1) mark[matches[i] as number] = stamp;
    for (const [s, cost] of unit.costs) {
      const slots = (this.dict.postings[s] as GrowableInt32).data;
      const info = (this.dict.postingInfo[s] as GrowableUint8).data;
      const length = (this.dict.postings[s] as GrowableInt32).length;
      const exactBit = s === unit.ownStem ? unit.exactBit : 0;
      for (let k = 0; k < length; k += 1) {
        const slot = slots[k] as number;
        if (mark[slot] !== stamp) continue;
        const byte = info[k] as number;
        const f = (byte & TITLE_BIT ? 1 : 0) | (byte & exactBit ? 2 : 0);
        if (seen[slot] !== stamp) {
          seen[slot] = stamp;
          best[slot] = cost;
          flags[slot] = f;
        } else {
          if (cost < (best[slot] as number)) best[slot] = cost;
          flags[slot] = (flags[slot] as number) | f;
        }
      }
    }
    const phrases = plan.phrases.length > 0;
    // Also per slot, with the count of each rank class (typos, attribute, inexact), for bucketPage.
    const slotRank = this.slotRank;
    const classes = this.rankClasses;
    classes.fill(0);
    let classed = true;
    for (let i = 0; i < matches.length; i += 1) {
      const slot = matches[i] as number;
      const f = flags[slot] as number;
      const titleAlone = (f & 1) !== 0 && (!phrases || this.phrasesInTitle(slot, plan));
      const typos = best[slot] as number;
      const attribute = titleAlone ? 0 : 1;
      const inexact = f & 2 ? 0 : 1;
      const rank = packRank(typos, 0, attribute, inexact);
      primary[i] = rank;
      slotRank[slot] = rank;
      const c = typos * 4 + attribute * 2 + inexact;
      if (c < classes.length) classes[c] = (classes[c] as number) + 1;
      else classed = false;
    }
    this.rankStamp = classed ? stamp : -1;
  }

  /**
   * sort=relevance, one unit, after rank(): the page from one rank class, when it holds the whole
   * page. Within a class the order is newest first, then id descending: the precomputed
   * publishedAt order walked backwards, testing membership (the rank's stamp) and class. Null
   * (the caller passes over every match) when the class may hold less than the page after the
   * cursor, or the walk is expected to be longer than that pass.
   */
  private bucketPage(
    count: number,
    after: Position | null,
    limit: number,
  ): { slots: number[]; more: boolean; rank: number } | null {
    const stamp = this.rankStamp;
    if (stamp < 0 || count === 0) return null;
    const classes = this.rankClasses;
    let c = -1;
    if (after === null) {
      c = classes.findIndex((n) => n > 0);
    } else {
      for (let x = 0; x < classes.length && c < 0; x += 1)
        if ((classes[x] as number) > 0 && classRank(x) === after.primary) c = x;
    }
    if (c < 0) return null;
    const members = classes[c] as number;
    const k = limit + 1;
    if (after === null && members < k) return null;
    const size = this.ids.length;
    const expected = (k * size) / members;
    if (expected > count) return null;
    const rank = classRank(c);
    const mark = this.mark;
    const slotRank = this.slotRank;
    const slots = this.byPublished.walk(
      size,
      true,
      after ? { value: after.published, id: after.id } : null,
      (slot) => mark[slot] === stamp && slotRank[slot] === rank,
      k,
      after === null ? Number.POSITIVE_INFINITY : 4 * expected + 64,
    );
    // Fewer than the page after the cursor in this class: the next classes are needed.
    if (slots === null || slots.length < k) return null;
    slots.length = limit;
    return { slots, more: true, rank };
  }

  /** The packed relevance tuple of one offer, from its words (typos, proximity, attribute, inexact). */
  private scanRank(slot: number, plan: Plan): number {
    const text = this.text.data;
    const wordStem = this.dict.wordStem.data;
    const stemBits = this.stemBits;
    const start = this.textOffsets.data[2 * slot] as number;
    const middle = this.textOffsets.data[2 * slot + 1] as number;
    const end = this.textOffsets.data[2 * slot + 2] as number;
    const units = plan.units;
    const n = units.length;
    const best = plan.scratchBest;
    const exact = plan.scratchExact;
    const inTitle = plan.scratchTitle;
    const pair = plan.scratchPair;
    const last = plan.scratchLast;
    best.fill(255);
    exact.fill(0);
    inTitle.fill(0);
    pair.fill(PROXIMITY_CAP);
    for (let field = 0; field < 2; field += 1) {
      const from = field === 0 ? start : middle;
      const to = field === 0 ? middle : end;
      last.fill(-1);
      for (let p = from; p < to; p += 1) {
        const w = text[p] as number;
        const s = wordStem[w] as number;
        const bits = stemBits[s] as number;
        if (bits === 0) continue;
        for (let u = 0; u < n; u += 1) {
          if ((bits & (1 << u)) === 0) continue;
          const unit = units[u] as Unit;
          const c = unit.costs.get(s) as number;
          if (c < (best[u] as number)) best[u] = c;
          if (w === unit.wordId) exact[u] = 1;
          if (field === 0) inTitle[u] = 1;
        }
        for (let u = 0; u + 1 < n; u += 1) {
          const a = (bits & (1 << u)) !== 0;
          const b = (bits & (1 << (u + 1))) !== 0;
          if (!a && !b) continue;
          let g = PROXIMITY_CAP;
          if (a && b) g = 1;
          if (b && (last[u] as number) >= 0) g = Math.min(g, p - (last[u] as number));
          if (a && (last[u + 1] as number) >= 0) g = Math.min(g, p - (last[u + 1] as number) + 1);
          if (g < (pair[u] as number)) pair[u] = g;
        }
        for (let u = 0; u < n; u += 1) if ((bits & (1 << u)) !== 0) last[u] = p;
      }
    }
    let typos = 0;
    let inexact = 0;
    let proximity = 0;
    let titleAlone = plan.phrases.length === 0 || this.phrasesInTitle(slot, plan);
    for (let u = 0; u < n; u += 1) {
      typos += best[u] as number;
      if (exact[u] === 0) inexact += 1;
      if (inTitle[u] === 0) titleAlone = false;
      if (u + 1 < n) proximity += pair[u] as number;
    }
    return packRank(typos, proximity, titleAlone ? 0 : 1, inexact);
  }

  /** Every requested facet counted in one pass over the matches (local arrays, no per-match allocation). */
  private facets(matches: Int32Array, names: readonly FacetName[]): Facets {
    const counter = (wanted: FacetName, size: number) =>
      names.includes(wanted) ? new Int32Array(size) : null;
    const categoryCounts = counter('category', this.categories.values.length);
    const cityCounts = counter('city', this.cities.values.length);
    const countryCounts = counter('country', this.countries.values.length);
    const tagCounts = counter('tag', this.tags.values.length);
    if (categoryCounts || cityCounts || countryCounts || tagCounts) {
      const category = this.category.data;
      const city = this.city.data;
      const country = this.country.data;
      const offsets = this.tagOffsets.data;
      const tagIds = this.tagIds.data;
      const count = matches.length;
      for (let i = 0; i < count; i += 1) {
        const slot = matches[i] as number;
        if (categoryCounts !== null) {
          const v = category[slot] as number;
          categoryCounts[v] = (categoryCounts[v] as number) + 1;
        }
        if (cityCounts !== null) {
          const v = city[slot] as number;
          cityCounts[v] = (cityCounts[v] as number) + 1;
        }
        if (countryCounts !== null) {
          const v = country[slot] as number;
          countryCounts[v] = (countryCounts[v] as number) + 1;
        }
        if (tagCounts !== null) {
          const to = offsets[slot + 1] as number;
          for (let p = offsets[slot] as number; p < to; p += 1) {
            const t = tagIds[p] as number;
            tagCounts[t] = (tagCounts[t] as number) + 1;
          }
        }
      }
    }
    const out: Facets = {};
    for (const name of names) {
      if (name === 'category') out.category = topValues(categoryCounts as Int32Array, this.categories.values);
      else if (name === 'city') out.city = topValues(cityCounts as Int32Array, this.cities.values);
      else if (name === 'country')
        out.country = topValues(countryCounts as Int32Array, this.countries.values);
      else out.tag = topValues(tagCounts as Int32Array, this.tags.values);
    }
    return out;
  }
}

function emptyFacets(names: readonly FacetName[]): Facets {
  const out: Facets = {};
  for (const name of names) out[name] = [];
  return out;
}

function topValues(counts: Int32Array, values: readonly string[]) {
  const out: Array<{ value: string; count: number }> = [];
  counts.forEach((count, id) => {
    if (count > 0) out.push({ value: values[id] as string, count });
  });
  out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return out.slice(0, FACET_TOP);
}

function hasSequence(
  text: Words,
  wordStem: Int32Array,
  from: number,
  to: number,
  sequence: readonly number[],
  /** A field boundary no match may cross, or −1. */
  split = -1,
): boolean {
  const n = sequence.length;
  for (let p = from; p + n <= to; p += 1) {
    if (p < split && p + n > split) continue;
    let k = 0;
    while (k < n && wordStem[text[p + k] as number] === sequence[k]) k += 1;
    if (k === n) return true;
  }
  return false;
}

// Relevance tuple packed into one number: typos ≤ 32, proximity ≤ 128, attribute ≤ 1, inexact ≤ 16.
const PROX_RANGE = 256;
const ATTR_RANGE = 2;
const INEXACT_RANGE = 32;

function packRank(typos: number, proximity: number, attribute: number, inexact: number): number {
  return ((typos * PROX_RANGE + proximity) * ATTR_RANGE + attribute) * INEXACT_RANGE + inexact;
}

/** The packed rank of a one-unit class typos × 4 + attribute × 2 + inexact (proximity 0). */
function classRank(c: number): number {
  return packRank(c >> 2, 0, (c >> 1) & 1, c & 1);
}

function unpackRank(packed: number): number[] {
  const inexact = packed % INEXACT_RANGE;
  let rest = (packed - inexact) / INEXACT_RANGE;
  const attribute = rest % ATTR_RANGE;
  rest = (rest - attribute) / ATTR_RANGE;
  const proximity = rest % PROX_RANGE;
  const typos = (rest - proximity) / PROX_RANGE;
  return [typos, proximity, attribute, inexact];
}

/**
 * A flat copy of a string. Ids built by concatenation (offerIdFor appends character by
 * character) are trees of string pieces in V8, several times the size of the characters; the
 * index keeps a million of them.
 */
function flatString(value: string): string {
  return JSON.parse(JSON.stringify(value)) as string;
}

/** The slots of several lists, one after the other. */
function concat(parts: readonly Int32Array[]): Int32Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Int32Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function createSearchIndex(): SearchIndex {
  return new Index();
}
