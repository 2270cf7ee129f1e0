/**
 * A memo of at most `max` entries (issue 14): prepared statements and rewritten SQL are cached by
 * their text, and text built at run time (an `IN (?, ?, …)` of each length) must not grow a cache
 * without end. Evicts the oldest entry first; a hit costs one Map lookup, nothing more.
 */
export function boundedCache<V>(
  max: number,
  create: (key: string) => V,
): { get(key: string): V; readonly size: number } {
  const entries = new Map<string, V>();
  return {
    get(key) {
      let value = entries.get(key);
      if (value === undefined) {
        value = create(key);
        if (entries.size >= max) entries.delete(entries.keys().next().value as string);
        entries.set(key, value);
      }
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}

/** Statements kept per connection: far more than the SQL Vitrine writes, far less than memory. */
export const STATEMENT_CACHE_SIZE = 500;
