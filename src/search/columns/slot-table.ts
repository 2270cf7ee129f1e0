import { fnv1a } from '../hash.js';
import { grownCapacity } from './growable.js';

/** Entries per position at most before the table grows (linear probing stays short below it). */
const MAX_LOAD = 0.75;

export interface SlotTableState {
  table: Int32Array;
  hashes: Int32Array;
  count: number;
}

/**
 * The live slot of each id (issue 26): an open-addressing table of slots over typed arrays, the
 * ids themselves read from the index's `ids`. A `Map` of a million ids took 29 MiB of heap, and
 * its table doubles when it fills: the write that took the index past 2²⁰ ids added 29 MiB at
 * once. This takes 4 bytes a position (at most 3/4 full) and 4 a slot for its id's hash, and
 * grows like the columns (grownCapacity: an eighth at a time past a million).
 */
export class SlotTable {
  /** slot + 1 at each position, 0 when empty; an id's probe starts at its hash's position. */
  private table: Int32Array = new Int32Array(16);
  /** Each slot's id's hash: compared before the strings, and read to move entries (no string read). */
  private hashes: Int32Array = new Int32Array(16);
  private count = 0;

  constructor(private readonly ids: readonly string[]) {}

  get size(): number {
    return this.count;
  }

  /** The live slot of `id`, or undefined. */
  get(id: string): number | undefined {
    const at = this.find(id, hashOf(id));
    return at < 0 ? undefined : (this.table[at] as number) - 1;
  }

  /** Records `slot` as the live slot of `id` (`ids[slot]`), which has none. */
  set(id: string, slot: number): void {
    const h = hashOf(id);
    if (slot >= this.hashes.length) {
      const hashes = new Int32Array(grownCapacity(this.hashes.length, slot + 1));
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[slot] = h;
    if (this.count + 1 > this.table.length * MAX_LOAD)
      this.resize(grownCapacity(this.table.length, Math.ceil((this.count + 1) / MAX_LOAD)));
    this.place(slot, h);
    this.count += 1;
  }

  /** A copy for a snapshot (snapshot.ts): the positions, and the hashes of the first `slots` slots. */
  state(slots: number): SlotTableState {
    return { table: this.table.slice(), hashes: this.hashes.slice(0, slots), count: this.count };
  }

  /**
   * The table a snapshot kept, over the same ids at the same slots: a start takes it as it is
   * instead of placing a million ids again (0.35–0.5 s of the main thread at 1M).
   */
  restore(state: SlotTableState): void {
    if (state.table.length === 0 || state.count > state.table.length * MAX_LOAD)
      throw new Error('slot table: more entries than its positions allow');
    for (let i = 0; i < state.table.length; i += 1)
      if ((state.table[i] as number) > state.hashes.length || (state.table[i] as number) < 0)
        throw new Error('slot table: an entry past the slots it was kept with');
    this.table = state.table;
    this.hashes = state.hashes.length > 0 ? state.hashes : new Int32Array(16);
    this.count = state.count;
  }

  /** Forgets `id`; its slot, or undefined when it had none. */
  delete(id: string): number | undefined {
    const table = this.table;
    const n = table.length;
    let hole = this.find(id, hashOf(id));
    if (hole < 0) return undefined;
    const slot = (table[hole] as number) - 1;
    // Backward shift (no tombstones): each entry after the hole in its run moves into it unless
    // its probe starts after the hole (cyclically), where a lookup would no longer find it.
    for (let j = next(hole, n); ; j = next(j, n)) {
      const entry = table[j] as number;
      if (entry === 0) break;
      const home = this.home(this.hashes[entry - 1] as number, n);
      if (hole <= j ? hole < home && home <= j : hole < home || home <= j) continue;
      table[hole] = entry;
      hole = j;
    }
    table[hole] = 0;
    this.count -= 1;
    return slot;
  }

  /** The position holding `id`, or −1. */
  private find(id: string, h: number): number {
    const table = this.table;
    const n = table.length;
    for (let i = this.home(h, n); ; i = next(i, n)) {
      const entry = table[i] as number;
      if (entry === 0) return -1;
      if (this.hashes[entry - 1] === h && this.ids[entry - 1] === id) return i;
    }
  }

  private place(slot: number, h: number): void {
    const table = this.table;
    const n = table.length;
    let i = this.home(h, n);
    while (table[i] !== 0) i = next(i, n);
    table[i] = slot + 1;
  }

  private resize(capacity: number): void {
    const old = this.table;
    this.table = new Int32Array(capacity);
    for (let i = 0; i < old.length; i += 1) {
      const entry = old[i] as number;
      if (entry !== 0) this.place(entry - 1, this.hashes[entry - 1] as number);
    }
  }

  private home(h: number, n: number): number {
    return (h >>> 0) % n;
  }
}

const next = (i: number, n: number) => (i + 1 === n ? 0 : i + 1);

/** FNV-1a over the code units, then mixed (ids share prefixes such as `off_`). */
function hashOf(id: string): number {
  let h = fnv1a(id);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}
