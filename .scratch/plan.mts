import BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../src/db/sqlite.ts';
import { countQuery, facetQuery, pageQuery } from '../src/offers/search-sql.ts';
import { parseTextQuery } from '../src/offers/text.ts';
import { sqliteTextIndex } from '../src/offers/text-index-sqlite.ts';

const file = process.argv[2]!;
const db = new BetterSqlite3(file, { readonly: true });
const base = {
  environment: 'testing',
  text: null,
  categories: [],
  tags: [],
  city: null,
  country: null,
  currency: null,
  priceMin: null,
  priceMax: null,
  publishedAfter: null,
  publishedBefore: null,
  updatedSince: null,
  near: null,
  radiusKm: null,
  status: 'active',
  sort: '-publishedAt',
  limit: 20,
  after: null,
  now: Date.UTC(2026, 10, 21),
} as any;
const cases: [string, any][] = [
  ['word table', { text: parseTextQuery('table'), sort: 'relevance' }],
  [
    'two words',
    { text: parseTextQuery('oak table'), sort: 'relevance', categories: ['furniture'], priceMax: 8000000 },
  ],
  ['filter vehicles', { categories: ['vehicles'] }],
  ['filter country', { country: 'DE' }],
  ['filter price', { priceMin: 100000, priceMax: 500000 }],
  ['common condition', { text: parseTextQuery('condition'), sort: 'relevance' }],
  ['geo', { near: { lat: 48.8566, lon: 2.3522 }, radiusKm: 25 }],
];
const time = (label: string, f: () => unknown) => {
  const t = performance.now();
  let r;
  for (let i = 0; i < 3; i++) r = f();
  console.log(label.padEnd(40), ((performance.now() - t) / 3).toFixed(1), 'ms');
  return r;
};
for (const [name, extra] of cases) {
  const c = { ...base, ...extra };
  const p = pageQuery(c, sqliteTextIndex);
  const n = countQuery(c, sqliteTextIndex, 10000);
  time(`${name} page`, () => db.prepare(p.sql).all(...p.params));
  time(`${name} count`, () => db.prepare(n.sql).get(...n.params));
  if (name.startsWith('common')) {
    const f = facetQuery(c, sqliteTextIndex, 'tag', 10000);
    time(`${name} facet tag`, () => db.prepare(f.sql).all(...f.params));
    const g = facetQuery(c, sqliteTextIndex, 'city', 10000);
    time(`${name} facet city`, () => db.prepare(g.sql).all(...g.params));
  }
  if (process.env.PLAN)
    console.log(
      db
        .prepare('EXPLAIN QUERY PLAN ' + p.sql)
        .all(...p.params)
        .map((r: any) => r.detail)
        .join('\n'),
    );
}
