import { describe, expect, it } from 'vitest';
import { retag, toInstantSearchResult, toVitrineQuery } from './translate.js';

const options = { priceAttribute: 'price', currency: 'EUR' };

describe('InstantSearch parameters to a Vitrine search', () => {
  it('translates query, facets, facet filters, the price range, paging and the sort', () => {
    const query = toVitrineQuery(
      {
        indexName: 'offers/-price',
        params: {
          query: ' sofa ',
          facets: ['category', 'city', 'price', 'attr.material'],
          facetFilters: [['category:furniture', 'category:home-garden'], 'city:Paris', ['attr.material:oak']],
          numericFilters: ['price>=10', 'price<=250.5'],
          hitsPerPage: 500,
          page: 3,
        },
      },
      options,
      'cursor_3',
    );
    expect(query).toEqual({
      q: 'sofa',
      sort: '-price',
      currency: 'EUR',
      category: ['furniture', 'home-garden'],
      city: 'Paris',
      'attr.material': ['oak'],
      priceMin: '10',
      priceMax: '250.5',
      limit: 100,
      facets: 'category,city,attr.material',
      highlight: true,
      cursor: 'cursor_3',
    });
  });

  it('refuses what the API cannot answer, naming it', () => {
    const many = { indexName: 'offers', params: { facetFilters: [['city:Paris', 'city:Lyon']] } };
    expect(() => toVitrineQuery(many, options, undefined)).toThrow(/city takes one value/);
    const odd = { indexName: 'offers', params: { numericFilters: ['rating>=4'] } };
    expect(() => toVitrineQuery(odd, options, undefined)).toThrow(/unsupported numeric filter/);
    const two = { indexName: 'offers', params: { distinct: 2 } };
    expect(() => toVitrineQuery(two, options, undefined)).toThrow(/one hit per publisher/);
  });

  it('maps distinct: true (or 1) to one offer per publisher, false (or 0) to none', () => {
    for (const distinct of [true, 1])
      expect(toVitrineQuery({ indexName: 'offers', params: { distinct } }, options, undefined)).toMatchObject(
        {
          distinct: 'publisher',
        },
      );
    for (const distinct of [false, 0])
      expect(
        toVitrineQuery({ indexName: 'offers', params: { distinct } }, options, undefined),
      ).not.toHaveProperty('distinct');
  });
});

describe('a Vitrine answer to an InstantSearch result', () => {
  it('gives InstantSearch its own tags around raw text (it escapes the text itself)', () => {
    expect(retag('<mark>Sofa</mark> &amp; &lt;b&gt;chair&lt;/b&gt;', '[', ']')).toBe('[Sofa] & <b>chair</b>');
    expect(retag('&lt;mark&gt;', '[', ']')).toBe('<mark>');
  });

  it('fills hits, counts, pages and the price statistics', () => {
    const result = toInstantSearchResult(
      {
        indexName: 'offers',
        params: { query: 'sofa', hitsPerPage: 2, highlightPreTag: '<em>', highlightPostTag: '</em>' },
      },
      {
        data: [
          {
            id: 'off_1',
            title: 'Sofa',
            description: 'A sofa',
            highlight: {
              title: '<mark>Sofa</mark>',
              description: 'A <mark>sofa</mark>',
              attributes: { material: '<mark>Sofa</mark> &amp; co' },
            },
          },
        ],
        total: { value: 5, relation: 'eq' },
        facets: { category: [{ value: 'furniture', count: 5 }] },
        nextCursor: 'c',
      },
      1,
      { min: 10, max: 90 },
      options,
    );
    expect(result.hits[0]).toMatchObject({
      objectID: 'off_1',
      _highlightResult: {
        title: { value: '<em>Sofa</em>', matchLevel: 'full' },
        attributes: { material: { value: '<em>Sofa</em> & co', matchLevel: 'full' } },
      },
    });
    expect(result).toMatchObject({ nbHits: 5, nbPages: 3, page: 1, hitsPerPage: 2 });
    expect(result.facets).toEqual({ category: { furniture: 5 }, price: {} });
    expect(result.facets_stats).toMatchObject({ price: { min: 10, max: 90 } });
  });
});
