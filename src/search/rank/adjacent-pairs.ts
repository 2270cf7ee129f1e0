import type { IndexView } from '../index-view.js';
import type { Plan, Unit } from '../query/plan.js';

/**
 * Stem pairs that may stand next to each other (ADR 0043): a Bloom filter of (a, b) for every
 * word of stem a followed by a word of stem b in one field of some slot's text, as relevance.ts
 * scanRank reads it. Proximity 1 for a pair of units needs such a pair (or one word holding a
 * stem of both): when the filter holds none of their stem pairs, no offer has them at 1, and a
 * relevance part's floor counts that pair at 2 at least. A false positive only leaves the floor
 * where it was; so does a slot that died (its words stay in the filter).
 *
 * Read from the text at the index's warm-up (or first use), extended on each use to the slots
 * added since (slots are only appended and a slot's words never change). Its size follows the
 * text read (4 bits a word, a power of two) up to Tuning.adjacentPairsBits, read again from the
 * start when it doubles; below 1 024 bits: no filter (every pair may be adjacent).
 */

/** Bits a text word is given, until the cap. */
const BITS_PER_WORD = 4;
const MIN_BITS = 1024;

export class AdjacentPairs {
  private words: Uint32Array = new Uint32Array(0);
  /** Slots read: [0, upTo). */
  private upTo = 0;

  /** Bytes the filter takes. */
  get size(): number {
    return this.words.byteLength;
  }

  /** False when no slot's text has a word of stem `a` right before one of stem `b`. */
  mayAdjoin(ix: IndexView, a: number, b: number): boolean {
    if (ix.tuning.adjacentPairsBits < MIN_BITS) return true;
    this.catchUp(ix);
    return this.has(a, b);
  }

  /** Reads the slots added since the last use (every slot the first time: the index's `warm`). */
  catchUp(ix: IndexView): void {
    const cap = ix.tuning.adjacentPairsBits;
    if (this.upTo === ix.slots || cap < MIN_BITS) return;
    const offsets = ix.textOffsets.data;
    const total = offsets[2 * ix.slots] as number;
    let bits = MIN_BITS;
    while (bits < cap && bits < total * BITS_PER_WORD) bits *= 2;
    if (bits > this.words.length * 32) {
      this.words = new Uint32Array(bits / 32);
      this.upTo = 0;
    }
    const text = ix.text.data;
    const wordStem = ix.dict.wordStem.data;
    for (let slot = this.upTo; slot < ix.slots; slot += 1)
      for (let field = 0; field < 2; field += 1) {
        const to = offsets[2 * slot + field + 1] as number;
        let p = offsets[2 * slot + field] as number;
        if (p >= to) continue;
        let previous = wordStem[text[p] as number] as number;
        for (p += 1; p < to; p += 1) {
          const s = wordStem[text[p] as number] as number;
          this.add(previous, s);
          previous = s;
        }
      }
    this.upTo = ix.slots;
  }

  /** What a snapshot keeps (snapshot.ts): the filter's words (a copy) and the slots it has read. */
  state(): { words: Uint32Array; upTo: number } {
    return { words: this.words.slice(), upTo: this.upTo };
  }

  /**
   * The filter a snapshot kept, over its slots `[0, upTo)`: a start reads only the slots added
   * since instead of every slot's text again (half a second at 1M offers).
   */
  restore(words: Uint32Array, upTo: number): void {
    // A position is a hash masked by the length: a power of two, or no filter at all.
    if ((words.length & (words.length - 1)) !== 0) throw new Error('pair filter: not a power of two long');
    this.words = words;
    this.upTo = words.length === 0 ? 0 : upTo;
  }

  private add(a: number, b: number): void {
    const h = hash(a, b);
    const at = h & (this.words.length - 1);
    this.words[at] = (this.words[at] as number) | mask(h);
  }

  private has(a: number, b: number): boolean {
    const h = hash(a, b);
    const m = mask(h);
    return ((this.words[h & (this.words.length - 1)] as number) & m) === m;
  }
}

/**
 * The least proximity any offer can have (ADR 0043): each pair of units at 1 when one of its stem
 * pairs may stand next to each other somewhere (the filter) or a stem is both units', else
 * at 2. Without sequences only (a sequence matched makes a unit's bit without its stems).
 */
export function leastProximity(ix: IndexView, adjacent: AdjacentPairs, plan: Plan): number {
  let least = 0;
  for (let u = 0; u + 1 < plan.units.length; u += 1) {
    const next = (plan.units[u + 1] as Unit).costs;
    let one = false;
    for (const a of (plan.units[u] as Unit).costs.keys()) {
      for (const b of next.keys())
        if (a === b || adjacent.mayAdjoin(ix, a, b)) {
          one = true;
          break;
        }
      if (one) break;
    }
    least += one ? 1 : 2;
  }
  return least;
}

/** A 32-bit mix of the pair (stem ids are below 2^22). */
function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/** Two bits of one 32-bit word (a blocked filter: one memory read a test), from the hash's high bits. */
function mask(h: number): number {
  const g = Math.imul(h, 0x27d4eb2f) >>> 0;
  return (1 << (g >>> 27)) | (1 << ((g >>> 22) & 31));
}
