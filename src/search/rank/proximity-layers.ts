import { evictLeastRecent } from '../columns/least-recent.js';
import { attributesEnd, type IndexView } from '../index-view.js';
import { PROXIMITY_CAP } from '../rules.js';
import { and, Bitmap, type Bits, membersOf, scratch } from '../sets/slot-sets.js';
import { AdjacentPairs } from './adjacent-pairs.js';
import { TOUCH_BATCH, touchText } from './text-touch.js';

/**
 * The offers holding two stems, by the proximity of the pair (ADR 0040): layer `d - 1` holds the
 * offers whose nearest occurrences of stem `a` then stem `b` (the order typed) are `d` apart, as
 * relevance.ts scanRank counts it (`b` d words after `a`; `a` d - 1 words after `b`; one word
 * holding both: 1), for d < PROXIMITY_CAP; an offer holding both in no layer is at the cap.
 *
 * Kept only for frequent pairs (both stems in at least Tuning.proximityPairsFrom offers), read
 * whole when a relevance walk needs them and reading costs no more than ranking the part it gave
 * up on (`need`, ADR 0043 and 0048), and kept up to
 * Tuning.proximityBytes (the least recently used dropped first). Slots are only appended and a slot's text never changes, so an entry stays
 * exact for the slots it has read; slots added since are read on its next use.
 *
 * A part whose walk gave up and whose pairs are not worth reading whole has its own members read
 * instead of ranked (ADR 0048): the entry keeps them (`read`), so the next part or query over
 * the same offers reads none of them again, and reading the pair whole later skips them.
 */

const LAYERS = PROXIMITY_CAP - 1;

interface Entry {
  layers: Bits[];
  /** Slots read: [0, upTo), and those of `read` (null once the pair was read whole). */
  upTo: number;
  read: Bits | null;
  bytes: number;
}

export class ProximityLayers {
  /** Stem pairs that may stand next to each other anywhere (ADR 0043). */
  readonly adjacent = new AdjacentPairs();
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  /** Frequent pairs walks needed, not read yet, and how many times (bounded: cleared when large). */
  private readonly wanted = new Map<number, number>();

  /** Bytes the kept layers take (CRoaring's serialized size, about its memory). */
  get size(): number {
    return this.bytes;
  }

  /** True when the pair is kept (or needs no keeping: rare) and read up to every slot. */
  ready(ix: IndexView, a: number, b: number): boolean {
    if (!frequent(ix, a, b)) return true;
    const entry = this.entries.get(key(a, b));
    return entry !== undefined && entry.upTo === ix.slots;
  }

  /** True when the pair is rare or has an entry (read whole or in part). */
  kept(ix: IndexView, a: number, b: number): boolean {
    return !frequent(ix, a, b) || this.entries.has(key(a, b));
  }

  /**
   * True when the pair's proximity is known for every offer of `within`: rare, or kept and read
   * for each of them that holds both stems (read whole, or by parts: ADR 0048).
   */
  covers(ix: IndexView, a: number, b: number, within: Bits): boolean {
    if (!frequent(ix, a, b)) return true;
    const entry = this.entries.get(key(a, b));
    if (entry === undefined) return false;
    if (entry.upTo === ix.slots) return true;
    const unread = and(within, stemSet(ix, b)).andInPlace(stemSet(ix, a));
    if (entry.upTo > 0) unread.removeRange(0, entry.upTo);
    if (entry.read !== null) unread.andNotInPlace(entry.read);
    return unread.isEmpty;
  }

  /**
   * What reading the frequent pairs of `pairs` not read whole yet would cost (the offers holding
   * both stems of each, less those a part already read: reading reads them all, not only the
   * query's) and how often the neediest of them was needed, this time included (ADR 0043; a part
   * reads them whole when that cost is at most its size, ADR 0048), and the least needed (`least`,
   * 0 without any). Marks the pairs needed; once a query. `most`: the largest part that may ask (the query's matches); the cost is counted no
   * further than past it (the answer for every part is the same).
   */
  need(
    ix: IndexView,
    pairs: ReadonlyArray<readonly [number, number]>,
    most = Number.POSITIVE_INFINITY,
  ): { cost: number; needs: number; least: number } {
    let needs = 0;
    let least = Number.POSITIVE_INFINITY;
    let cost = 0;
    const unread: Array<readonly [number, number]> = [];
    for (const pair of pairs) {
      const [a, b] = pair;
      if (!frequent(ix, a, b)) continue;
      const k = key(a, b);
      const entry = this.entries.get(k);
      // Kept, read whole once (slots added since are few: read on use).
      if (entry !== undefined && (entry.read === null || entry.upTo > 0)) continue;
      if (this.wanted.size >= 65_536) this.wanted.clear();
      const times = (this.wanted.get(k) ?? 0) + 1;
      this.wanted.set(k, times);
      if (times > needs) needs = times;
      if (times < least) least = times;
      unread.push(pair);
      // What a part's reading already read is not read again.
      if (entry?.read) cost -= entry.read.size;
    }
    // A prefix's stems pair with the same stem of the word before: each stem's set made once.
    const sets = new Map<number, Bits>();
    const setOf = (s: number) => {
      let set = sets.get(s);
      if (set === undefined) {
        set = stemSet(ix, s);
        sets.set(s, set);
      }
      return set;
    };
    for (const [a, b] of unread) {
      cost += setOf(a).andCardinality(setOf(b));
      if (cost > most) break;
    }
    return { cost: Math.max(cost, unread.length > 0 ? 1 : 0), needs, least: unread.length > 0 ? least : 0 };
  }

  /**
   * ORs into `out[d - 1]` the offers among `within` whose pair (a, b) is `d` apart (d < the
   * cap). Frequent pairs from (or into) the kept layers, read whole (`whole`) or for the offers
   * of `within` only, kept; rare ones read from the text.
   */
  orInto(ix: IndexView, a: number, b: number, within: Bits, out: Bits[], whole = true): void {
    if (!frequent(ix, a, b)) {
      // The members holding the rarer stem only (few): an offer without the other is at the cap.
      const docs = ix.dict.stemDocs.data;
      const held = and(within, stemSet(ix, (docs[a] as number) <= (docs[b] as number) ? a : b));
      if (held.size > 0) readPairs(ix, held, a, b, out);
      return;
    }
    const k = key(a, b);
    let entry = this.entries.get(k);
    if (entry === undefined)
      entry = { layers: Array.from({ length: LAYERS }, () => new Bitmap()), upTo: 0, read: null, bytes: 0 };
    else this.entries.delete(k);
    this.entries.set(k, entry);
    if (whole) this.wanted.delete(k);
    if (entry.upTo < ix.slots) {
      // A part's own: its members holding both (a copy of the part, not of a stem's offers).
      const unread = whole ? and(stemSet(ix, a), stemSet(ix, b)) : and(within, stemSet(ix, b));
      if (!whole) unread.andInPlace(stemSet(ix, a));
      if (entry.upTo > 0) unread.removeRange(0, entry.upTo);
      if (entry.read !== null) unread.andNotInPlace(entry.read);
      if (unread.size > 0) readPairs(ix, unread, a, b, entry.layers);
      if (whole) {
        entry.upTo = ix.slots;
        entry.read = null;
      } else if (unread.size > 0) {
        entry.read ??= new Bitmap();
        entry.read.orInPlace(unread);
      }
      if (whole || unread.size > 0) this.measure(entry, k, ix.tuning.proximityBytes);
    }
    for (let d = 0; d < LAYERS; d += 1)
      if (!(entry.layers[d] as Bits).isEmpty)
        (out[d] as Bits).orInPlace(and(entry.layers[d] as Bits, within));
  }

  /** An entry's bytes counted again after a read, the least recent entries dropped past `cap`. */
  private measure(entry: Entry, k: number, cap: number): void {
    this.bytes -= entry.bytes;
    entry.bytes = 0;
    for (const layer of entry.read === null ? entry.layers : [...entry.layers, entry.read]) {
      layer.runOptimize();
      layer.shrinkToFit();
      entry.bytes += layer.getSerializationSizeInBytes('croaring');
    }
    this.bytes += entry.bytes;
    this.bytes = evictLeastRecent(this.entries, k, this.bytes, cap);
  }
}

const key = (a: number, b: number) => a * 4_194_304 + b;

function frequent(ix: IndexView, a: number, b: number): boolean {
  const docs = ix.dict.stemDocs.data;
  const from = ix.tuning.proximityPairsFrom;
  return (docs[a] as number) >= from && (docs[b] as number) >= from;
}

/** The offers holding stem `s` (read only: the word's own set when the stem has one word). */
function stemSet(ix: IndexView, s: number): Bits {
  const words = ix.dict.stemWords[s] as number[];
  if (words.length === 1) return ix.sets.word.get(words[0] as number);
  const out = scratch();
  for (const w of words) out.orInPlace(ix.sets.word.get(w));
  return out;
}

/** readPairs' scratch: each member's proximity, then the members grouped by it (typed arrays). */
let near = new Uint8Array(0);
let grouped = new Uint32Array(0);
const counts = new Int32Array(PROXIMITY_CAP + 1);
let marks = new Uint8Array(0);

/**
 * Reads the pair's proximity in each offer of `slots` (each holds both) into `out`. Each layer's
 * slots are handed to CRoaring as one ascending typed array (read in place, no JS array grown).
 */
function readPairs(ix: IndexView, slots: Bits, a: number, b: number, out: Bits[]): void {
  const members = membersOf(slots, ix.scratchMembers());
  const n = members.length;
  if (near.length < n) {
    near = new Uint8Array(Math.max(n, 2 * near.length));
    grouped = new Uint32Array(near.length);
  }
  counts.fill(0);
  // Each word of stem a marked 1, of stem b 2 (both, when a is b: 3), cleared after the read.
  const words = ix.dict.wordStem.data.length;
  if (marks.length < words) marks = new Uint8Array(Math.max(words, 2 * marks.length));
  const stemWords = ix.dict.stemWords;
  for (const w of stemWords[a] as number[]) marks[w] = (marks[w] as number) | 1;
  for (const w of stemWords[b] as number[]) marks[w] = (marks[w] as number) | 2;
  try {
    for (let i = 0; i < n; i += 1) {
      // A few members' words loaded at once, then read (ADR 0056).
      if (i % TOUCH_BATCH === 0) touchText(ix, members, i, Math.min(n, i + TOUCH_BATCH));
      const d = pairProximity(ix, members[i] as number, marks);
      near[i] = d;
      counts[d] = (counts[d] as number) + 1;
    }
  } finally {
    for (const w of stemWords[a] as number[]) marks[w] = 0;
    for (const w of stemWords[b] as number[]) marks[w] = 0;
  }
  // Counts become each layer's end in `grouped`, then its start as the members are placed.
  for (let d = 1; d <= PROXIMITY_CAP; d += 1) counts[d] = (counts[d] as number) + (counts[d - 1] as number);
  for (let i = n - 1; i >= 0; i -= 1) {
    const d = near[i] as number;
    const at = (counts[d] as number) - 1;
    counts[d] = at;
    grouped[at] = members[i] as number;
  }
  for (let d = 1; d < PROXIMITY_CAP; d += 1) {
    const from = counts[d] as number;
    const to = counts[d + 1] as number;
    if (to > from) (out[d - 1] as Bits).addMany(grouped.subarray(from, to));
  }
}

/**
 * The proximity of stems a then b in one offer, each field on its own (relevance.ts scanRank):
 * `marks` per word, 1 for a word of a, 2 of b, 3 of both (a byte a word: a smaller table to look
 * up than each word's stem, ADR 0056).
 */
function pairProximity(ix: IndexView, slot: number, marks: Uint8Array): number {
  const text = ix.text.data;
  const start = ix.textOffsets.data[2 * slot] as number;
  const middle = ix.textOffsets.data[2 * slot + 1] as number;
  const between = attributesEnd(ix, slot, middle);
  const end = ix.textOffsets.data[2 * slot + 2] as number;
  let best = PROXIMITY_CAP;
  for (let field = 0; field < 3; field += 1) {
    const from = field === 0 ? start : field === 1 ? middle : between;
    const to = field === 0 ? middle : field === 1 ? between : end;
    let lastA = -1;
    let lastB = -1;
    for (let p = from; p < to; p += 1) {
      const m = marks[text[p] as number] as number;
      if (m === 0) continue;
      if (m === 3) return 1;
      const isA = m === 1;
      const isB = !isA;
      if (isB && lastA >= 0 && p - lastA < best) best = p - lastA;
      if (isA && lastB >= 0 && p - lastB + 1 < best) best = p - lastB + 1;
      if (isA) lastA = p;
      else lastB = p;
    }
    if (best === 1) return 1;
  }
  return best;
}
