import type { Environment } from '../platform/environment.js';
import { siblingModule, startModuleWorker } from '../platform/module-worker.js';
import type { AttributeDeclaration, IndexDocument } from '../search/engine.js';
import { CODE_COLUMNS, NUMBER_COLUMNS } from './index-page.js';
import type {
  IndexPageMessage,
  IndexReaderCredit,
  IndexReaderMessage,
  IndexReaderWorkerData,
} from './index-reader-worker.js';
import type { OfferStatus } from './schemas.js';

/**
 * The start-up read of the search index off the event loop (issue 12, ADR 0022): a worker thread
 * with its own read-only connection (SQLite: better-sqlite3; PostgreSQL: one `pg` client) reads
 * every offer of an environment in `seq` order, a page at a time, while the main thread indexes
 * the page before. It reads only the columns the index needs, as arrays (no row objects), and
 * sends each page in a form that is cheap for the main thread to take in:
 *
 * - the numbers in one Float64Array, transferred (moved, not copied);
 * - the low-cardinality strings (category, city, country, currency, status, publisher id, and the
 *   tags' JSON)
 *   as codes of a dictionary the worker keeps, in one Int32Array, with the values first seen in
 *   this page: the main thread gets each distinct value once and parses each distinct tags JSON
 *   once, not once per offer;
 * - the ids as an array of strings, and every title and description of the page as one string,
 *   sliced per document on the main thread (one allocation instead of two per offer);
 * - with declared attributes (ADR 0029), only the declared values, one Float64 per offer and
 *   attribute, transferred: numbers and booleans as the index holds them, strings as codes of the
 *   same dictionary (each distinct value as written sent once). The worker parses each offer's
 *   `attributes` JSON; the main thread makes a small object of the declared values per document
 *   and never parses it (issue 23).
 *
 * At most `ahead` pages are read beyond the one being indexed (the main thread acknowledges each
 * page once indexed), so memory stays bounded whatever the two threads' speeds. The worker is
 * a module of its own (index-reader-worker.ts, issue 14), type-checked with the rest and started
 * with `startModuleWorker` (platform/module-worker.ts): the compiled `.js` in the build, the `.ts`
 * through tsx's loader from the sources and under vitest. The messages' types are shared with it
 * through `import type`; the page's layout is index-page.ts.
 */

export type IndexReaderSource = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/**
 * Reads every offer of an environment for the index, one page of documents at a time. A page's
 * documents are made as they are iterated: each is garbage once indexed, so the young
 * generation's collections find little alive (a whole page of documents alive at every
 * collection cost ~3 s of copying at 1M offers, measured).
 */
export type IndexReader = (
  environment: Environment,
  attributes?: readonly AttributeDeclaration[],
) => AsyncIterable<Iterable<IndexDocument>>;

const WORKER_MODULE = siblingModule('index-reader-worker', import.meta.url);

/**
 * Opens one worker per call to the returned reader; it ends when the environment's last page is
 * read, or when the consumer stops early (its iterator's `return`). Rows are read `pageSize` at
 * a time (default 2 500), at most `ahead` pages (default 4) beyond the one being indexed.
 */
export function createIndexReader(
  source: IndexReaderSource,
  options: { pageSize?: number; ahead?: number } = {},
): IndexReader {
  // 2 500 rows a page: a page's rows are alive at each of the worker's young collections, and
  // pages of 10 000 cost ~1.5 s more CPU at 1M offers in those (measured); four pages ahead keep
  // the main thread from waiting.
  const pageSize = options.pageSize ?? 2_500;
  const ahead = options.ahead ?? 4;
  return (environment, declared = []) => ({
    [Symbol.asyncIterator]: () => {
      const attributes = declared.map(({ name, type }) => ({ name, type }));
      const workerData: IndexReaderWorkerData = { ...source, environment, pageSize, ahead, attributes };
      const worker = startModuleWorker(WORKER_MODULE, { workerData });
      const queue: IndexPageMessage[] = [];
      let failure: Error | null = null;
      let ended = false;
      let waiting: (() => void) | null = null;
      const notify = () => {
        const w = waiting;
        waiting = null;
        w?.();
      };
      worker.on('message', (message: IndexReaderMessage) => {
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
          if (!first) worker.postMessage(0 satisfies IndexReaderCredit);
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
          return { done: false, value: documents(page, decoded, attributes) };
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
  page: IndexPageMessage,
  decoded: ReadonlyArray<string | readonly string[]>,
  declared: ReadonlyArray<Pick<AttributeDeclaration, 'name' | 'type'>>,
): Generator<IndexDocument> {
  const { ids, text, ends, codes: c, numbers: x, attributes: a } = page;
  const count = declared.length;
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
      publisher: decoded[c[k + 6] as number] as string,
      price: x[m] as number,
      lat: x[m + 1] as number,
      lon: x[m + 2] as number,
      status: decoded[c[k + 5] as number] as OfferStatus,
      publishedAt: x[m + 3] as number,
      updatedAt: x[m + 4] as number,
      expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
      ...(count > 0 ? { attributes: declaredValues(a, i * count, declared, decoded) } : {}),
    };
    at = descriptionEnd;
  }
}

/** The declared values of one offer (those it has), as the index reads them. */
function declaredValues(
  a: Float64Array,
  at: number,
  declared: ReadonlyArray<Pick<AttributeDeclaration, 'name' | 'type'>>,
  decoded: ReadonlyArray<string | readonly string[]>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (let j = 0; j < declared.length; j += 1) {
    const v = a[at + j] as number;
    if (Number.isNaN(v)) continue;
    const { name, type } = declared[j] as (typeof declared)[number];
    values[name] = type === 'string' ? decoded[v] : v;
  }
  return values;
}
