/**
 * Offer ids as numbers for comparing (the last tie-break of every order, ADR 0014). Comparing
 * two id strings reads both from the heap, a cache miss each, and the price order ties on most
 * neighbours (a price is whole units more often than not): folding 62 500 updates into the
 * price order of 1M offers took 450 ms, nearly all of it string comparisons. A key packs an
 * id's first code units into a number that orders like the string wherever it differs: keys
 * that differ give the answer; equal keys leave it to the strings.
 */

/** Code units packed, base 128: 7 × 7 bits, within a double's 53 exact bits. */
const UNITS = 7;
const BASE = 128;

/**
 * `a < b` ⇒ key(a) ≤ key(b), and key(a) < key(b) ⇒ `a < b` (JavaScript's string order, by
 * code unit). A unit of 127 or more is packed as 127 and ends the key (the units after it would
 * not keep the order), so ids beyond ASCII fall back to the strings sooner.
 */
export function idKey(id: string): number {
  let key = 0;
  let ended = false;
  for (let i = 0; i < UNITS; i += 1) {
    let unit = 0;
    if (!ended && i < id.length) {
      unit = id.charCodeAt(i);
      if (unit >= BASE - 1) {
        unit = BASE - 1;
        ended = true;
      }
    }
    key = key * BASE + unit;
  }
  return key;
}

/** Orders two ids by their keys, then, when the keys are equal, by the strings. */
export function compareIds(a: string, keyA: number, b: string, keyB: number): number {
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
