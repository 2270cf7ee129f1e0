/**
 * Sorting slots by (value, id) with native typed-array sorts instead of a JS comparator
 * (ADR 0022): at a million slots a comparator sort costs seconds of CPU (tens of millions of
 * closure calls, each comparing two strings on a tie); these cost a few hundred milliseconds.
 *
 * Both sorts pack two 32-bit integers into one 64-bit key, the primary one in the high half
 * and the position in the list in the low half, so one `BigUint64Array.prototype.sort` (no
 * comparator: a native numeric sort) orders the keys and the low halves say where each came
 * from. No BigInt is created: the keys are written and read through a Uint32Array view.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;
const LOW = LITTLE_ENDIAN ? 0 : 1;

/** Characters of an id packed into the high half of its key (8 bits each). */
const PACKED_CHARS = 4;

/**
 * The rank of each listed slot's id: `ranks[i]` for `slots[i]`, unique, 0 … n − 1, in id order
 * (UTF-16 code units, as `<` compares strings), equal ids by position in the list.
 *
 * The key of an id is four of its characters after the prefix every listed id shares (missing
 * ones 0; from the first of 255 or more on, 255: an order that never contradicts the ids'; the
 * ids of the product are ASCII); the few runs of
 * equal keys (ids that agree on those characters, or that the clamp made equal) are then sorted
 * by the ids themselves.
 */
export function rankIds(slots: Int32Array, ids: readonly string[]): Int32Array {
  const n = slots.length;
  const ranks = new Int32Array(n);
  if (n === 0) return ranks;
  const first = ids[slots[0] as number] as string;
  let shared = first.length;
  for (let i = 1; i < n && shared > 0; i += 1) {
    const id = ids[slots[i] as number] as string;
    let k = 0;
    const limit = Math.min(shared, id.length);
    while (k < limit && id.charCodeAt(k) === first.charCodeAt(k)) k += 1;
    shared = k;
  }
  const keys = new BigUint64Array(n);
  const halves = new Uint32Array(keys.buffer);
  for (let i = 0; i < n; i += 1) {
    const id = ids[slots[i] as number] as string;
    let high = 0;
    let code = 0;
    for (let c = shared; c < shared + PACKED_CHARS; c += 1) {
      // Past a character of 255 or more, every key character is 255: still never out of order.
      if (code < 255) code = c < id.length ? Math.min(id.charCodeAt(c), 255) : 0;
      high = high * 256 + code;
    }
    halves[2 * i + HIGH] = high;
    halves[2 * i + LOW] = i;
  }
  keys.sort();
  const byId = (a: number, b: number): number => {
    const p = ids[slots[a] as number] as string;
    const q = ids[slots[b] as number] as string;
    return p < q ? -1 : p > q ? 1 : a - b;
  };
  let start = 0;
  while (start < n) {
    const high = halves[2 * start + HIGH] as number;
    let end = start + 1;
    while (end < n && halves[2 * end + HIGH] === high) end += 1;
    if (end - start === 1) ranks[halves[2 * start + LOW] as number] = start;
    else {
      const run: number[] = [];
      for (let k = start; k < end; k += 1) run.push(halves[2 * k + LOW] as number);
      run.sort(byId);
      for (let k = 0; k < run.length; k += 1) ranks[run[k] as number] = start + k;
    }
    start = end;
  }
  return ranks;
}

/** A value's 64 bits as two 32-bit halves, to be turned into halves that order as values do. */
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/**
 * The listed slots by value ascending, then by `ranks` (rankIds of the same list) ascending: the
 * order of a comparator on (value, id). One native sort of keys made of the value's bits turned
 * to order as the values do (−0 as 0), their last `p` bits replaced by the rank (n ≤ 2^p): equal
 * values are then ordered by rank, and a slot is found back from its rank. Values that differ
 * only in those last bits (a relative difference under 2^(p − 52), rare) come out as ties: such a
 * run is sorted again with the comparator. The columns hold no NaN.
 */
export function sortSlots(slots: Int32Array, values: Float64Array, ranks: Int32Array): Int32Array {
  const n = slots.length;
  let p = 0;
  while (p < 31 && 2 ** p < n) p += 1;
  const mask = p === 0 ? 0 : (0xffffffff >>> (32 - p)) >>> 0;
  const bySlotRank = new Int32Array(n);
  const keys = new BigUint64Array(n);
  const halves = new Uint32Array(keys.buffer);
  for (let i = 0; i < n; i += 1) {
    bits[0] = (values[slots[i] as number] as number) + 0;
    let high = words[HIGH] as number;
    let low = words[LOW] as number;
    // IEEE 754: flip every bit of a negative value, only the sign bit of a positive one.
    if (high >= 0x80000000) {
      high = ~high >>> 0;
      low = ~low >>> 0;
    } else high = (high | 0x80000000) >>> 0;
    const rank = ranks[i] as number;
    halves[2 * i + HIGH] = high;
    halves[2 * i + LOW] = ((low & ~mask) | rank) >>> 0;
    bySlotRank[rank] = slots[i] as number;
  }
  keys.sort();
  const out = new Int32Array(n);
  for (let k = 0; k < n; k += 1) out[k] = bySlotRank[(halves[2 * k + LOW] as number) & mask] as number;
  // Runs of equal truncated values whose values are not all equal: by the comparator.
  let start = 0;
  while (start < n) {
    const high = halves[2 * start + HIGH] as number;
    const truncated = ((halves[2 * start + LOW] as number) & ~mask) >>> 0;
    const first = values[out[start] as number] as number;
    let mixed = false;
    let end = start + 1;
    while (
      end < n &&
      halves[2 * end + HIGH] === high &&
      ((halves[2 * end + LOW] as number) & ~mask) >>> 0 === truncated
    ) {
      if (values[out[end] as number] !== first) mixed = true;
      end += 1;
    }
    if (mixed) {
      const rankOf = (k: number) => (halves[2 * k + LOW] as number) & mask;
      const run: number[] = [];
      for (let k = start; k < end; k += 1) run.push(rankOf(k));
      run.sort((a, b) => {
        const x = values[bySlotRank[a] as number] as number;
        const y = values[bySlotRank[b] as number] as number;
        return x !== y ? (x < y ? -1 : 1) : a - b;
      });
      for (let k = 0; k < run.length; k += 1) out[start + k] = bySlotRank[run[k] as number] as number;
    }
    start = end;
  }
  return out;
}
