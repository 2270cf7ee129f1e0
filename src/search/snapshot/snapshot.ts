import type { SpellingsState } from '../attributes/spellings.js';
import type { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../columns/growable.js';
import { NO_ATTRIBUTES, type SearchSchema } from '../engine.js';
import { Index, type Tuning } from '../index/search-index.js';
import { Bitmap, type Bits } from '../sets/slot-sets.js';
import { readBitmaps, writeBitmaps } from './snapshot-bitmaps.js';
import {
  readStrings,
  type SectionReader,
  type SectionWriter,
  SnapshotFormatError,
  writeStrings,
} from './snapshot-io.js';

/**
 * A search index on disk (ADR 0024): every structure of an `Index` (columns, ids, interned
 * values, tags, text word ids, the dictionary, the bitmaps, the geo grid, the price buckets, the
 * sorted orders, the counts) written section by section and read back into an equal index, so a
 * start loads it instead of analysing every offer again.
 *
 * A snapshot is taken of a quiescent index (no catch-up half applied) at its change sequence,
 * and written while the index keeps serving and taking changes. What is captured at once (the
 * live flags and counts, copied; the lengths of the append-only columns) is exact for that
 * sequence. The bitmaps are read as the write reaches them, so they may have lost slots that
 * died since, and gained slots past the captured ones; loading drops the latter, and the catch-up
 * that follows every load re-applies every change past the sequence, removing the former again
 * (a removal from a bitmap is idempotent). After the catch-up the index is what a full build
 * would make. The header and its validity rules: snapshot-header.ts; the file format: snapshot-io.ts.
 */

type Column = GrowableInt32 | GrowableFloat64 | GrowableUint8;

/** What a snapshot holds, captured at one moment (synchronously), written later. */
export interface IndexCapture {
  slots: number;
  live: number;
  alive: Uint8Array;
  columns: Array<{ name: string; data: Uint8Array | Int32Array | Float64Array }>;
  text: Uint16Array | Int32Array;
  ids: readonly string[];
  tables: Record<string, string[]>;
  statusCounts: number[];
  valueCounts: Int32Array[];
  words: { text: readonly string[]; count: number; stem: Int32Array; docs: Int32Array };
  stems: { text: readonly string[]; count: number; docs: Int32Array };
  setCounts: Record<string, number>;
  cells: number;
  orders: Array<{ sorted: Int32Array; covered: number }>;
  /** The stem-pairs filter of the proximity floors (rank/adjacent-pairs.ts) and the slots it has read. */
  adjacent: { words: Uint32Array; upTo: number };
  /** The id lookup: each slot's id key (order/id-keys.ts) and the id table (columns/slot-table.ts). */
  lookup: ReturnType<Index['lookupState']>;
  /** The declarations the index was built with (the header's fingerprint). */
  schema: SearchSchema;
  /**
   * Each declared attribute's column (ADR 0029): values by slot, interned strings, value sets,
   * a string column's spellings (attributes/spellings.ts).
   */
  attributes: Array<{
    name: string;
    values: Float64Array;
    table: string[];
    sets: number;
    spellings?: SpellingsState;
  }>;
}

const COLUMNS = [
  'status',
  'activeUntil',
  'publishedAt',
  'updatedAt',
  'price',
  'lat',
  'lon',
  'category',
  'city',
  'country',
  'currency',
  'publisher',
  'tagOffsets',
  'tagIds',
  'textOffsets',
  'attributeWords',
] as const;

const VALUE_COUNT_COLUMNS = ['category', 'city', 'country', 'tag'] as const;
const SET_NAMES = [
  'status',
  'category',
  'city',
  'country',
  'currency',
  'tag',
  'word',
  'title',
  'attribute',
] as const;
const ORDERS = ['byPublished', 'byExpiry', 'byPrice'] as const;

function columnLength(index: Index, name: (typeof COLUMNS)[number], slots: number): number {
  if (name === 'tagOffsets') return slots + 1;
  if (name === 'textOffsets') return 2 * slots + 1;
  if (name === 'tagIds') return index.tagOffsets.data[slots] as number;
  if (name === 'attributeWords') return index.searchable.length === 0 ? 0 : slots;
  return slots;
}

/** The index as it is now; call between catch-ups, never during one. */
export function captureIndex(index: Index): IndexCapture {
  const slots = index.slots;
  const setCounts: Record<string, number> = {};
  for (const name of SET_NAMES) setCounts[name] = index.sets[name].length;
  setCounts.price = index.priceBuckets.sets.length;
  return {
    slots,
    live: index.size,
    alive: index.alive.data.slice(0, slots),
    columns: COLUMNS.map((name) => {
      const column = index[name] as Column;
      return { name, data: column.data.subarray(0, columnLength(index, name, slots)) };
    }),
    text: index.text.data.subarray(0, index.textOffsets.data[2 * slots] as number),
    ids: index.ids,
    tables: Object.fromEntries(Object.entries(index.tables).map(([name, t]) => [name, t.values.slice()])),
    statusCounts: [...index.statusCounts],
    valueCounts: index.valueCounts.flatMap((c) => VALUE_COUNT_COLUMNS.map((name) => c[name].view().slice())),
    words: {
      text: index.dict.wordText,
      count: index.dict.wordText.length,
      stem: index.dict.wordStem.view(),
      docs: index.dict.wordDocs.view().slice(),
    },
    stems: {
      text: index.dict.stemText,
      count: index.dict.stemCount,
      docs: index.dict.stemDocs.view().slice(),
    },
    setCounts,
    cells: index.grid.cellCount,
    orders: ORDERS.map((name) => index[name].state()),
    adjacent: index.proximity.adjacent.state(),
    lookup: index.lookupState(),
    schema: index.schema,
    attributes: [...index.attributes.byName.values()].map((column) => ({
      name: column.declaration.name,
      values: column.values.data.subarray(0, slots),
      table: column.table.values.slice(),
      sets: column.sets.length,
      spellings: column.spellings?.state(),
    })),
  };
}

/** Slots whose ids are put in the id lookup between two turns of the event loop, at load. */
const RESTORE_STEP = 32_768;

export async function writeIndex(w: SectionWriter, index: Index, c: IndexCapture): Promise<void> {
  const meta = {
    slots: c.slots,
    live: c.live,
    textKind: c.text instanceof Uint16Array ? 'u16' : 'i32',
    tables: c.tables,
    statusCounts: c.statusCounts,
    words: c.words.count,
    stems: c.stems.count,
    setCounts: c.setCounts,
    cells: c.cells,
    covered: c.orders.map((o) => o.covered),
    adjacentUpTo: c.adjacent.upTo,
    lookupCount: c.lookup.table.count,
    // Spellings in the meta: a snapshot without them (written before) shows values folded.
    attributes: c.attributes.map((a) => ({
      name: a.name,
      table: a.table,
      sets: a.sets,
      spellings: a.spellings,
    })),
  };
  await w.json(meta);
  await writeStrings(w, c.ids, c.slots);
  await w.typed(c.alive);
  for (const column of c.columns) await w.typed(column.data);
  await w.typed(c.text);
  for (const counts of c.valueCounts) await w.typed(counts);
  await writeStrings(w, c.words.text, c.words.count);
  await w.typed(c.words.stem);
  await w.typed(c.words.docs);
  await writeStrings(w, c.stems.text, c.stems.count);
  await w.typed(c.stems.docs);
  for (const name of SET_NAMES) await writeBitmaps(w, index.sets[name].flushed(c.setCounts[name] as number));
  await writeBitmaps(w, index.priceBuckets.sets.flushed(c.setCounts.price as number));
  // The grid's shape (cell key, fine cell count, their keys), then its bitmaps in that order.
  // Both taken in one pass: a fine cell added while the bitmaps are written is in neither.
  const shape: number[] = [];
  const bitmaps: Bits[] = [];
  for (const cell of index.grid.cellsForSnapshot(c.cells)) {
    shape.push(cell.key, cell.fine.size);
    bitmaps.push(cell.bits);
    for (const [key, fine] of cell.fine) {
      shape.push(key);
      bitmaps.push(fine.bits);
    }
  }
  await w.typed(Int32Array.from(shape));
  await writeBitmaps(w, bitmaps);
  for (const order of c.orders) await w.typed(order.sorted);
  for (const a of c.attributes) {
    await w.typed(a.values);
    const column = index.attributes.byName.get(a.name);
    await writeBitmaps(w, column ? column.sets.flushed(a.sets) : []);
  }
  await w.typed(c.adjacent.words);
  await w.typed(c.lookup.keys);
  await w.typed(c.lookup.table.table);
  await w.typed(c.lookup.table.hashes);
  await w.json({ end: true });
}

type Meta = {
  slots: number;
  live: number;
  textKind: 'u16' | 'i32';
  tables: Record<string, string[]>;
  statusCounts: number[];
  words: number;
  stems: number;
  setCounts: Record<string, number>;
  cells: number;
  covered: number[];
  adjacentUpTo: number;
  lookupCount: number;
  attributes?: Array<{ name: string; table: string[]; sets: number; spellings?: SpellingsState }>;
};

const int32 = (r: SectionReader) => r.typed((n) => new Int32Array(n), 4);
const float64 = (r: SectionReader) => r.typed((n) => new Float64Array(n), 8);
const uint8 = (r: SectionReader) => r.typed((n) => new Uint8Array(n), 1);

function fill(column: Column, data: Uint8Array | Int32Array | Float64Array, length: number): void {
  if (data.length !== length) throw new SnapshotFormatError('snapshot column has the wrong length');
  column.data = data as never;
  column.length = length;
}

/**
 * Reads what writeIndex wrote into a new Index built for `schema` (the declarations the header
 * was checked against: its attribute columns must be the snapshot's).
 */
export async function readIndex(
  r: SectionReader,
  tuning: Tuning,
  schema: SearchSchema = NO_ATTRIBUTES,
): Promise<Index> {
  const meta = await r.json<Meta>();
  const index = new Index(tuning, schema);
  const names = (meta.attributes ?? []).map((a) => a.name);
  if (names.join(',') !== [...index.attributes.byName.keys()].join(','))
    throw new SnapshotFormatError('snapshot attribute columns are not the declared ones');
  const { slots } = meta;
  await readStrings(r, slots, (id) => index.ids.push(id));
  if (index.ids.length !== slots) throw new SnapshotFormatError('snapshot ids do not match its slots');
  fill(index.alive, await uint8(r), slots);
  for (const name of COLUMNS) {
    const column = index[name] as Column;
    const data = await readColumn(r, column);
    const expected = name === 'tagIds' ? data.length : columnLength(index, name, slots);
    fill(column, data, expected);
  }
  const text = meta.textKind === 'u16' ? await r.typed((n) => new Uint16Array(n), 2) : await int32(r);
  // Room to grow: GrowableWords doubles its length, which must not be 0.
  const words =
    text instanceof Uint16Array ? new Uint16Array(text.length + 1024) : new Int32Array(text.length + 1024);
  words.set(text);
  index.text.data = words;
  index.text.length = text.length;
  for (const counts of index.valueCounts)
    for (const name of VALUE_COUNT_COLUMNS) {
      const data = await int32(r);
      fill(counts[name], data, data.length);
    }
  for (const [name, table] of Object.entries(index.tables))
    for (const value of meta.tables[name] ?? []) table.id(value);
  meta.statusCounts.forEach((n, i) => {
    index.statusCounts[i] = n;
  });
  const wordText: string[] = [];
  await readStrings(r, meta.words, (w) => wordText.push(w));
  const wordStem = await int32(r);
  const wordDocs = await int32(r);
  const stemText: string[] = [];
  await readStrings(r, meta.stems, (s) => stemText.push(s));
  const stemDocs = await int32(r);
  index.dict.restore({ words: wordText, wordStem, wordDocs, stems: stemText, stemDocs });
  for (const name of SET_NAMES)
    index.sets[name].restore(await readBitmaps(r, meta.setCounts[name] as number, slots));
  index.priceBuckets.sets.restore(await readBitmaps(r, meta.setCounts.price as number, slots));
  await readGrid(r, index, meta.cells, slots);
  for (const [i, name] of ORDERS.entries()) index[name].restore(await int32(r), meta.covered[i] as number);
  for (const a of meta.attributes ?? []) {
    const column = index.attributes.byName.get(a.name);
    if (!column) throw new SnapshotFormatError('snapshot attribute columns are not the declared ones');
    fill(column.values, await float64(r), slots);
    for (const value of a.table) column.table.id(value);
    column.spellings?.restore(a.spellings, a.table);
    column.sets.restore(await readBitmaps(r, a.sets, slots));
  }
  const adjacent = await r.typed((n) => new Uint32Array(n), 4);
  if (meta.adjacentUpTo > slots) throw new SnapshotFormatError('snapshot pair filter is past its slots');
  index.proximity.adjacent.restore(adjacent, meta.adjacentUpTo);
  const keys = await float64(r);
  const table = await int32(r);
  const hashes = await int32(r);
  if (keys.length !== slots || hashes.length !== slots || meta.lookupCount !== meta.live)
    throw new SnapshotFormatError('snapshot id lookup does not match its slots');
  index.restoreLookup(keys, { table, hashes, count: meta.lookupCount });
  const end = await r.json<{ end?: boolean }>();
  if (end.end !== true) throw new SnapshotFormatError('snapshot has no end mark');
  // The live count and the attribute columns' counts in steps, letting the event loop in between.
  for (let from = 0; from < slots; from += RESTORE_STEP) {
    index.restoreSlots(from, Math.min(slots, from + RESTORE_STEP));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (index.size !== meta.live) throw new SnapshotFormatError('snapshot live count does not match its slots');
  return index;
}

function readColumn(r: SectionReader, column: Column): Promise<Uint8Array | Int32Array | Float64Array> {
  if (column.data instanceof Uint8Array) return uint8(r);
  return column.data instanceof Float64Array ? float64(r) : int32(r);
}

async function readGrid(r: SectionReader, index: Index, cells: number, slots: number): Promise<void> {
  const shape = await int32(r);
  const keys: Array<{ key: number; fine: number[] }> = [];
  for (let at = 0; at < shape.length; ) {
    const key = shape[at] as number;
    const n = shape[at + 1] as number;
    keys.push({ key, fine: [...shape.subarray(at + 2, at + 2 + n)] });
    at += 2 + n;
  }
  if (keys.length !== cells) throw new SnapshotFormatError('snapshot grid does not match its count');
  const total = keys.reduce((sum, k) => sum + 1 + k.fine.length, 0);
  const bits = await readBitmaps(r, total, slots);
  let next = 0;
  for (const { key, fine } of keys) {
    const cell = bits[next++] ?? new Bitmap();
    index.grid.restoreCell(
      key,
      cell,
      fine.map((k) => [k, bits[next++] ?? new Bitmap()] as const),
    );
  }
}
