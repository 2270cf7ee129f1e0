/**
 * Typed arrays that grow by doubling: the engine's columns, posting lists and positions. Each
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
    const next = new Int32Array(Math.max(capacity, this.data.length * 2, 4));
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
      const next = new Float64Array(Math.max(this.data.length * 2, 4));
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
      const next = new Uint8Array(Math.max(this.data.length * 2, 4));
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
      const size = Math.max(this.length * 2, 1024);
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
