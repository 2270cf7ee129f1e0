// Search the testing environment with @vitrine/client (after `npm run build` at the root):
//   KEY=vk_test_… node examples/sdk-search.mjs
import { Vitrine } from '@vitrine/client';

const vitrine = new Vitrine({
  baseUrl: process.env.BASE ?? 'http://localhost:8081/v1',
  apiKey: process.env.KEY,
});
const page = await vitrine.offers.search({ q: 'road bik', limit: 2 });
console.log(`${page.total.value} offers match "road bik"; the first: ${page.data[0]?.title}`);
let shown = 0;
for await (const offer of vitrine.offers.searchAll({
  category: ['furniture'],
  currency: 'EUR',
  priceMax: '250',
  sort: 'price',
})) {
  console.log(offer.title, offer.price.amount, offer.price.currency);
  if (++shown === 5) break;
}
