import type { ParameterError } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { type CursorValue, decodeCursor, encodeCursor, queryFingerprint } from './cursor.js';
import type { OfferInput } from './offer-input.js';
import { priceToUnits } from './price.js';
import { DEFAULT_LIMIT, type Offer, type SearchQuery, type SortOrder } from './schemas.js';
import { SORT_KEYS } from './search-sql.js';
import type { OfferStore, SearchCriteria, UpsertResult } from './store.js';
import { parseTextQuery } from './text.js';

export type SearchOutcome =
  | {
      ok: true;
      offers: Offer[];
      total: { value: number; relation: 'eq' | 'gte' };
      nextCursor: string | null;
    }
  | { ok: false; errors: ParameterError[] };

export interface OfferService {
  search(environment: Environment, query: SearchQuery): Promise<SearchOutcome>;
  get(environment: Environment, id: string): Promise<Offer | undefined>;
  upsertMany(environment: Environment, offers: readonly OfferInput[]): Promise<UpsertResult>;
  count(environment: Environment): Promise<number>;
}

const upper = (value: string | undefined) => (value === undefined ? null : value.toUpperCase());
const time = (value: string | undefined) => (value === undefined ? null : Date.parse(value));

export function createOfferService(deps: { store: OfferStore; clock: Clock }): OfferService {
  return {
    async search(environment, query) {
      const errors: ParameterError[] = [];
      const text = query.q === undefined ? null : parseTextQuery(query.q);
      const sort: SortOrder = query.sort ?? (query.q !== undefined ? 'relevance' : '-publishedAt');
      if (sort === 'relevance' && query.q === undefined) {
        errors.push({ parameter: 'sort', message: 'relevance needs a q to rank by' });
      }
      const priceMin = query.priceMin === undefined ? null : priceToUnits(query.priceMin);
      const priceMax = query.priceMax === undefined ? null : priceToUnits(query.priceMax);
      if (priceMin !== null && priceMax !== null && priceMin > priceMax) {
        errors.push({ parameter: 'priceMin', message: 'must not be greater than priceMax' });
      }
      // Everything that decides the result set and its order; `limit` may change between pages.
      const normalised = {
        environment,
        q: query.q ?? null,
        categories: [...new Set(query.category ?? [])].sort(),
        country: upper(query.country),
        currency: upper(query.currency),
        priceMin,
        priceMax,
        publishedAfter: time(query.publishedAfter),
        publishedBefore: time(query.publishedBefore),
        updatedSince: time(query.updatedSince),
        status: query.status ?? 'active',
        sort,
      };
      const fingerprint = queryFingerprint(normalised);
      let after: CursorValue[] | null = null;
      if (query.cursor !== undefined) {
        const decoded = decodeCursor(query.cursor, fingerprint, SORT_KEYS[sort].length);
        if (decoded.ok) after = decoded.keys;
        else errors.push({ parameter: 'cursor', message: decoded.message });
      }
      if (errors.length > 0) return { ok: false, errors };
      // Only punctuation or stop words: nothing can match, say so plainly instead of guessing.
      if (query.q !== undefined && text === null) {
        return { ok: true, offers: [], total: { value: 0, relation: 'eq' }, nextCursor: null };
      }
      const criteria: SearchCriteria = {
        ...normalised,
        text,
        limit: query.limit ?? DEFAULT_LIMIT,
        after,
        now: deps.clock.now(),
      };
      const page = await deps.store.search(criteria);
      return {
        ok: true,
        offers: page.offers,
        total: page.total,
        nextCursor: page.nextKeys ? encodeCursor(fingerprint, page.nextKeys) : null,
      };
    },
    get: (environment, id) => deps.store.get(environment, id, deps.clock.now()),
    upsertMany: (environment, offers) => deps.store.upsertMany(environment, offers, deps.clock.now()),
    count: (environment) => deps.store.count(environment),
  };
}
