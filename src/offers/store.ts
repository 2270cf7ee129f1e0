import type { Queryable, SqlValue } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { OfferInput } from './offer-input.js';
import type { Offer, OfferStatus } from './schemas.js';

export type { FacetCount, Facets } from '../search/engine.js';

export interface UpsertResult {
  inserted: number;
  updated: number;
}

export interface OfferStore {
  upsertMany(environment: Environment, offers: readonly OfferInput[], now: number): Promise<UpsertResult>;
  /**
   * One offer, and `alsoWrite` in the same transaction: both land or neither does (an end
   * user's offer and the row that makes it theirs, issue 14).
   */
  upsertOne(
    environment: Environment,
    offer: OfferInput,
    now: number,
    alsoWrite: (tx: Queryable) => Promise<void>,
  ): Promise<UpsertResult>;
  get(environment: Environment, id: string, now: number): Promise<Offer | undefined>;
  count(environment: Environment): Promise<number>;
  optimize(): Promise<void>;
  /** Offers by id, in the order asked (ids not found are left out): one statement per 500 ids. */
  getMany(environment: Environment, ids: readonly string[], now: number): Promise<Offer[]>;
  /** The environment's change sequence: the `change_seq` of its latest committed offer write. */
  changeSeq(environment: Environment): Promise<number>;
  /** What the search index holds of each offer, in `seq` order after `afterSeq` (paged start-up read). */
  scan(environment: Environment, afterSeq: number, limit: number): Promise<IndexRow[]>;
  /**
   * Offers written after change `from` up to `to` (inclusive), in (change_seq, id) order,
   * after `after` when given; at most `limit`.
   */
  changes(
    environment: Environment,
    range: { from: number; to: number; after: { changeSeq: number; id: string } | null },
    limit: number,
  ): Promise<IndexRow[]>;
}

/** The columns the search index reads (no display-only text such as the URL). */
export interface IndexRow {
  seq: number;
  change_seq: number;
  id: string;
  title: string;
  description: string;
  category: string;
  /** JSON array. */
  tags: string;
  city: string;
  country: string;
  currency: string;
  price_value: number;
  lat: number;
  lon: number;
  status: OfferStatus;
  published_at: number;
  updated_at: number;
  expires_at: number | null;
  /** The publisher's id (`distinct=publisher`). */
  publisher_id: string;
  /** JSON object: the declared attributes are indexed (ADR 0029). */
  attributes: string;
}

export const INDEX_READ_COLUMNS =
  'seq, change_seq, id, title, description, category, tags, city, country, currency, price_value, lat, lon, status, published_at, updated_at, expires_at, publisher_id, attributes';

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
  // Issue 16: the project whose write key sent the offer; NULL for operator imports and seeds.
  'project_id',
] as const;

export const OFFER_READ_COLUMNS = OFFER_WRITE_COLUMNS.map((c) => `o.${c}`).join(', ');
