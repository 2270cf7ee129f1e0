/**
 * The next capacity of an array of `length` elements that needs `needed` (issue 26): doubling
 * while small, at most 128 Ki elements more at a time in between, an eighth more past 2²⁰
 * (CPython's lists grow by about as much). A column of a million offers that doubled on the next
 * write held twice the memory it needs (and three times during the copy): under a stream of
 * writes the server's RSS jumped by hundreds of megabytes at once. Restored from a snapshot, the
 * columns are exactly as long as the offers, so at a million (under 2²⁰) the first write doubled
 * them all; past 2²⁰, a quarter left 100 000 offers added to a million holding 38 MiB of new
 * arrays, an eighth 13 MiB (bench/index-growth.ts, ADR 0044). Appends stay amortised O(1).
 */
export const LARGE_ARRAY = 1 << 20;
const MEDIUM_STEP = LARGE_ARRAY >> 3;
export function grownCapacity(length: number, needed: number): number {
  return Math.max(needed, length + Math.max(Math.min(length, MEDIUM_STEP), length >> 3), 4);
}

/**
 * Typed arrays that grow (grownCapacity): the engine's columns, posting lists and positions. Each
 * holds numbers of one kind compactly (no boxed values, no per-element objects), which is what
 * keeps a million offers in a few hundred megabytes.
 */
export class GrowableInt32 {
  data: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length] = value;
    this.length += 1;
  }

  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Int32Array(grownCapacity(this.data.length, capacity));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** Adds `delta` to element `index`, first filling with zeros up to it. */
  bump(index: number, delta: number): void {
    while (this.length <= index) this.push(0);
    this.data[index] = (this.data[index] as number) + delta;
  }

  /** The filled part, without copying. */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  /** Gives back the spare capacity (after a bulk load). */
  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }
}

export class GrowableFloat64 {
  data: Float64Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Float64Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(grownCapacity(this.data.length, this.data.length + 1));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }
}

export class GrowableUint8 {
  data: Uint8Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Uint8Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint8Array(grownCapacity(this.data.length, this.data.length + 1));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  view(): Uint8Array {
    return this.data.subarray(0, this.length);
  }

  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }
}

/**
 * Word ids: two bytes each while every id fits (a vocabulary under 65 536 words, the common
 * case), four bytes once one does not.
 */
export class GrowableWords {
  data: Uint16Array | Int32Array = new Uint16Array(1024);
  length = 0;

  push(value: number): void {
    if (value > 0xffff && this.data instanceof Uint16Array) this.data = Int32Array.from(this.data);
    if (this.length === this.data.length) {
      // At least 1 024: a trimmed empty array has length 0.
      const size = Math.max(grownCapacity(this.length, this.length + 1), 1024);
      const next = this.data instanceof Uint16Array ? new Uint16Array(size) : new Int32Array(size);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }
}
