/**
 * FNV-1a, 32 bits, over a string's UTF-16 code units: the one string hash of the engine's tables
 * (the analysis memo, which also folds it in while it scans a text, and the id slot table) and of
 * the answer cache's doorkeeper. Fast and well spread for table slots; not for anything an
 * attacker must not predict.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}
