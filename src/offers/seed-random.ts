/** Seeded randomness for the synthetic-offer generator (seed.ts): one small PRNG per offer. */

// ---------------------------------------------------------------- randomness

/** Murmur3 finaliser: spreads nearby inputs (index 7 vs 8) over the whole state space. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Both halves of each number are mixed so seeds and indices beyond 2^32 still differ. */
export function offerSeed(seed: number, index: number): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ Math.floor(seed / 0x1_0000_0000));
  h = mix32(h ^ index);
  return mix32(h ^ Math.floor(index / 0x1_0000_0000) ^ 0x632be5ab);
}

/** mulberry32: tiny state, fast, and good enough for synthetic data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed | 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), this.state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng.next() * items.length)];
  if (item === undefined) throw new Error('seed: pick from an empty list');
  return item;
}

export class Weighted<T> {
  private readonly entries: readonly { item: T; upTo: number }[];
  private readonly total: number;
  constructor(items: readonly T[], weight: (item: T) => number) {
    let total = 0;
    this.entries = items.map((item) => {
      total += weight(item);
      return { item, upTo: total };
    });
    this.total = total;
  }
  pick(rng: Rng): T {
    const r = rng.next() * this.total;
    for (const e of this.entries) if (r < e.upTo) return e.item;
    // Only reachable through float rounding at the very top of the range.
    return pick(rng, this.entries).item;
  }
}
