/**
 * The issue #3 query mix: a fixed list of searches per query type, used by the HTTP bench
 * (run.ts). The deep-page type needs a cursor found by paging, so the runner adds it.
 */
export const SEARCH_MIX: { id: string; name: string; queries: string[] }[] = [
  {
    id: 'word',
    name: 'single word',
    queries: [
      'table',
      'bike',
      'laptop',
      'apartment',
      'guitar',
      'jacket',
      'sofa',
      'camera',
      'developer',
      'garden',
    ].map((w) => `q=${w}`),
  },
  {
    id: 'two-words',
    name: 'two words + category + price',
    queries: [
      'q=oak%20table&category=furniture&priceMax=800',
      'q=road%20bike&category=sports&priceMin=100&priceMax=3000',
      'q=gaming%20laptop&category=electronics&priceMin=300',
      'q=leather%20jacket&category=fashion&priceMax=400',
    ],
  },
  {
    id: 'filter',
    name: 'filter only, newest first',
    queries: ['category=vehicles', 'country=DE&sort=-publishedAt', 'priceMin=10&priceMax=50'],
  },
  {
    id: 'common-word',
    name: 'very common word (total + facets)',
    queries: ['q=condition&facets=category,tag,city,country', 'q=delivery&facets=category,tag,city,country'],
  },
  {
    id: 'geo',
    name: 'geo radius',
    queries: [
      'near=48.8566,2.3522&radius=25',
      'near=52.52,13.405&radius=50&sort=distance',
      'near=40.7128,-74.006&radius=30&category=vehicles',
    ],
  },
];

/** The deep-page type: page 21 of a category, 50 a page. */
export const DEEP_PAGE = {
  id: 'deep-page',
  name: 'deep cursor page (page 21)',
  query: 'category=furniture&limit=50',
  page: 21,
};
