import { join, type QueryValue, send, type TransportSettings } from './transport.js';
import type {
  FacetValuesParams,
  FacetValuesResponse,
  KeyInfo,
  MultiSearchQuery,
  MultiSearchResponse,
  Offer,
  SearchHit,
  SearchParams,
  SearchResponse,
} from './types.js';
import { type AsUserOptions, type CallOptions, VitrineUser } from './user.js';

/** Options of {@link Vitrine}. */
export interface VitrineOptions {
  /** `{base_url}` of the key's environment, e.g. `https://vitrine.example/v1`. */
  baseUrl: string;
  /** A secret key (`vk_prod_…`, servers only) or a publishable key (`vk_pub_…`, browsers). */
  apiKey: string;
  /** Defaults to the platform's `fetch`. */
  fetch?: typeof fetch;
  /** Retries after `429` (waiting `Retry-After`) and after network errors on GET; default 2. */
  maxRetries?: number;
  /** The longest `Retry-After` waited for, in ms (default 30 000); longer ones throw at once. */
  maxRetryDelayMs?: number;
}

/** The largest page the API serves: `searchAll` asks for it unless told otherwise. */
const MAX_LIMIT = 100;

/**
 * The Vitrine API client. No dependencies beyond `fetch`: Node ≥ 20 and browsers.
 *
 * @example
 * ```ts
 * import { Vitrine } from '@vitrine/client';
 *
 * const vitrine = new Vitrine({ baseUrl: 'http://localhost:8081/v1', apiKey: process.env.VITRINE_KEY! });
 * const page = await vitrine.offers.search({ q: 'road bike', priceMax: '500', facets: 'category' });
 * console.log(page.total.value, page.data.map((offer) => offer.title));
 * ```
 */
export class Vitrine {
  readonly #settings: TransportSettings;
  readonly #baseUrl: string;
  readonly #apiKey: string;

  /** Offer search and lookup. */
  readonly offers = {
    /**
     * One page of results (`GET {base_url}/offers/`): `data`, exact `total`, `facets`, `nextCursor`.
     *
     * @example
     * ```ts
     * const page = await vitrine.offers.search({ q: 'chairs', category: ['furniture'], limit: 10 });
     * const next = page.nextCursor && (await vitrine.offers.search({ q: 'chairs', category: ['furniture'], cursor: page.nextCursor }));
     * ```
     */
    search: (params: SearchParams = {}, options: CallOptions = {}): Promise<SearchResponse> =>
      this.#get<SearchResponse>('offers/', params as Record<string, QueryValue>, options),

    /**
     * Every offer of a search, following `nextCursor` page after page (100 per call unless
     * `limit` says otherwise). Stop early with `break` or the signal.
     *
     * @example
     * ```ts
     * for await (const offer of vitrine.offers.searchAll({ category: ['books'], sort: 'price' })) {
     *   console.log(offer.title, offer.price.amount);
     * }
     * ```
     */
    searchAll: (params: SearchParams = {}, options: CallOptions = {}): AsyncIterable<SearchHit> => {
      const search = this.offers.search;
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: string | null | undefined = params.cursor;
          do {
            const page = await search(
              { ...params, limit: params.limit ?? MAX_LIMIT, ...(cursor ? { cursor } : {}) },
              options,
            );
            yield* page.data;
            cursor = page.nextCursor;
          } while (cursor);
        },
      };
    },

    /**
     * Facet-value search (`GET {base_url}/offers/facet-values`): the values of one facet
     * (`category`, `tag`, `city`, `country` or a declared `--facet` attribute `attr.NAME`) that
     * start with `prefix` (case and accents ignored), within the results of the search the other
     * parameters describe, with exact counts, most frequent first; at most `limit` (default 10).
     *
     * @example
     * ```ts
     * const { values } = await vitrine.offers.facetValues({ facet: 'city', prefix: 'par', q: 'bike' });
     * // [{ value: 'Paris', count: 412 }, { value: 'Parma', count: 9 }]
     * ```
     */
    facetValues: (params: FacetValuesParams, options: CallOptions = {}): Promise<FacetValuesResponse> =>
      this.#get<FacetValuesResponse>('offers/facet-values', params as Record<string, QueryValue>, options),

    /**
     * One offer by id (`GET {base_url}/offers/{id}`); `offer_not_found` when there is none.
     *
     * @example
     * ```ts
     * const offer = await vitrine.offers.get('off_3kTMd9RAnq0LZpOXbe2w');
     * ```
     */
    get: (id: string, options: CallOptions = {}): Promise<Offer> =>
      this.#get<Offer>(`offers/${encodeURIComponent(id)}`, {}, options),
  };

  constructor(options: VitrineOptions) {
    const platformFetch = options.fetch ?? globalThis.fetch;
    if (typeof platformFetch !== 'function') throw new TypeError('No fetch: pass one as options.fetch');
    this.#settings = {
      // Called unbound: a browser's fetch throws "Illegal invocation" when called on another object.
      fetch: (input, init) => platformFetch(input, init),
      maxRetries: options.maxRetries ?? 2,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    };
    this.#baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
  }

  /**
   * The calling key's public facts (`GET {base_url}/key`): id, environment, project, scopes,
   * refresh permission, plan, expiry. The cheapest authenticated call.
   *
   * @example
   * ```ts
   * const { id, environment } = await vitrine.key();
   * ```
   */
  key(options: CallOptions = {}): Promise<KeyInfo> {
    return this.#get<KeyInfo>('key', {}, options);
  }

  /**
   * Up to 10 searches in one request (`POST {base_url}/multi-search`), answered in order; one
   * invalid search fails the call with `invalid_parameter` naming `queries[i].param`.
   *
   * @example
   * ```ts
   * const { results } = await vitrine.multiSearch([{ q: 'bike', limit: 3 }, { category: 'books', facets: 'tag' }]);
   * ```
   */
  multiSearch(queries: MultiSearchQuery[], options: CallOptions = {}): Promise<MultiSearchResponse> {
    return send<MultiSearchResponse>(this.#settings, {
      method: 'POST',
      url: join(this.#baseUrl, 'multi-search'),
      headers: { 'x-api-key': this.#apiKey },
      body: { queries },
      signal: options.signal,
    });
  }

  /**
   * A client acting for a signed-in end user, with single-flight token refresh.
   *
   * @example
   * ```ts
   * const user = vitrine.asUser({ authUrl, accessToken, refreshToken, onTokens: save });
   * const { data } = await user.favorites.list();
   * ```
   */
  asUser(options: AsUserOptions): VitrineUser {
    return new VitrineUser(this.#settings, this.#baseUrl, this.#apiKey, options);
  }

  #get<T>(path: string, query: Record<string, QueryValue>, options: CallOptions): Promise<T> {
    return send<T>(this.#settings, {
      method: 'GET',
      url: join(this.#baseUrl, path),
      query,
      headers: { 'x-api-key': this.#apiKey },
      signal: options.signal,
    });
  }
}
