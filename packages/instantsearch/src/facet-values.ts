import { filtersOf, type InstantSearchParams, type TranslateOptions } from './translate.js';

/**
 * InstantSearch's facet-value search (a `searchable` refinement list) to
 * `GET {base_url}/offers/facet-values`, and its answer back to facet hits.
 */

/** One facet-value search as InstantSearch asks for it: the facet, what was typed, the search's own parameters. */
export interface FacetValuesRequest {
  indexName: string;
  params: InstantSearchParams & { facetName: string; facetQuery?: string; maxFacetHits?: number };
}

export interface FacetValuesAnswer {
  facet: string;
  values: { value: string; count: number }[];
}

const DEFAULT_HITS = 10;
const MAX_HITS = 100;

/** The query string: the request's filters (not its sort: it changes no count), the facet, the prefix, the limit. */
export function facetValuesQuery(request: FacetValuesRequest, options: TranslateOptions): URLSearchParams {
  const { facetName, facetQuery, maxFacetHits, ...params } = request.params;
  const { sort: _sort, ...filters } = filtersOf({ indexName: request.indexName, params }, options);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  query.set('facet', facetName);
  if (facetQuery) query.set('prefix', facetQuery);
  const hits = Math.trunc(maxFacetHits ?? DEFAULT_HITS);
  query.set('limit', String(Math.min(Math.max(hits, 1), MAX_HITS)));
  return query;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Facet hits as InstantSearch shows them: the value, its count, the typed prefix marked. */
export function toFacetHits(request: FacetValuesRequest, answer: FacetValuesAnswer) {
  const pre = String(request.params.highlightPreTag ?? '<mark>');
  const post = String(request.params.highlightPostTag ?? '</mark>');
  // The API compares folded text (case, accents); the prefix marked is as long as the typed one.
  const typed = (request.params.facetQuery ?? '').trim().length;
  return {
    facetHits: answer.values.map(({ value, count }) => ({
      value,
      count,
      highlighted:
        typed > 0
          ? `${pre}${escapeHtml(value.slice(0, typed))}${post}${escapeHtml(value.slice(typed))}`
          : escapeHtml(value),
    })),
    exhaustiveFacetsCount: true,
    processingTimeMS: 0,
  };
}
