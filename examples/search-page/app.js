// The search page: InstantSearch.js widgets on Vitrine through @vitrine/instantsearch.
// start.mjs bundles this file and serves it with `window.VITRINE` = { baseUrl, apiKey, currency }.
import { vitrineInstantSearch } from '@vitrine/instantsearch';
import instantsearch from 'instantsearch.js';
import {
  clearRefinements,
  configure,
  hits,
  menu,
  pagination,
  rangeSlider,
  refinementList,
  searchBox,
  sortBy,
  stats,
} from 'instantsearch.js/es/widgets';

const { baseUrl, apiKey, currency } = window.VITRINE;
const debounce = (fn, ms) => {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
};
// Declared catalogue attributes (`attr.<name>`) get a refinement list each once the API counts them.
const ATTRIBUTES = window.VITRINE.attributes ?? [];

const search = instantsearch({
  indexName: 'offers',
  searchClient: vitrineInstantSearch({ baseUrl, apiKey, currency }),
  future: { preserveSharedStateOnUnmount: true },
});

search.addWidgets([
  configure({ hitsPerPage: 10 }),
  searchBox({
    container: '#searchbox',
    placeholder: 'Search offers: road bike, sofa, flat…',
    // One search per pause in typing, not per keystroke: a publishable key's budget is per second.
    queryHook: debounce((query, refine) => refine(query), 250),
  }),
  stats({
    container: '#stats',
    templates: { text: (d, { html }) => html`${d.nbHits.toLocaleString('en')} offers` },
  }),
  sortBy({
    container: '#sort',
    items: [
      { label: 'Most relevant', value: 'offers' },
      { label: 'Newest', value: 'offers/-publishedAt' },
      { label: 'Price: low to high', value: 'offers/price' },
      { label: 'Price: high to low', value: 'offers/-price' },
    ],
  }),
  refinementList({ container: '#category', attribute: 'category' }),
  // The API filters on one city at a time: a menu (one choice), not a multi-choice list.
  menu({ container: '#city', attribute: 'city', limit: 8 }),
  rangeSlider({ container: '#price', attribute: 'price', pips: false }),
  ...ATTRIBUTES.map((name) => refinementList({ container: `#attr-${name}`, attribute: `attr.${name}` })),
  clearRefinements({ container: '#clear' }),
  hits({
    container: '#hits',
    templates: {
      item: (hit, { html, components }) => html`<article>
        <h2>${components.Highlight({ attribute: 'title', hit })}</h2>
        <p class="meta">${hit.price.amount} ${hit.price.currency} · ${hit.location.city} · ${hit.category}</p>
        <p>${components.Highlight({ attribute: 'description', hit })}</p>
      </article>`,
      empty: (_r, { html }) => html`<p>No offer matches.</p>`,
    },
  }),
  pagination({ container: '#pagination', padding: 2 }),
]);

search.start();
