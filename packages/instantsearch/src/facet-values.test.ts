import { describe, expect, it } from 'vitest';
import { facetValuesQuery, toFacetHits } from './facet-values.js';
import { vitrineInstantSearch } from './index.js';

const options = { priceAttribute: 'price', currency: 'EUR' };

describe('InstantSearch facet-value search on Vitrine', () => {
  it('asks for the facet, the prefix and the limit within the request’s filters, not its sort', () => {
    const query = facetValuesQuery(
      {
        indexName: 'offers/-price',
        params: {
          facetName: 'city',
          facetQuery: 'Zu',
          maxFacetHits: 500,
          query: 'bike',
          facetFilters: [['category:sports', 'category:outdoor'], 'attr.brand:acme'],
          numericFilters: ['price<=300'],
        },
      },
      options,
    );
    expect([...query]).toEqual([
      ['q', 'bike'],
      ['currency', 'EUR'],
      ['category', 'sports'],
      ['category', 'outdoor'],
      ['attr.brand', 'acme'],
      ['priceMax', '300'],
      ['facet', 'city'],
      ['prefix', 'Zu'],
      ['limit', '100'],
    ]);
    const plain = facetValuesQuery({ indexName: 'offers', params: { facetName: 'tag' } }, options);
    expect(plain.toString()).toBe('currency=EUR&facet=tag&limit=10');
  });

  it('answers facet hits with the typed prefix marked and the value escaped', () => {
    const hits = toFacetHits(
      {
        indexName: 'offers',
        params: {
          facetName: 'attr.brand',
          facetQuery: 'ca',
          highlightPreTag: '<em>',
          highlightPostTag: '</em>',
        },
      },
      { facet: 'attr.brand', values: [{ value: 'Café <Co>', count: 3 }] },
    );
    expect(hits).toEqual({
      facetHits: [{ value: 'Café <Co>', count: 3, highlighted: '<em>Ca</em>fé &#60;Co&#62;' }],
      exhaustiveFacetsCount: true,
      processingTimeMS: 0,
    });
  });

  it('sends one GET per request with the key in a header, and fails plainly on an error', async () => {
    const calls: Array<{ url: string; headers: unknown }> = [];
    let status = 200;
    const client = vitrineInstantSearch({
      baseUrl: 'http://vitrine.test/v1/',
      apiKey: 'vk_pub_x',
      fetch: (async (url: string, init: RequestInit) => {
        calls.push({ url, headers: init.headers });
        const body =
          status === 200
            ? { facet: 'city', values: [{ value: 'Zürich', count: 20 }] }
            : { code: 'invalid_parameter', detail: 'facet: attr.nope is not a declared --facet attribute' };
        return new Response(JSON.stringify(body), { status });
      }) as typeof fetch,
    });
    const [answer] = await client.searchForFacetValues([
      { indexName: 'offers', params: { facetName: 'city', facetQuery: 'zu', maxFacetHits: 5 } },
    ]);
    expect(calls).toEqual([
      {
        url: 'http://vitrine.test/v1/offers/facet-values?facet=city&prefix=zu&limit=5',
        headers: { 'x-api-key': 'vk_pub_x' },
      },
    ]);
    expect(answer?.facetHits).toEqual([{ value: 'Zürich', count: 20, highlighted: '<mark>Zü</mark>rich' }]);
    status = 400;
    await expect(
      client.searchForFacetValues([{ indexName: 'offers', params: { facetName: 'attr.nope' } }]),
    ).rejects.toThrow('Vitrine answered 400 invalid_parameter');
  });
});
