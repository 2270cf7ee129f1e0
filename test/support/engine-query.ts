import type { EngineQuery, IndexDocument } from '../../src/search/engine.js';

/**
 * An engine query with every filter unset (active offers, newest first, 20 a page), changed by
 * `more`: each test or bench states only what its query is about.
 */
export function engineQuery(now: number, more: Partial<EngineQuery> = {}): EngineQuery {
  return {
    text: null,
    typoTolerance: 'auto',
    synonyms: [],
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
    attributes: [],
    sort: '-publishedAt',
    limit: 20,
    after: null,
    now,
    ...more,
  };
}

/** An active offer in Paris with this title, as the engine indexes it: text tests state only the text. */
export function textDoc(id: string, title: string, publishedAt: number, description = ''): IndexDocument {
  return {
    id,
    title,
    description,
    category: 'misc',
    tags: [],
    city: 'Paris',
    country: 'FR',
    currency: 'EUR',
    publisher: 'pub_text',
    price: 10_000,
    lat: 48.85,
    lon: 2.35,
    status: 'active',
    publishedAt,
    updatedAt: publishedAt,
    expiresAt: null,
  };
}
