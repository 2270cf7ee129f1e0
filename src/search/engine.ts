import type { CursorValue } from '../offers/cursor.js';
import type { FacetName, OfferStatus, SortOrder } from '../offers/schemas.js';
import type { Facets } from '../offers/store.js';
import type { TextQuery } from '../offers/text.js';
import type { SynonymRule } from './synonyms.js';

/**
 * The in-memory search engine's contract (issue 12). The database stays the system of record;
 * every serving process holds one `SearchIndex` per environment, built from the rows at start
 * and kept current by applying changed offers in change-sequence order. Nothing here knows SQL.
 */

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
  /** Price in units of 1/10 000 (offers/price.ts `priceToUnits`). */
  price: number;
  lat: number;
  lon: number;
  /** The stored status; `active` past `expiresAt` counts as `expired` at query time. */
  status: OfferStatus;
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

/** A validated, normalised search (offers/service.ts builds it; SPEC §6). */
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
  status: OfferStatus;
  sort: SortOrder;
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
  search(query: EngineQuery, facets: readonly FacetName[]): EngineResult;
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
