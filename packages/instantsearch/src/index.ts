import {
  type FacetValuesAnswer,
  type FacetValuesRequest,
  facetValuesQuery,
  toFacetHits,
} from './facet-values.js';
import {
  type FacetStats,
  filtersOf,
  type InstantSearchRequest,
  toInstantSearchResult,
  toVitrineQuery,
  type VitrineQuery,
  type VitrineResponse,
  wantsPriceStats,
} from './translate.js';

export type { FacetValuesRequest } from './facet-values.js';
export type { InstantSearchParams, InstantSearchRequest, VitrineQuery } from './translate.js';
export { retag } from './translate.js';

export interface VitrineInstantSearchOptions {
  /** `{base_url}` of the key's environment, e.g. `http://localhost:8081/v1`. */
  baseUrl: string;
  /** A publishable key (`vk_pub_…`) allowed for the page's origin. */
  apiKey: string;
  /** Sent with every search: prices sort and range within one currency (e.g. `EUR`). */
  currency?: string;
  /** The attribute name the range widgets use for the price (default `price`). */
  priceAttribute?: string;
  fetch?: typeof fetch;
}

/** At most this many searches per `POST /multi-search`. */
const MAX_QUERIES = 10;

/**
 * A search client for InstantSearch.js (`instantsearch({ searchClient, indexName: 'offers' })`):
 * each batch of InstantSearch requests becomes one `POST {base_url}/multi-search` (or a few, ten
 * searches each). Sort orders are index names (`offers/price`, `offers/-publishedAt`). Vitrine
 * pages by cursor: page n is reached through the cursors of pages 0…n-1, remembered per query
 * (a jump ahead costs one search per page skipped). The price range comes from the facet
 * statistics of one search; a `searchable` refinement list searches a facet's values.
 */
export function vitrineInstantSearch(options: VitrineInstantSearchOptions) {
  const translate = { priceAttribute: options.priceAttribute ?? 'price', currency: options.currency };
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/$/, '');
  /** Cursors per query (without cursor): index n opens page n. */
  const cursors = new Map<string, (string | null)[]>();

  /** One request; a publishable key's per-address budget is small (a few searches a second): wait and retry. */
  async function call(url: string, init: RequestInit): Promise<Response> {
    let response = await doFetch(url, init);
    for (let retry = 0; response.status === 429 && retry < 3; retry++) {
      const wait = Math.min(Number(response.headers.get('retry-after') ?? 1), 5);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      response = await doFetch(url, init);
    }
    return response;
  }

  async function multiSearch(queries: VitrineQuery[]): Promise<VitrineResponse[]> {
    const answers: VitrineResponse[] = [];
    for (let i = 0; i < queries.length; i += MAX_QUERIES) {
      const response = await call(`${base}/multi-search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey },
        body: JSON.stringify({ queries: queries.slice(i, i + MAX_QUERIES) }),
      });
      const body = (await response.json()) as { results?: VitrineResponse[]; detail?: string; code?: string };
      if (!response.ok || !body.results) {
        throw new Error(`Vitrine answered ${response.status} ${body.code ?? ''}: ${body.detail ?? ''}`);
      }
      answers.push(...body.results);
    }
    return answers;
  }

  /** The cursor of `page` for this request, following the known cursors forward as needed. */
  async function cursorOf(request: InstantSearchRequest, page: number): Promise<string | undefined> {
    const key = JSON.stringify(toVitrineQuery(request, translate, undefined));
    const known = cursors.get(key) ?? [null];
    cursors.set(key, known);
    while (known.length <= page) {
      const last = known.length - 1;
      const { facets: _counts, ...walk } = toVitrineQuery(request, translate, known[last] ?? undefined);
      const [answer] = await multiSearch([{ ...walk, highlight: false }]);
      if (!answer?.nextCursor) return undefined;
      known.push(answer.nextCursor);
    }
    return known[page] ?? undefined;
  }

  function remember(request: InstantSearchRequest, page: number, next: string | null) {
    const key = JSON.stringify(toVitrineQuery(request, translate, undefined));
    const known = cursors.get(key) ?? [null];
    if (next && known.length === page + 1) known.push(next);
    cursors.set(key, known);
  }

  /**
   * The price range of a request's results, its own price filter left out (the slider shows the
   * whole range): one search of one hit asking for the price's facet statistics.
   */
  function priceQuery(request: InstantSearchRequest): VitrineQuery {
    const { priceMin: _min, priceMax: _max, sort: _sort, ...filters } = filtersOf(request, translate);
    return { ...filters, facets: 'price', limit: 1 };
  }

  return {
    async search(requests: readonly InstantSearchRequest[]) {
      const pages = requests.map((r) => Math.max(0, Math.trunc(r.params?.page ?? 0)));
      const queries: VitrineQuery[] = [];
      for (const [i, request] of requests.entries()) {
        queries.push(toVitrineQuery(request, translate, await cursorOf(request, pages[i] as number)));
      }
      const statsFor = requests.map((r) => wantsPriceStats(r, translate));
      for (const [i, request] of requests.entries()) if (statsFor[i]) queries.push(priceQuery(request));
      const answers = await multiSearch(queries);
      let extra = requests.length;
      const results = requests.map((request, i) => {
        const answer = answers[i] as VitrineResponse;
        const page = pages[i] as number;
        remember(request, page, answer.nextCursor);
        let stats: FacetStats | null = null;
        if (statsFor[i]) {
          const range = answers[extra]?.facetStats?.price;
          extra += 1;
          if (range) stats = { min: Math.floor(range.min), max: Math.ceil(range.max) };
        }
        return toInstantSearchResult(request, answer, page, stats, translate);
      });
      return { results };
    },
    /**
     * A `searchable` refinement list's search: each request becomes one
     * `GET {base_url}/offers/facet-values` within the request's own filters, its values answered
     * as facet hits with the typed prefix marked.
     */
    async searchForFacetValues(requests: readonly FacetValuesRequest[]) {
      return Promise.all(
        requests.map(async (request) => {
          const url = `${base}/offers/facet-values?${facetValuesQuery(request, translate).toString()}`;
          const response = await call(url, { headers: { 'x-api-key': options.apiKey } });
          const body = (await response.json()) as FacetValuesAnswer & { detail?: string; code?: string };
          if (!response.ok || !body.values) {
            throw new Error(`Vitrine answered ${response.status} ${body.code ?? ''}: ${body.detail ?? ''}`);
          }
          return toFacetHits(request, body);
        }),
      );
    },
    /** Forgets the remembered cursors (after offers changed a lot, say). */
    clearCache() {
      cursors.clear();
    },
  };
}
