import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import type { IndexDocument, SearchIndex, SearchSchema } from '../search/engine.js';
import type { IndexRow } from './store.js';

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
  read(environment: Environment): Promise<{ attributes: SearchSchema['attributes']; version: number }>;
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
