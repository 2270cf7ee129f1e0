import type { Queryable, SqlValue } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { CursorValue } from './cursor.js';
import type { OfferInput } from './offer-input.js';
import type { FacetName, Offer, OfferStatus, SortOrder } from './schemas.js';
import type { AnalysedField, TextQuery } from './text.js';

/** What a search asks the store for, already validated and normalised by the service. */
export interface SearchCriteria {
  environment: Environment;
  text: TextQuery | null;
  categories: string[];
  /** Every one must be among the offer's tags. */
  tags: string[];
  /** Exact, as offers and the city facet spell it. */
  city: string | null;
  country: string | null;
  currency: string | null;
  /** In price units (see price.ts). */
  priceMin: number | null;
  priceMax: number | null;
  publishedAfter: number | null;
  publishedBefore: number | null;
  updatedSince: number | null;
  /** Centre for `radiusKm` and `sort=distance`. */
  near: { lat: number; lon: number } | null;
  radiusKm: number | null;
  status: OfferStatus;
  sort: SortOrder;
  limit: number;
  /** Sort-key values of the last offer of the previous page. */
  after: CursorValue[] | null;
  now: number;
}

export interface SearchPage {
  offers: Offer[];
  total: { value: number; relation: 'eq' | 'gte' };
  /** Sort-key values of the last offer when another page follows, else null. */
  nextKeys: CursorValue[] | null;
  facets: Facets;
}

export interface FacetCount {
  value: string;
  count: number;
}

export type Facets = Partial<Record<FacetName, FacetCount[]>>;

export interface UpsertResult {
  inserted: number;
  updated: number;
}

export interface OfferStore {
  upsertMany(environment: Environment, offers: readonly OfferInput[], now: number): Promise<UpsertResult>;
  get(environment: Environment, id: string, now: number): Promise<Offer | undefined>;
  /** A page, and counts per value of each of `facets` over the result set (paging ignored). */
  search(criteria: SearchCriteria, facets: readonly FacetName[]): Promise<SearchPage>;
  /** The query with each unknown word of 5+ letters widened to known stems one typo away. */
  resolveTypos(query: TextQuery): Promise<TextQuery>;
  count(environment: Environment): Promise<number>;
  optimize(): Promise<void>;
}

export interface Fragment {
  sql: string;
  params: SqlValue[];
}

/** The part of a store that differs between backends: how analysed text is indexed and matched. */
export interface TextIndex {
  /** SQL predicate on alias `o`: the offer matches every term of the query. */
  match(query: TextQuery): { sql: string; params: SqlValue[] };
  /**
   * Optional: a FROM clause that reads the text index first and joins offers `o` to each
   * match, with the predicate standing for `match(query)`. For reads that stop after the first
   * N matches (the bounded count, facets), so a common word costs N lookups, not a list of
   * every match. Null when the query has nothing positive to drive with.
   */
  drivingJoin?(query: TextQuery): { from: string; sql: string; params: SqlValue[] } | null;
  /**
   * Optional (SQLite): `match` and `matchTitle` as a check of each row against the text index,
   * for reads that walk a sort index and stop early, instead of first listing every match.
   */
  perRow?: { match(query: TextQuery): Fragment; matchTitle(query: TextQuery): Fragment };
  /**
   * Optional (SQLite): the indexed tokens that start with `prefix`, at most `max` (the query
   * lists `max + 1` so the caller can tell "more").
   */
  prefixTerms?(prefix: string, max: number): Fragment;
  /**
   * Optional (SQLite): the table holding every token the index holds (its prefix vocabulary,
   * read by `prefixTerms`); the store adds each batch's tokens to it.
   */
  tokenTable?: string;
  /** Optional (SQLite): counts text-index matches of the query's positive part, up to `cap`. */
  countTextMatches?(query: TextQuery, cap: number, titleOnly: boolean): Fragment | null;
  /** SQL predicate on alias `o`: the title alone matches the query (relevance tier). */
  matchTitle(query: TextQuery): { sql: string; params: SqlValue[] };
  /**
   * Writes many offer rows with their index entries in few statements (multi-row inserts);
   * the ids must be distinct. Returns, per row, true when it was inserted.
   */
  upsertBatch(
    tx: Queryable,
    rows: readonly OfferRowValues[],
    texts: readonly { title: AnalysedField; body: AnalysedField }[],
  ): Promise<boolean[]>;
  /** Writes an offer row (insert or update by id) with its index entry; true when inserted. */
  upsert(
    tx: Queryable,
    row: OfferRowValues,
    text: { title: AnalysedField; body: AnalysedField },
  ): Promise<boolean>;
}

/** Column values of one offer row, in `OFFER_WRITE_COLUMNS` order. */
export type OfferRowValues = SqlValue[];

export const OFFER_WRITE_COLUMNS = [
  'id',
  'environment',
  'external_id',
  'title',
  'description',
  'category',
  'tags',
  'city',
  'region',
  'country',
  'lat',
  'lon',
  'price_amount',
  'price_value',
  'currency',
  'publisher_id',
  'publisher_name',
  'url',
  'attributes',
  'status',
  'published_at',
  'updated_at',
  'expires_at',
] as const;

export const OFFER_READ_COLUMNS = OFFER_WRITE_COLUMNS.map((c) => `o.${c}`).join(', ');
