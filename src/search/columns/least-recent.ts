/**
 * Drops the least recently used entries of `entries` (a Map in use order: a use deletes and sets
 * again) other than `keep` while their bytes are over `cap`; returns the bytes left.
 */
export function evictLeastRecent<K>(
  entries: Map<K, { bytes: number }>,
  keep: K,
  bytes: number,
  cap: number,
): number {
  let left = bytes;
  for (const [k, entry] of entries) {
    if (left <= cap) break;
    if (k === keep) continue;
    entries.delete(k);
    left -= entry.bytes;
  }
  return left;
}
