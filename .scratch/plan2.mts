import BetterSqlite3 from 'better-sqlite3';
import { countQuery, pageQuery } from '../src/offers/search-sql.ts';
import { parseTextQuery } from '../src/offers/text.ts';
import { sqliteTextIndex } from '../src/offers/text-index-sqlite.ts';

const db = new BetterSqlite3(process.argv[2]!, { readonly: true });
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
for (const extra of [
  { country: 'DE' },
  { priceMin: 100000, priceMax: 500000 },
  { text: parseTextQuery('condition'), sort: 'relevance' },
]) {
  const c = { ...base, ...extra };
  for (const q of [pageQuery(c, sqliteTextIndex), countQuery(c, sqliteTextIndex, 10000)]) {
    console.log(q.sql.slice(0, 300));
    console.log(
      db
        .prepare('EXPLAIN QUERY PLAN ' + q.sql)
        .all(...q.params)
        .map((r: any) => '  ' + r.detail)
        .join('\n'),
    );
  }
}
