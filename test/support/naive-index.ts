import {
  type EngineQuery,
  type EngineResult,
  type IndexDocument,
  NO_ATTRIBUTES,
  type SearchIndex,
} from '../../src/search/engine.js';

/**
 * A stand-in `SearchIndex` for lifecycle tests (what the live index holds, when it changes),
 * not for search semantics: it answers every held offer of the query's status, by id.
 */
export function createNaiveIndex(): SearchIndex & { docs: Map<string, IndexDocument> } {
  const docs = new Map<string, IndexDocument>();
  let version = 0;
  return {
    docs,
    schema: NO_ATTRIBUTES,
    upsert(doc) {
      version += 1;
      docs.set(doc.id, doc);
    },
    remove(id) {
      if (docs.delete(id)) version += 1;
    },
    get version() {
      return version;
    },
    statusChangeAfter(now) {
      let next = Number.POSITIVE_INFINITY;
      for (const d of docs.values())
        if (d.status === 'active' && d.expiresAt !== null && d.expiresAt > now && d.expiresAt < next)
          next = d.expiresAt;
      return next;
    },
    search(query: EngineQuery): EngineResult {
      const ids = [...docs.values()]
        .filter((d) => d.status === query.status)
        .map((d) => d.id)
        .sort();
      return { ids: ids.slice(0, query.limit), total: ids.length, facets: {}, nextKeys: null };
    },
    facetValues: () => [],
    get size() {
      return docs.size;
    },
  };
}
