import type { IndexView } from '../index-view.js';
import type { Bits } from '../sets/slot-sets.js';

/**
 * Loads ahead of reading (ADR 0056). Ranking a member or reading a stem pair's proximity in it
 * costs 0.3–0.5 µs at 1M offers, nearly all of it the first touch of the member's offsets and
 * words: members of a part lie far apart in memory, so each read waits on a cache miss, and a
 * member's word loop is too long for the processor to reach the next member's loads while it
 * waits. A short loop that only loads a few members' offsets and words lets those misses
 * overlap; the reading after it finds them in cache. Nothing is computed from what is loaded:
 * only when memory is fetched changes, never an answer.
 */

/** What `walkInBatches` needs of a scan source (rank-buckets.ts `ScanSource`, which it is). */
export interface BatchedWalkSource {
  walkNewest(members: Bits, visit: (slot: number) => boolean, maxSteps: number): boolean;
  touch?(slots: ArrayLike<number>, from: number, to: number): void;
}

/** Members loaded ahead at a time: enough misses in flight, few enough to stay in cache. */
export const TOUCH_BATCH = 16;

/** Folds every load in, so the compiler cannot drop them as unused. */
let sink = 0;

/**
 * Loads the offsets and each cache line of the words of `slots[from, to)` (and their searchable
 * attributes' counts, if any).
 */
export function touchText(ix: IndexView, slots: ArrayLike<number>, from: number, to: number): void {
  const offsets = ix.textOffsets.data;
  const text = ix.text.data;
  // One load a cache line of 64 bytes.
  const step = 64 / text.BYTES_PER_ELEMENT;
  const attributes = ix.searchable.length === 0 ? null : ix.attributeWords.data;
  let h = sink;
  for (let i = from; i < to; i += 1) {
    const slot = slots[i] as number;
    const start = offsets[2 * slot] as number;
    const end = offsets[2 * slot + 2] as number;
    for (let p = start; p < end; p += step) h ^= text[p] as number;
    if (end > start) h ^= text[end - 1] as number;
    if (attributes !== null) h ^= attributes[slot] as number;
  }
  sink = h;
}

/**
 * `source.walkNewest` with the members met handed to `step` in batches, each batch's words
 * loaded first (`source.touch`, ADR 0056): `step` sees the same members in the same order and
 * the walk ends at the same member, so the answer is the same. Batches grow from 1 to
 * TOUCH_BATCH (doubling), so a walk that stops early meets few members past its stop.
 */
export function walkInBatches(
  source: BatchedWalkSource,
  members: Bits,
  step: (slot: number) => boolean,
  maxSteps: number,
): boolean {
  const touch = source.touch;
  if (touch === undefined) return source.walkNewest(members, step, maxSteps);
  const batch: number[] = [];
  let size = 1;
  let stopped = false;
  const flush = () => {
    touch(batch, 0, batch.length);
    for (let i = 0; i < batch.length && !stopped; i += 1) stopped = step(batch[i] as number);
    batch.length = 0;
    if (size < TOUCH_BATCH) size *= 2;
    return stopped;
  };
  // True also when the walk met every member (none left): the last batch is stepped either way.
  const ended = source.walkNewest(members, (slot) => batch.push(slot) >= size && flush(), maxSteps);
  if (batch.length > 0) flush();
  return ended || stopped;
}
