import type { TextQuery } from './analysis/text.js';

/**
 * The in-memory search engine's contract (issue 12). The database stays the system of record;
 * every serving process holds one `SearchIndex` per environment, built from the rows at start
 * and kept current by applying changed offers in change-sequence order. Nothing here knows SQL.
 */

import type { SortOrder } from './rules.js';
import type { BoundingBox } from './sets/geo.js';

export { SORTS, type SortOrder } from './rules.js';
export const STATUSES = ['active', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof STATUSES)[number];
/** The fields the engine counts values of (the API's `facets`). */
export const FACET_NAMES = ['category', 'tag', 'city', 'country'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

export interface FacetCount {
  value: string;
  count: number;
}

/** Built-in facet fields by name; a declared attribute's as `attr.NAME`. */
export type Facets = Partial<Record<FacetName, FacetCount[]>> & {
  [attribute: `attr.${string}`]: FacetCount[];
};

/** What a facet request may name: a built-in field, `price` (stats only) or a declared attribute. */
export type FacetRequest = FacetName | 'price' | `attr.${string}`;

/** Over the whole result set, the offers having a value (a range slider's bounds). */
export interface FacetStats {
  min: number;
  max: number;
  avg: number;
  sum: number;
  count: number;
}

/** `sort`: a built-in order, or a `--sort` attribute ascending / descending (offers without it last). */
export type EngineSort = SortOrder | `attr.${string}` | `-attr.${string}`;

export const ATTRIBUTE_TYPES = ['string', 'number', 'boolean'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** An attribute the operator declared for an environment: what search knows of `attributes.NAME`. */
export interface AttributeDeclaration {
  name: string;
  type: AttributeType;
  /** `facets=attr.NAME` counts its values (and, for numbers, carries stats). */
  facet: boolean;
  /** `sort=attr.NAME` / `sort=-attr.NAME`. */
  sort: boolean;
  /** `q` matches its (string) values. */
  searchable: boolean;
}

/**
 * The ranking tie-break (`vitrine settings set --rank-by attr.NAME:desc`): a declared `--sort`
 * number attribute ordering the matches the text rules leave tied, before the newest.
 */
export interface RankBy {
  name: string;
  descending: boolean;
}

/** The declarations an index is built with: a change builds a new index. */
export interface SearchSchema {
  attributes: readonly AttributeDeclaration[];
  /** The tie-break after the text rules (absent or null: newest first, then id). */
  rankBy?: RankBy | null;
}

/** An environment with no declared attribute. */
export const NO_ATTRIBUTES: SearchSchema = { attributes: [] };

/**
 * `attr.NAME=V` (any of `values`) and `attr.NAME.min` / `.max` (inclusive), the values as the
 * index holds them: numbers as numbers, strings folded like text, booleans as 1 / 0.
 */
export interface AttributeFilter {
  name: string;
  values: readonly (number | string)[];
  min: number | null;
  max: number | null;
}

/** One sort-key value of a cursor (the API's cursors carry them, signed: offers/cursor.ts). */
export type CursorValue = string | number;

/** One offer as the engine indexes it: what a search filters, sorts, ranks and facets on. */
export interface IndexDocument {
  /** `off_…`, the offer id; the engine answers ids, the caller reads the rows. */
  id: string;
  title: string;
  description: string;
  category: string;
  tags: readonly string[];
  city: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** ISO 4217, upper case. */
  currency: string;
  /** The publisher's id (`distinct=publisher` keeps one offer per value). */
  publisher: string;
  /** Price in units of 1/10 000 (offers/price.ts `priceToUnits`). */
  price: number;
  lat: number;
  lon: number;
  /** The stored status; `active` past `expiresAt` counts as `expired` at query time. */
  status: OfferStatus;
  /** The offer's free attributes: the declared ones are indexed (absent: none). */
  attributes?: Readonly<Record<string, unknown>>;
  /** Epoch milliseconds. */
  publishedAt: number;
  updatedAt: number;
  expiresAt: number | null;
}

/**
 * When a query word may match words a few edits away (docs/search.md, typo tolerance): `auto`
 * only a word the index does not hold as typed (its word or its stem), and every word when the
 * query then matches nothing; `all` every word; `off` none. Numbers never.
 */
export type TypoTolerance = 'auto' | 'all' | 'off';

/**
 * A synonym rule of an environment (query/synonyms.ts): its words find each other (multi-way) or
 * its first word finds the others (one-way); a word may be several words.
 */
export interface SynonymRule {
  oneWay: boolean;
  /** As the operator wrote them. */
  words: readonly string[];
}

/** What `distinct` may name: one offer per value of that field is kept (answer/distinct.ts). */
export const DISTINCT_FIELDS = ['publisher'] as const;
export type DistinctField = (typeof DISTINCT_FIELDS)[number];

/** A validated, normalised search (offers/service.ts builds it). */
export interface EngineQuery {
  text: TextQuery | null;
  typoTolerance: TypoTolerance;
  /** The environment's synonyms (synonyms.ts); the same array while they do not change. */
  synonyms: readonly SynonymRule[];
  /** Any of. */
  categories: readonly string[];
  /** Every one of. */
  tags: readonly string[];
  city: string | null;
  country: string | null;
  currency: string | null;
  /** Price units, inclusive. */
  priceMin: number | null;
  priceMax: number | null;
  /** Inclusive / exclusive / inclusive, epoch ms. */
  publishedAfter: number | null;
  publishedBefore: number | null;
  updatedSince: number | null;
  near: { lat: number; lon: number } | null;
  radiusKm: number | null;
  /** A map window (sets/geo.ts); optional so that a query without one can leave it out. */
  bbox?: BoundingBox | null;
  status: OfferStatus;
  /** Declared attributes' filters, every one must hold. */
  attributes: readonly AttributeFilter[];
  sort: EngineSort;
  /**
   * Keep only the first match of each value of this field in the query's order (the total, the
   * pages and the cursors then count and walk those; the facets count every match). Optional so
   * that a query without it can leave it out.
   */
  distinct?: DistinctField | null;
  limit: number;
  /** Sort-key values of the last offer of the previous page (`nextKeys` of that page). */
  after: readonly CursorValue[] | null;
  /** Epoch ms, for the effective status of offers past `expiresAt`. */
  now: number;
}

export interface EngineResult {
  /** The page, in order. */
  ids: string[];
  /** Exact, at any size. */
  total: number;
  /** Exact counts over the whole result set, top `FACET_TOP` per field. */
  facets: Facets;
  /** For `price` and number attributes among the facets asked for. */
  facetStats?: Record<string, FacetStats>;
  /** Sort-key values of the page's last offer when another page follows, else null. */
  nextKeys: CursorValue[] | null;
  /**
   * With `q`: every indexed stem a query word or the prefix matched (typo-corrected and prefix
   * completions included), so `highlight` can mark what was found, not only what was typed.
   */
  matchedStems?: readonly string[];
}

export interface SearchIndex {
  /** Adds or replaces the offer with this id. */
  upsert(doc: IndexDocument): void;
  /** Forgets the offer (no-op when unknown). */
  remove(id: string): void;
  search(query: EngineQuery, facets: readonly FacetRequest[]): EngineResult;
  /**
   * Facet-value search: the values of `facet` over the whole result set of `query` (its page
   * and cursor aside) that start with `prefix` (both folded like text; empty: every value),
   * exact counts, most frequent first (ties by value), at most `limit`.
   */
  facetValues(
    query: EngineQuery,
    facet: FacetName | `attr.${string}`,
    prefix: string,
    limit: number,
  ): FacetCount[];
  /** The declarations it was built with. */
  readonly schema: SearchSchema;
  /** Offers held. */
  readonly size: number;
  /**
   * Bumped by every upsert and removal: an answer computed at one version stays right while the
   * version is unchanged and `now` stays before `statusChangeAfter` (the search cache, ADR 0025).
   */
  readonly version: number;
  /** The first moment after `now` at which a live offer stored active starts to count as expired (+∞: none). */
  statusChangeAfter(now: number): number;
  /** Gives back spare capacity after a bulk load (optional: an index may have none). */
  compact?(): void;
  /**
   * The end of a bulk load, before the index serves (optional): whatever the first queries
   * would otherwise build lazily is built now, and spare capacity given back.
   */
  finishBuild?(): void;
  /**
   * Does ahead of the first query what that query would do (optional): the set of offers past
   * their expiry at `now`, the price ranges' unions, the dictionary's sorted keys.
   */
  warm?(now: number): void;
}
