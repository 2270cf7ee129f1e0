import { Bitmap, type Bits } from '../sets/slot-sets.js';
import { type SectionReader, type SectionWriter, SnapshotFormatError } from './snapshot-io.js';

/** Lists of bitmaps in a snapshot (snapshot.ts). */

/** Serialized bitmap bytes per section, about. */
const BITMAP_BYTES_PER_SECTION = 4 << 20;
/**
 * A section of bitmaps ends after this much work on the event loop, whatever its size: writing
 * it awaits the disk, which lets requests in (thousands of small bitmaps take milliseconds).
 */
const SLICE_MS = 8;
const ABSENT = 0xffffffff;

/**
 * Bitmaps in sections: [count][length of each, ABSENT for none][their portable serializations],
 * serialized into one reused block (a Buffer per bitmap would bring on full collections). A list
 * is one or more sections, none of them empty but the one section of an empty list, so that the
 * reader, which knows the list's length, reads exactly the sections written.
 */
export async function writeBitmaps(w: SectionWriter, sets: Iterable<Bits | undefined>): Promise<void> {
  const block = Buffer.allocUnsafeSlow(BITMAP_BYTES_PER_SECTION);
  let used = 0;
  let lengths: number[] = [];
  let sliceStarted = performance.now();
  let emitted = false;
  const emit = async (content: Uint8Array) => {
    const head = Buffer.alloc(4 * (lengths.length + 1));
    head.writeUInt32LE(lengths.length, 0);
    lengths.forEach((n, i) => {
      head.writeUInt32LE(n, 4 * (i + 1));
    });
    await w.section([head, content]);
    lengths = [];
    used = 0;
    sliceStarted = performance.now();
    emitted = true;
  };
  for (const set of sets) {
    if (set === undefined) lengths.push(ABSENT);
    else {
      const size = set.getSerializationSizeInBytes('portable');
      if (used + size > block.length && lengths.length > 0) await emit(block.subarray(0, used));
      if (size > block.length) {
        lengths.push(size);
        await emit(set.serialize('portable'));
        continue;
      }
      set.serialize('portable', block.subarray(used, used + size));
      lengths.push(size);
      used += size;
    }
    if (
      lengths.length >= 65_536 ||
      (lengths.length % 64 === 0 && performance.now() - sliceStarted > SLICE_MS)
    )
      await emit(block.subarray(0, used));
  }
  // Not an empty section after the last one (a slice's end can fall on the list's end).
  if (lengths.length > 0 || !emitted) await emit(block.subarray(0, used));
}

export async function readBitmaps(
  r: SectionReader,
  count: number,
  slots: number,
): Promise<Array<Bits | undefined>> {
  const out: Array<Bits | undefined> = [];
  // At least one section: an empty list is written as one section of no bitmaps.
  do {
    const section = await r.bytes();
    const n = section.readUInt32LE(0);
    let at = 4 * (n + 1);
    for (let i = 0; i < n; i += 1) {
      const length = section.readUInt32LE(4 * (i + 1));
      if (length === ABSENT) {
        out.push(undefined);
        continue;
      }
      const bits = Bitmap.deserialize(section.subarray(at, at + length), 'portable');
      at += length;
      // Slots handed out while the snapshot was written are not in it (see the module comment).
      if (!bits.isEmpty && bits.maximum() >= slots) bits.removeRange(slots, 2 ** 32);
      out.push(bits);
    }
    if (n === 0 && out.length < count) throw new SnapshotFormatError('snapshot bitmaps are short');
  } while (out.length < count);
  if (out.length !== count) throw new SnapshotFormatError('snapshot holds more bitmaps than its count');
  return out;
}
