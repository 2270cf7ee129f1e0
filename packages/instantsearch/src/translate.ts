/**
 * InstantSearch's search parameters to a Vitrine search query, and a Vitrine search response back
 * to InstantSearch's result shape (the Algolia response format the widgets read).
 */

/** One search InstantSearch asks for (`indexName` + `params`), as its widgets build it. */
export interface InstantSearchRequest {
  indexName: string;
  params?: InstantSearchParams;
}

export interface InstantSearchParams {
  query?: string;
  facets?: string | string[];
  facetFilters?: string | (string | string[])[];
  numericFilters?: string | (string | string[])[];
  page?: number;
  hitsPerPage?: number;
  highlightPreTag?: string;
  highlightPostTag?: string;
  /** Algolia's `distinct`: `true` or `1` is one hit per publisher (`distinct=publisher`). */
  distinct?: boolean | number;
  [other: string]: unknown;
}

/** A Vitrine search, as `POST {base_url}/multi-search` takes it. */
export type VitrineQuery = Record<string, string | number | boolean | string[]>;

export interface VitrineHit {
  id: string;
  title: string;
  description: string;
  highlight?: { title: string; description: string; attributes?: Record<string, string> };
  [field: string]: unknown;
}

export interface VitrineResponse {
  data: VitrineHit[];
  total: { value: number; relation: string };
  facets: Record<string, { value: string; count: number }[]>;
  nextCursor: string | null;
  /** Statistics of number facets and of `price` (in currency units), when `facets` asks for them. */
  facetStats?: Record<string, { min: number; max: number; avg: number; sum: number; count: number }>;
}

export interface TranslateOptions {
  /** The attribute InstantSearch's range widgets name for the price (default `price`). */
  priceAttribute: string;
  /** Sent with every search: prices compare within one currency. */
  currency?: string;
}

const DEFAULT_HITS_PER_PAGE = 20;
const MAX_LIMIT = 100;
/** Facets the API counts; declared attributes (`attr.<name>`) pass through as they are. */
const FACETS = new Set(['category', 'tag', 'city', 'country']);
/** Filters that take several values (any of them); the others take one. */
const MULTI_VALUED = new Set(['category', 'tag']);

export const isFacet = (name: string) => FACETS.has(name) || name.startsWith('attr.');

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** `indexName` carries the sort, as with other InstantSearch back ends: `offers/price`. */
export function sortOf(indexName: string): string | undefined {
  const slash = indexName.indexOf('/');
  return slash === -1 ? undefined : indexName.slice(slash + 1);
}

export function hitsPerPage(params: InstantSearchParams): number {
  return Math.min(Math.max(Math.trunc(params.hitsPerPage ?? DEFAULT_HITS_PER_PAGE), 1), MAX_LIMIT);
}

/** The filters of a request (facets and price), without paging or facet counts. */
export function filtersOf(request: InstantSearchRequest, options: TranslateOptions): VitrineQuery {
  const params = request.params ?? {};
  const query: VitrineQuery = {};
  const q = (params.query ?? '').trim();
  if (q) query.q = q;
  const sort = sortOf(request.indexName);
  if (sort) query.sort = sort;
  if (options.currency) query.currency = options.currency;
  for (const group of list(params.facetFilters)) {
    const values = list(group).map((filter) => {
      const colon = filter.indexOf(':');
      if (colon < 1) throw new Error(`facet filter "${filter}" is not "attribute:value"`);
      return { name: filter.slice(0, colon), value: filter.slice(colon + 1) };
    });
    for (const { name, value } of values) {
      if (!isFacet(name)) throw new Error(`Vitrine cannot filter on "${name}"`);
      if (MULTI_VALUED.has(name) || name.startsWith('attr.')) {
        query[name] = [...list(query[name] as string[] | undefined), value];
      } else if (query[name] !== undefined && query[name] !== value) {
        throw new Error(`${name} takes one value: refine it with a menu widget, not a refinement list`);
      } else {
        query[name] = value;
      }
    }
  }
  for (const filter of list(params.numericFilters).flat()) {
    const match = /^\s*([\w.]+)\s*(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(filter);
    if (!match || match[1] !== options.priceAttribute)
      throw new Error(`unsupported numeric filter "${filter}"`);
    const [, , operator, value] = match as unknown as [string, string, string, string];
    if (operator !== '<' && operator !== '<=') query.priceMin = value;
    if (operator !== '>' && operator !== '>=') query.priceMax = value;
  }
  return query;
}

/** The whole Vitrine query of one InstantSearch request, its cursor given. */
export function toVitrineQuery(
  request: InstantSearchRequest,
  options: TranslateOptions,
  cursor: string | undefined,
): VitrineQuery {
  const params = request.params ?? {};
  const query = filtersOf(request, options);
  query.limit = hitsPerPage(params);
  const facets = list(params.facets).filter(isFacet);
  if (facets.length > 0) query.facets = facets.join(',');
  if (query.q) query.highlight = true;
  const distinct = distinctOf(params.distinct);
  if (distinct) query.distinct = distinct;
  if (cursor) query.cursor = cursor;
  return query;
}

/**
 * InstantSearch's `distinct` (Algolia's: how many hits of one group, by the index's
 * `attributeForDistinct`): Vitrine groups by publisher and keeps one, so `true` and `1` map to
 * `distinct=publisher`, `false` and `0` to nothing, anything more is refused.
 */
function distinctOf(value: unknown): 'publisher' | undefined {
  if (value === undefined || value === false || value === 0) return undefined;
  if (value === true || value === 1) return 'publisher';
  throw new Error(`distinct ${String(value)}: Vitrine keeps one hit per publisher (distinct: true)`);
}

/** The facets InstantSearch asked for that need min/max statistics (the price). */
export function wantsPriceStats(request: InstantSearchRequest, options: TranslateOptions): boolean {
  const facets = list(request.params?.facets);
  return facets.includes(options.priceAttribute) || facets.includes('*');
}

const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};

/**
 * Vitrine's highlight is HTML-escaped text with `<mark>` around matches; InstantSearch wants the
 * raw text with its own tags (it escapes the text itself), so: tags first, then the entities.
 */
export function retag(highlighted: string, pre: string, post: string): string {
  return highlighted
    .replaceAll('<mark>', pre)
    .replaceAll('</mark>', post)
    .replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

export interface FacetStats {
  min: number;
  max: number;
}

/** One InstantSearch result (the fields its widgets read). */
export function toInstantSearchResult(
  request: InstantSearchRequest,
  response: VitrineResponse,
  page: number,
  priceStats: FacetStats | null,
  options: TranslateOptions,
) {
  const params = request.params ?? {};
  const pre = params.highlightPreTag ?? '<em>';
  const post = params.highlightPostTag ?? '</em>';
  const perPage = hitsPerPage(params);
  const hits = response.data.map((hit) => {
    const result = (marked: string | undefined, raw: unknown) => ({
      value: marked === undefined ? raw : retag(marked, pre, post),
      matchLevel: marked?.includes('<mark>') ? 'full' : 'none',
      matchedWords: [],
    });
    const field = (name: 'title' | 'description') => result(hit.highlight?.[name], hit[name]);
    // Searchable attributes (`<Highlight attribute="attributes.brand">`), when the answer has them.
    const marked = hit.highlight?.attributes;
    return {
      ...hit,
      objectID: hit.id,
      _highlightResult: {
        title: field('title'),
        description: field('description'),
        ...(marked
          ? {
              attributes: Object.fromEntries(
                Object.entries(marked).map(([name, value]) => [name, result(value, undefined)]),
              ),
            }
          : {}),
      },
    };
  });
  const facets: Record<string, Record<string, number>> = {};
  for (const [name, counts] of Object.entries(response.facets ?? {})) {
    facets[name] = Object.fromEntries(counts.map((c) => [c.value, c.count]));
  }
  // InstantSearch attaches statistics only to a facet present in `facets`.
  if (priceStats) facets[options.priceAttribute] ??= {};
  return {
    index: request.indexName,
    query: params.query ?? '',
    params: '',
    hits,
    nbHits: response.total.value,
    exhaustiveNbHits: response.total.relation === 'eq',
    page,
    hitsPerPage: perPage,
    nbPages: Math.ceil(response.total.value / perPage),
    processingTimeMS: 0,
    facets,
    facets_stats: priceStats ? { [options.priceAttribute]: { ...priceStats, avg: 0, sum: 0 } } : {},
  };
}
