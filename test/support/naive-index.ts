import type { EngineQuery, EngineResult, IndexDocument, SearchIndex } from '../../src/search/engine.js';

/**
 * A stand-in `SearchIndex` for lifecycle tests (what the live index holds, when it changes),
 * not for search semantics: it answers every held offer of the query's status, by id.
 */
export function createNaiveIndex(): SearchIndex & { docs: Map<string, IndexDocument> } {
  const docs = new Map<string, IndexDocument>();
  return {
    docs,
    upsert(doc) {
      docs.set(doc.id, doc);
    },
    remove(id) {
      docs.delete(id);
    },
    search(query: EngineQuery): EngineResult {
      const ids = [...docs.values()]
        .filter((d) => d.status === query.status)
        .map((d) => d.id)
        .sort();
      return { ids: ids.slice(0, query.limit), total: ids.length, facets: {}, nextKeys: null };
    },
    get size() {
      return docs.size;
    },
  };
}
