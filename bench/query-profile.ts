import { loadConfig } from '../src/config/config.js';
import type { Database, SqlValue } from '../src/db/database.js';
import { openPostgres } from '../src/db/postgres.js';
import { openSqlite } from '../src/db/sqlite.js';
import type { SearchQuery } from '../src/offers/schemas.js';
import { createOfferService } from '../src/offers/service.js';
import { createOfferStore } from '../src/offers/store-sql.js';
import { systemClock } from '../src/platform/clock.js';
import { DEEP_PAGE, SEARCH_MIX } from './mix.js';

/**
 * `npm run bench:queries`: the search mix run in this process against an existing database
 * (DATA_DIR / DATABASE_URL, as `vitrine serve` reads them; e.g. the bench's reused data), on
 * the main thread, without HTTP: per query, the median and worst of BENCH_QUERY_RUNS runs
 * (default 15) and, with BENCH_QUERY_SQL=1, each statement's time. What a search costs the
 * database, separate from HTTP and from other load on the machine's second core.
 */
const runs = Number(process.env.BENCH_QUERY_RUNS ?? 15);
const showSql = process.env.BENCH_QUERY_SQL === '1';
const config = loadConfig(process.env);
const raw: Database = config.databaseUrl
  ? openPostgres(config.databaseUrl, { poolMax: 2 })
  : openSqlite(config.sqlitePath, { readCacheMb: config.sqliteCacheMb });
const statements: string[] = [];
const timed =
  (method: 'all' | 'get') =>
  async <T>(sql: string, params?: readonly SqlValue[]): Promise<T> => {
    const started = performance.now();
    const result = await raw[method]<T>(sql, params);
    statements.push(`${(performance.now() - started).toFixed(2).padStart(8)} ms  ${sql.slice(0, 110)}`);
    return result as T;
  };
const db = { ...raw, all: timed('all'), get: timed('get') } as Database;
const offers = createOfferService({ store: createOfferStore(db), clock: systemClock });

function parse(query: string): SearchQuery {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    if (k === 'category' || k === 'tag') out[k] = [...((out[k] as string[]) ?? []), v];
    else out[k] = ['limit', 'radius'].includes(k) ? Number(v) : v;
  }
  return out as SearchQuery;
}

async function search(query: string): Promise<{ ms: number; nextCursor: string | null }> {
  statements.length = 0;
  const started = performance.now();
  const outcome = await offers.search('testing', parse(query));
  const ms = performance.now() - started;
  if (!outcome.ok) throw new Error(`${query}: ${JSON.stringify(outcome.errors)}`);
  return { ms, nextCursor: outcome.nextCursor };
}

let cursor = '';
for (let page = 1; page < DEEP_PAGE.page; page += 1) {
  const { nextCursor } = await search(`${DEEP_PAGE.query}${cursor}`);
  if (!nextCursor) break;
  cursor = `&cursor=${encodeURIComponent(nextCursor)}`;
}
const types = [
  ...SEARCH_MIX,
  { id: DEEP_PAGE.id, name: DEEP_PAGE.name, queries: [`${DEEP_PAGE.query}${cursor}`] },
];
process.stdout.write(`${raw.description}, ${runs} runs per query, main thread, no HTTP\n\n`);
process.stdout.write('| type | query | median ms | max ms |\n|---|---|---|---|\n');
for (const type of types) {
  for (const query of type.queries) {
    const times: number[] = [];
    let last: string[] = [];
    for (let i = 0; i < runs; i += 1) {
      times.push((await search(query)).ms);
      last = [...statements];
    }
    times.sort((a, b) => a - b);
    const label = query.length > 60 ? `${query.slice(0, 57)}…` : query;
    process.stdout.write(
      `| ${type.name} | \`${label}\` | ${times[times.length >> 1]?.toFixed(1)} | ${times.at(-1)?.toFixed(1)} |\n`,
    );
    if (showSql) process.stdout.write(`${last.map((s) => `    ${s}`).join('\n')}\n`);
  }
}
await raw.close();
