import { evictLeastRecent } from '../columns/least-recent.js';
import { attributesEnd, type IndexView, type UnionsView } from '../index-view.js';
import { Bitmap, type Bits, copyOf, scratch } from '../sets/slot-sets.js';

/**
 * Unions of many words' bitmaps kept between queries (ADR 0047): a prefix being typed (`co`,
 * `wit`) or a word with many spellings unions hundreds of word sets, one native call each, the
 * same union for every query that types it. Kept per field and set of stems, exact at every
 * use: slots written since are read from their text (or the union made again when they are
 * many), a removed slot is taken out of every union at once. Bounded in bytes, the least
 * recently used dropped first.
 */

export type UnionField = 'word' | 'title' | 'attribute';

interface Entry {
  bits: Bits;
  stems: ReadonlySet<number>;
  /** Slots read: [0, upTo). */
  upTo: number;
  bytes: number;
}

/** Slots written since a union was made past which it is made again rather than caught up. */
const CATCH_UP_MAX = 4096;

export class UnionCache implements UnionsView {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** Bytes the kept unions take (CRoaring's serialized size, about its memory). */
  get size(): number {
    return this.bytes;
  }

  /**
   * The offers holding one of `stems` in `field` (every word of each), as a scratch bitmap the
   * caller may change. Unions of fewer than Tuning.unionsFrom words are made each time.
   */
  union(ix: IndexView, field: UnionField, stems: readonly number[]): Bits {
    const stemWords = ix.dict.stemWords;
    const sets = ix.sets[field];
    // The words' sets are fetched only when the union is made: a kept one reads none of them.
    const each = (visit: (set: Bits) => void) => {
      for (const s of stems) for (const w of stemWords[s] as number[]) visit(sets.get(w));
    };
    let words = 0;
    for (const s of stems) words += (stemWords[s] as number[]).length;
    if (words < ix.tuning.unionsFrom || ix.tuning.unionBytes <= 0) {
      const out = scratch();
      each((set) => out.orInPlace(set));
      return out;
    }
    const key = `${field}:${[...stems].sort((a, b) => a - b).join(',')}`;
    let entry = this.entries.get(key);
    if (entry !== undefined) this.entries.delete(key);
    if (entry === undefined || ix.slots - entry.upTo > CATCH_UP_MAX || ix.slots < entry.upTo) {
      if (entry !== undefined) this.bytes -= entry.bytes;
      const bits = new Bitmap();
      each((set) => bits.orInPlace(set));
      entry = { bits, stems: new Set(stems), upTo: ix.slots, bytes: 0 };
      this.measure(entry);
    } else if (entry.upTo < ix.slots) {
      catchUp(ix, field, entry);
      this.measure(entry);
    }
    this.entries.set(key, entry);
    this.bytes = evictLeastRecent(this.entries, key, this.bytes, ix.tuning.unionBytes);
    return copyOf(entry.bits);
  }

  /** A slot removed from the index: out of every union (a slot's text never changes). */
  removed(slot: number): void {
    for (const entry of this.entries.values()) entry.bits.remove(slot);
  }

  private measure(entry: Entry): void {
    this.bytes -= entry.bytes;
    entry.bytes = entry.bits.getSerializationSizeInBytes('croaring');
    this.bytes += entry.bytes;
  }
}

/** Adds the live slots written since the union was made that hold one of its stems in `field`. */
function catchUp(ix: IndexView, field: UnionField, entry: Entry): void {
  const text = ix.text.data;
  const offsets = ix.textOffsets.data;
  const wordStem = ix.dict.wordStem.data;
  const alive = ix.alive.data;
  for (let slot = entry.upTo; slot < ix.slots; slot += 1) {
    if (alive[slot] === 0) continue;
    const start = offsets[2 * slot] as number;
    const middle = offsets[2 * slot + 1] as number;
    const end = offsets[2 * slot + 2] as number;
    const from = field === 'attribute' ? middle : start;
    const to = field === 'title' ? middle : field === 'attribute' ? attributesEnd(ix, slot, middle) : end;
    for (let p = from; p < to; p += 1) {
      if (entry.stems.has(wordStem[text[p] as number] as number)) {
        entry.bits.add(slot);
        break;
      }
    }
  }
  entry.upTo = ix.slots;
}
