import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import type { AttributeDeclaration, IndexDocument, SearchIndex, SearchSchema } from '../search/engine.js';
import type { IndexReader } from './index-reader.js';
import type { IndexRow, OfferStore } from './store.js';

/** Indexes every page into `target`, logging progress every tenth of `expected` (large reads only). */
export async function readInto(
  target: SearchIndex,
  pages: AsyncIterable<Iterable<IndexDocument>>,
  at: { logger: Logger; environment: Environment; expected: number; started: number; page: number },
): Promise<void> {
  const { logger, environment, expected, started } = at;
  logger.info({ environment, offers: expected }, 'search index: reading offers');
  let read = 0;
  let nextReport = expected / 10;
  for await (const docs of pages) {
    for (const doc of docs) {
      target.upsert(doc);
      read += 1;
    }
    if (read >= nextReport && expected >= at.page) {
      logger.info(
        {
          environment,
          read,
          percent: Math.min(100, Math.round((read * 100) / expected)),
          seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
        },
        'search index: progress',
      );
      nextReport += expected / 10;
    }
  }
}

/** The declared attributes of each environment and their version (search-settings/, ADR 0029). */
export interface SchemaSource {
  read(
    environment: Environment,
  ): Promise<{ attributes: SearchSchema['attributes']; rankBy?: SearchSchema['rankBy']; version: number }>;
  version(environment: Environment): Promise<number>;
}

export function toIndexDocument(row: IndexRow, withAttributes = false): IndexDocument {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    city: row.city,
    country: row.country,
    currency: row.currency,
    publisher: row.publisher_id,
    price: row.price_value,
    lat: row.lat,
    lon: row.lon,
    status: row.status,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    // Parsed only when some attribute is declared: the index reads nothing else of them.
    ...(withAttributes ? { attributes: JSON.parse(row.attributes) as Record<string, unknown> } : {}),
  };
}

/** Where the rows of an environment are read from (the live index's start-up, catch-ups, rebuilds). */
export interface PageSource {
  environment: Environment;
  store: Pick<OfferStore, 'scan' | 'changes'>;
  /** Rows per read. */
  page: number;
  /** The start-up read off the event loop (index-reader.ts, ADR 0022). */
  reader?: IndexReader;
  logger: Logger;
}

/** Applies the changes in (from, to] to `target`; resolves to how many rows. */
export async function applyRange(
  src: PageSource,
  target: SearchIndex,
  from: number,
  to: number,
): Promise<number> {
  const withAttributes = target.schema.attributes.length > 0;
  let after: { changeSeq: number; id: string } | null = null;
  let count = 0;
  for (;;) {
    const rows = await src.store.changes(src.environment, { from, to, after }, src.page);
    for (const row of rows) target.upsert(toIndexDocument(row, withAttributes));
    count += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < src.page) break;
    after = { changeSeq: last.change_seq, id: last.id };
  }
  return count;
}

/** The start-up read on this thread: `seq` pages, the next one asked for before this one is indexed. */
async function* scanPages(src: PageSource, withAttributes: boolean): AsyncGenerator<IndexDocument[]> {
  // On PostgreSQL the database reads the next page while this process analyses the current one.
  let next = src.store.scan(src.environment, 0, src.page);
  for (;;) {
    const rows = await next;
    const tail = rows.at(-1);
    if (tail && rows.length === src.page) next = src.store.scan(src.environment, tail.seq, src.page);
    yield rows.map((row) => toIndexDocument(row, withAttributes));
    if (!tail || rows.length < src.page) return;
  }
}

/**
 * The start-up pages: from the worker read when there is one; if it fails (the worker cannot
 * open the database, a driver fails in a worker), from the main thread's read, from the start.
 * Offers already indexed are indexed again (an upsert replaces), which costs dead slots, not
 * correctness.
 */
export async function* startPages(
  src: PageSource,
  attributes: readonly AttributeDeclaration[],
): AsyncGenerator<Iterable<IndexDocument>> {
  // The worker's pages carry the declared attributes' values (and only those).
  if (src.reader) {
    try {
      yield* src.reader(src.environment, attributes);
      return;
    } catch (error) {
      src.logger.warn(
        { err: error, environment: src.environment },
        'search index: the start-up read in a worker failed; reading on the main thread',
      );
    }
  }
  yield* scanPages(src, attributes.length > 0);
}
