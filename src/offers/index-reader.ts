import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Environment } from '../platform/environment.js';
import type { IndexDocument } from '../search/engine.js';
import type { OfferStatus } from './schemas.js';

/**
 * The start-up read of the search index off the event loop (issue 12, ADR 0022): a worker thread
 * with its own read-only connection (SQLite: better-sqlite3; PostgreSQL: one `pg` client) reads
 * every offer of an environment in `seq` order, a page at a time, while the main thread indexes
 * the page before. It reads only the columns the index needs, as arrays (no row objects), and
 * sends each page in a form that is cheap for the main thread to take in:
 *
 * - the numbers in one Float64Array, transferred (moved, not copied);
 * - the low-cardinality strings (category, city, country, currency, status, and the tags' JSON)
 *   as codes of a dictionary the worker keeps, in one Int32Array, with the values first seen in
 *   this page: the main thread gets each distinct value once and parses each distinct tags JSON
 *   once, not once per offer;
 * - the ids as an array of strings, and every title and description of the page as one string,
 *   sliced per document on the main thread (one allocation instead of two per offer).
 *
 * At most `ahead` pages are read beyond the one being indexed (the main thread acknowledges each
 * page once indexed), so memory stays bounded whatever the two threads' speeds. The worker is
 * plain CommonJS evaluated from a string (as db/sqlite-readers.ts), so it runs the same under
 * tsx, vitest and the compiled build, and loads the drivers from the paths this module resolves.
 */

export type IndexReaderSource = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/**
 * Reads every offer of an environment for the index, one page of documents at a time. A page's
 * documents are made as they are iterated: each is garbage once indexed, so the young
 * generation's collections find little alive (a whole page of documents alive at every
 * collection cost ~3 s of copying at 1M offers, measured).
 */
export type IndexReader = (environment: Environment) => AsyncIterable<Iterable<IndexDocument>>;

/** Per row: codes, then numbers (expires_at NaN when null). */
const CODE_COLUMNS = 6; // category, tags, city, country, currency, status
const NUMBER_COLUMNS = 6; // price_value, lat, lon, published_at, updated_at, expires_at

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { dialect, environment, pageSize, ahead } = workerData;
const SQL = 'SELECT seq, id, title, description, category, tags, city, country, currency, price_value, lat, lon, status, published_at, updated_at, expires_at FROM offers WHERE seq > ? AND environment = ? ORDER BY seq LIMIT ?';
// One map per column (no key built per row), one code space for all of them.
const codes = [new Map(), new Map(), new Map(), new Map(), new Map(), new Map()];
let nextCode = 0;
let fresh = [];
function code(column, value) {
  let c = codes[column].get(value);
  if (c === undefined) {
    c = nextCode++;
    codes[column].set(value, c);
    fresh.push(column, value);
  }
  return c;
}
let credit = ahead;
let wake = null;
parentPort.on('message', () => {
  credit += 1;
  if (wake) { const w = wake; wake = null; w(); }
});
async function send(rows, last) {
  const n = rows.length;
  const ids = new Array(n), texts = new Array(2 * n);
  const ends = new Int32Array(2 * n);
  let at = 0;
  const c = new Int32Array(n * ${CODE_COLUMNS});
  const x = new Float64Array(n * ${NUMBER_COLUMNS});
  for (let i = 0; i < n; i += 1) {
    const r = rows[i];
    ids[i] = r[1]; texts[2 * i] = r[2]; texts[2 * i + 1] = r[3];
    at += r[2].length; ends[2 * i] = at;
    at += r[3].length; ends[2 * i + 1] = at;
    const k = i * ${CODE_COLUMNS};
    c[k] = code(0, r[4]); c[k + 1] = code(1, r[5]); c[k + 2] = code(2, r[6]);
    c[k + 3] = code(3, r[7]); c[k + 4] = code(4, r[8]); c[k + 5] = code(5, r[12]);
    const m = i * ${NUMBER_COLUMNS};
    x[m] = Number(r[9]); x[m + 1] = Number(r[10]); x[m + 2] = Number(r[11]);
    x[m + 3] = Number(r[13]); x[m + 4] = Number(r[14]); x[m + 5] = r[15] === null ? NaN : Number(r[15]);
  }
  while (credit === 0) await new Promise((resolve) => { wake = resolve; });
  credit -= 1;
  const values = fresh;
  fresh = [];
  const text = texts.join('');
  parentPort.postMessage({ ids, text, ends, codes: c, numbers: x, values, last }, [ends.buffer, c.buffer, x.buffer]);
}
async function main() {
  let after = 0;
  if (dialect === 'sqlite') {
    const Database = require(workerData.driver);
    const db = new Database(workerData.file, { readonly: true });
    db.pragma('busy_timeout = 5000');
    const statement = db.prepare(SQL).raw();
    try {
      for (;;) {
        const rows = statement.all(after, environment, pageSize);
        const last = rows.length < pageSize;
        await send(rows, last);
        if (last) return;
        after = rows[rows.length - 1][0];
      }
    } finally {
      db.close();
    }
  }
  const pg = require(workerData.driver);
  const client = new pg.Client({ connectionString: workerData.url, options: '-c jit=off' });
  const types = { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
  let n = 0;
  const text = SQL.replace(/\\?/g, () => '$' + ++n);
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query({ text, values: [after, environment, pageSize], rowMode: 'array', types });
      const last = rows.length < pageSize;
      await send(rows, last);
      if (last) return;
      after = rows[rows.length - 1][0];
    }
  } finally {
    await client.end();
  }
}
main().then(
  // Nothing more to send: the worker ends once the messages already posted are delivered.
  () => parentPort.unref(),
  (error) => {
    parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
  },
);
`;

interface PageMessage {
  ids: string[];
  /** Every title and description of the page, one after the other (see `ends`). */
  text: string;
  /** Where each title and description ends in `text`: [title 0, description 0, title 1, …]. */
  ends: Int32Array;
  codes: Int32Array;
  numbers: Float64Array;
  /** (column, value) pairs of the codes first used in this page, in code order. */
  values: Array<number | string>;
  last: boolean;
  error?: { message: string; code?: string };
}

/**
 * Opens one worker per call to the returned reader; it ends when the environment's last page is
 * read, or when the consumer stops early (its iterator's `return`). Rows are read `pageSize` at
 * a time (default 2 500), at most `ahead` pages (default 4) beyond the one being indexed.
 */
export function createIndexReader(
  source: IndexReaderSource,
  options: { pageSize?: number; ahead?: number } = {},
): IndexReader {
  const require = createRequire(import.meta.url);
  const driver = require.resolve(source.dialect === 'sqlite' ? 'better-sqlite3' : 'pg');
  // 2 500 rows a page: a page's rows are alive at each of the worker's young collections, and
  // pages of 10 000 cost ~1.5 s more CPU at 1M offers in those (measured); four pages ahead keep
  // the main thread from waiting.
  const pageSize = options.pageSize ?? 2_500;
  const ahead = options.ahead ?? 4;
  return (environment) => ({
    [Symbol.asyncIterator]: () => {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { ...source, driver, environment, pageSize, ahead },
      });
      const queue: PageMessage[] = [];
      let failure: Error | null = null;
      let ended = false;
      let waiting: (() => void) | null = null;
      const notify = () => {
        const w = waiting;
        waiting = null;
        w?.();
      };
      worker.on('message', (message: PageMessage) => {
        if (message.error) failure = Object.assign(new Error(message.error.message), message.error);
        else queue.push(message);
        notify();
      });
      worker.on('error', (error) => {
        failure = error;
        notify();
      });
      worker.on('exit', (code) => {
        ended = true;
        if (code !== 0 && !failure) failure = new Error(`index reader exited with code ${code}`);
        notify();
      });
      /** Value of each code, as the main thread uses it (tags parsed once per distinct JSON). */
      const decoded: Array<string | readonly string[]> = [];
      let done = false;
      let first = true;
      return {
        async next(): Promise<IteratorResult<Iterable<IndexDocument>>> {
          if (done) return { done: true, value: undefined };
          // The previous page is indexed: the worker may read one more ahead.
          if (!first) worker.postMessage(0);
          first = false;
          while (queue.length === 0 && !failure && !ended) await new Promise<void>((r) => (waiting = r));
          const page = queue.shift();
          if (!page) {
            done = true;
            await worker.terminate();
            throw failure ?? new Error('index reader ended before its last page');
          }
          const { values } = page;
          for (let v = 0; v < values.length; v += 2) {
            const value = values[v + 1] as string;
            decoded.push(values[v] === 1 ? Object.freeze(JSON.parse(value) as string[]) : value);
          }
          if (page.last) {
            done = true;
            void worker.terminate();
          }
          return { done: false, value: documents(page, decoded) };
        },
        async return(): Promise<IteratorResult<Iterable<IndexDocument>>> {
          done = true;
          await worker.terminate();
          return { done: true, value: undefined };
        },
      };
    },
  });
}

function* documents(
  page: PageMessage,
  decoded: ReadonlyArray<string | readonly string[]>,
): Generator<IndexDocument> {
  const { ids, text, ends, codes: c, numbers: x } = page;
  let at = 0;
  for (let i = 0; i < ids.length; i += 1) {
    const k = i * CODE_COLUMNS;
    const m = i * NUMBER_COLUMNS;
    const titleEnd = ends[2 * i] as number;
    const descriptionEnd = ends[2 * i + 1] as number;
    const expiresAt = x[m + 5] as number;
    yield {
      id: ids[i] as string,
      // Slices of the page's one string: no copy of the characters.
      title: text.slice(at, titleEnd),
      description: text.slice(titleEnd, descriptionEnd),
      category: decoded[c[k] as number] as string,
      tags: decoded[c[k + 1] as number] as readonly string[],
      city: decoded[c[k + 2] as number] as string,
      country: decoded[c[k + 3] as number] as string,
      currency: decoded[c[k + 4] as number] as string,
      price: x[m] as number,
      lat: x[m + 1] as number,
      lon: x[m + 2] as number,
      status: decoded[c[k + 5] as number] as OfferStatus,
      publishedAt: x[m + 3] as number,
      updatedAt: x[m + 4] as number,
      expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
    };
    at = descriptionEnd;
  }
}
