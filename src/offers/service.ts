import type { Queryable } from '../db/database.js';
import { type ParameterError, ProblemError } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { highlight } from '../search/analysis/highlight.js';
import { searchableNames } from '../search/attributes/values.js';
import { type EngineResult, FACET_NAMES, type FacetCount, NO_ATTRIBUTES } from '../search/engine.js';
import { formatRankBy, sortKeysOf } from '../search/rules.js';
import type { SynonymService } from '../synonyms/service.js';
import { type CursorValue, decodeCursor, encodeCursor, queryFingerprint } from './cursor.js';
import type { LiveIndexes } from './live-indexes.js';
import type { OfferInput } from './offer-input.js';
import {
  DEFAULT_FACET_VALUES_LIMIT,
  DEFAULT_LIMIT,
  type FacetValuesQuery,
  type Offer,
  type SearchHit,
  type SearchQuery,
} from './schemas.js';
import type { SearchCache } from './search-cache.js';
import { normaliseSearch } from './search-query.js';
import type { Facets, OfferStore, UpsertResult } from './store.js';

export interface SearchAnswer {
  ok: true;
  offers: SearchHit[];
  total: { value: number; relation: 'eq' };
  facets: Facets;
  facetStats?: EngineResult['facetStats'];
  nextCursor: string | null;
}

export type SearchOutcome = SearchAnswer | { ok: false; errors: ParameterError[] };

export type FacetValuesOutcome =
  | { ok: true; facet: string; values: FacetCount[] }
  | { ok: false; errors: ParameterError[] };

export interface OfferService {
  search(environment: Environment, query: SearchQuery): Promise<SearchOutcome>;
  /** Facet-value search: the values of one facet within a search's results (not cached). */
  facetValues(environment: Environment, query: FacetValuesQuery): Promise<FacetValuesOutcome>;
  get(environment: Environment, id: string): Promise<Offer | undefined>;
  upsertMany(environment: Environment, offers: readonly OfferInput[]): Promise<UpsertResult>;
  /** One offer and `alsoWrite` in one transaction (OfferStore.upsertOne). */
  upsertOne(
    environment: Environment,
    offer: OfferInput,
    alsoWrite: (tx: Queryable) => Promise<void>,
  ): Promise<UpsertResult>;
  count(environment: Environment): Promise<number>;
  /** Refreshes the database's planner statistics after bulk writes. */
  optimize(): Promise<void>;
}

/** How recently the index must have caught up with the database for a cached answer to be used. */
const CACHE_CURRENT_MS = 1_000;

/** A rough size of an answer in memory (UTF-16 strings, a few hundred bytes of structure per offer). */
export function answerBytes(answer: SearchAnswer): number {
  let bytes = 512;
  for (const offer of answer.offers) {
    bytes += 600 + 2 * (offer.title.length + offer.description.length);
    bytes += 2 * JSON.stringify(offer.attributes).length;
    if ('highlight' in offer) bytes += 2 * JSON.stringify(offer.highlight).length;
  }
  for (const values of Object.values(answer.facets)) bytes += 64 * (values?.length ?? 0);
  return bytes;
}

const NO_SYNONYMS = { version: 0, rules: [] } as const;

const notReady = (environment: Environment) =>
  new ProblemError('unavailable', `The ${environment} search index is being built; retry shortly.`, {
    headers: { 'retry-after': '1' },
  });

export function createOfferService(deps: {
  store: OfferStore;
  clock: Clock;
  /** Signs cursors (cursor.ts `cursorKeyFrom`): the same on every instance. */
  cursorKey: Buffer;
  /** The in-memory search index of each served environment (issue 12). */
  indexes: Pick<LiveIndexes, 'get'>;
  /**
   * After each committed write, before the write call returns: this process's search index
   * applies it (a process reads its own writes), and other processes are told (change bus).
   */
  onWritten?: (environment: Environment) => Promise<void>;
  /** The environment's synonyms (issue 23); none: no synonyms. */
  synonyms?: Pick<SynonymService, 'current'>;
  /** Recent answers while still exact (search-cache.ts, ADR 0025); none: every search is computed. */
  cache?: SearchCache<SearchAnswer>;
}): OfferService {
  return {
    async search(environment, query) {
      const errors: ParameterError[] = [];
      // Checked against the declarations of the index that answers (a re-index may be under way).
      const live = deps.indexes.get(environment);
      const schema = live?.index.schema ?? NO_ATTRIBUTES;
      const { normalised, text, sort, facets } = normaliseSearch(environment, query, schema, errors);
      const fingerprint = queryFingerprint(normalised);
      // Relevance pages are ordered by the index's tie-break too (its cursor keys carry it).
      const rankBy = schema.rankBy ?? null;
      const ranking =
        sort === 'relevance' && rankBy && schema.attributes.some((a) => a.name === rankBy.name)
          ? rankBy
          : null;
      let after: CursorValue[] | null = null;
      if (query.cursor !== undefined) {
        const decoded = decodeCursor(
          deps.cursorKey,
          query.cursor,
          fingerprint,
          sortKeysOf(sort, ranking).length,
          ranking ? formatRankBy(ranking) : null,
        );
        if (decoded.ok) after = decoded.keys;
        else errors.push({ parameter: 'cursor', message: decoded.message });
      }
      if (errors.length > 0) return { ok: false, errors };
      // Only punctuation or stop words: nothing can match, say so plainly instead of guessing.
      if (query.q !== undefined && text === null) {
        const empty = Object.fromEntries(facets.map((f) => [f, []]));
        return { ok: true, offers: [], total: { value: 0, relation: 'eq' }, facets: empty, nextCursor: null };
      }
      if (!live?.ready) throw notReady(environment);
      const now = deps.clock.now();
      const limit = query.limit ?? DEFAULT_LIMIT;
      // Everything the answer depends on besides the index and `now`.
      const synonyms = deps.synonyms ? await deps.synonyms.current(environment) : NO_SYNONYMS;
      const cacheKey = deps.cache
        ? JSON.stringify([
            normalised,
            live.schemaVersion,
            limit,
            query.cursor ?? null,
            facets,
            query.highlight === true,
            synonyms.version,
          ])
        : '';
      const version = live.version;
      // Only while the index is known to keep up with the database (another process's
      // write is searchable within a second): a process cut off from it reads rows and says so.
      const current = performance.now() - live.checkedAt <= CACHE_CURRENT_MS;
      const cached = current ? deps.cache?.get(environment, cacheKey, version, now) : undefined;
      if (cached) return cached;
      const { environment: _environment, q: _q, ...filters } = normalised;
      const result = live.index.search(
        { ...filters, text, synonyms: synonyms.rules, limit, after, now },
        facets,
      );
      // The page's rows in one statement, in the engine's order.
      const page = await deps.store.getMany(environment, result.ids, now);
      const offers: SearchHit[] =
        query.highlight === true && text
          ? page.map((offer) => ({
              ...offer,
              highlight: highlight(offer, text, result.matchedStems, searchableNames(schema.attributes)),
            }))
          : page;
      const answer: SearchAnswer = {
        ok: true,
        offers,
        total: { value: result.total, relation: 'eq' },
        facets: result.facets,
        ...(result.facetStats ? { facetStats: result.facetStats } : {}),
        nextCursor: result.nextKeys
          ? encodeCursor(deps.cursorKey, fingerprint, result.nextKeys, ranking ? formatRankBy(ranking) : null)
          : null,
      };
      // Kept only if the index did not change while the rows were read (another write's catch-up).
      if (deps.cache && current && live.version === version) {
        deps.cache.set(environment, cacheKey, {
          value: answer,
          version,
          computedAt: now,
          validUntil: live.index.statusChangeAfter(now),
        });
      }
      return answer;
    },
    async facetValues(environment, query) {
      const errors: ParameterError[] = [];
      const live = deps.indexes.get(environment);
      const schema = live?.index.schema ?? NO_ATTRIBUTES;
      const { normalised, text } = normaliseSearch(environment, query, schema, errors);
      const facet = query.facet as (typeof FACET_NAMES)[number] | `attr.${string}`;
      const declared = schema.attributes.find((a) => `attr.${a.name}` === facet);
      if (!FACET_NAMES.includes(facet as (typeof FACET_NAMES)[number]) && !declared?.facet)
        errors.push({ parameter: 'facet', message: `${facet} is not a declared --facet attribute` });
      if (errors.length > 0) return { ok: false, errors };
      if (query.q !== undefined && text === null) return { ok: true, facet, values: [] };
      if (!live?.ready) throw notReady(environment);
      const synonyms = deps.synonyms ? await deps.synonyms.current(environment) : NO_SYNONYMS;
      const { environment: _environment, q: _q, ...filters } = normalised;
      const limit = query.limit ?? DEFAULT_FACET_VALUES_LIMIT;
      const engineQuery = {
        ...filters,
        text,
        synonyms: synonyms.rules,
        limit,
        after: null,
        now: deps.clock.now(),
      };
      return {
        ok: true,
        facet,
        values: live.index.facetValues(engineQuery, facet, query.prefix ?? '', limit),
      };
    },
    get: (environment, id) => deps.store.get(environment, id, deps.clock.now()),
    async upsertMany(environment, offers) {
      const result = await deps.store.upsertMany(environment, offers, deps.clock.now());
      await deps.onWritten?.(environment);
      return result;
    },
    async upsertOne(environment, offer, alsoWrite) {
      const result = await deps.store.upsertOne(environment, offer, deps.clock.now(), alsoWrite);
      await deps.onWritten?.(environment);
      return result;
    },
    count: (environment) => deps.store.count(environment),
    optimize: () => deps.store.optimize(),
  };
}
