import { FNV_OFFSET, FNV_PRIME, fnv1a } from '../hash.js';
import { isStopWord, words } from './text.js';
import { unitOf } from './text-rules.js';

/**
 * The words an offer's field is indexed under: `words(text)` without stop words (offers/text.ts),
 * computed for plain ASCII text in one scan of its characters instead of a lower-cased copy, a
 * split and a filter. Building the index calls this twice per offer, a million times at start.
 * Non-ASCII text takes the general path. A test pins both to the same result.
 *
 * The analysis of a raw word is memoised (ADR 0022): a million offers hold tens of millions of
 * words but a vocabulary of thousands, so each token is hashed while it is scanned and looked up
 * in a table of the words already seen, folded. A hit hands over the same string object every
 * time (its hash is cached, so the dictionary's lookup is cheap) and allocates nothing; a miss
 * slices, lower-cases and checks the stop words once, as before. The table is bounded: cleared
 * when half full, so an unusual text costs the plain path, never unbounded memory. An index
 * keeps its dictionary's word id per memo slot (`WordIds`), so building it costs no dictionary
 * lookup per word either (ADR 0022).
 */
const MAX_TOKEN_LENGTH = 64;

const TABLE_BITS = 17;
const TABLE_SIZE = 1 << TABLE_BITS;
const MASK = TABLE_SIZE - 1;
/** Entries before the table is cleared (half full: probes stay short). */
const TABLE_LIMIT = TABLE_SIZE >> 1;

/** Folded word per slot (undefined: empty). */
let keys: (string | undefined)[] = new Array(TABLE_SIZE);
/** Whether the slot's word is a stop word (not indexed). */
const stop = new Uint8Array(TABLE_SIZE);
/** Per slot: NUMERIC (digits), UNIT (a unit spelling other than its unit: `feet`, `in`). */
const kind = new Uint8Array(TABLE_SIZE);
const NUMERIC = 1;
const UNIT = 2;
const hashes = new Int32Array(TABLE_SIZE);
let entries = 0;

/** Buffers of the memo slots of a field being scanned, handed over once the text is known ASCII. */
const spare: number[][] = [];
/** The joined forms of a field's hyphenated words (added after its other words). */
const joinedSlots: number[] = [];
const spareWords: string[][] = [];

/** The memo's hash of a folded word, FNV-1a (exported for the test of colliding words). */
export const tokenHash = fnv1a;

/** Times the table was cleared: a memo slot names the same word only within one generation. */
let generation = 0;

/** The memo slot of the folded word text[start, end), analysed and added when first seen. */
function lookup(text: string, start: number, end: number, hash: number): number {
  let slot = hash & MASK;
  const length = end - start;
  for (;;) {
    const key = keys[slot];
    if (key === undefined) break;
    if (hashes[slot] === hash && key.length === length && sameFolded(key, text, start)) return slot;
    slot = (slot + 1) & MASK;
  }
  // First sight of this word (since the last clear): analyse it as the plain path does.
  const word = text.slice(start, end).toLowerCase();
  if (entries >= TABLE_LIMIT) {
    keys = new Array(TABLE_SIZE);
    entries = 0;
    generation += 1;
    slot = hash & MASK;
  }
  keys[slot] = word;
  hashes[slot] = hash;
  stop[slot] = isStopWord(word) ? 1 : 0;
  const unit = unitOf(word);
  kind[slot] = /^[0-9]/.test(word) ? NUMERIC : unit !== undefined && unit !== word ? UNIT : 0;
  entries += 1;
  return slot;
}

/** True when `key` (folded) equals text[start, start + key.length) once lower-cased (ASCII). */
function sameFolded(key: string, text: string, start: number): boolean {
  for (let k = 0; k < key.length; k += 1) {
    let c = text.charCodeAt(start + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== key.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * The memo slots of the text's index words, in order, into `out`; false when the general path
 * must analyse the text: not ASCII, the table cleared meanwhile (the slots are then not to be
 * used), or something the catalogue rules change (offers/text-rules.ts: a quote mark, a dot
 * inside a word, a unit spelling after a number, a word over the length limit). A number glued
 * to letters is cut here (`32gb`: `32`, `gb`), as the rules cut it; a hyphenated word gives its
 * parts, then, after the text's other words, its parts joined when they join into one word of
 * letters or of digits (`t-shirt`: `t`, `shirt`, … `tshirt`; `ab-12` joins into none), as the
 * rules give them (ADR 0040).
 */
function scan(text: string, out: number[]): boolean {
  const n = text.length;
  const from = generation;
  out.length = 0;
  let start = -1;
  let digits = false;
  let afterNumber = false;
  let hash = FNV_OFFSET;
  joinedSlots.length = 0;
  // The word being scanned, hyphens included: where it starts (−1: none), its runs so far (a
  // piece of letters then digits is two), whether it turned from letters to digits or back.
  let word = -1;
  let runs = 0;
  let mixed = false;
  for (let i = 0; i <= n; i += 1) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c > 127) return false;
    if (c >= 65 && c <= 90) c += 32;
    const digit = c >= 48 && c <= 57;
    if (digit || (c >= 97 && c <= 122)) {
      if (start >= 0 && digit === digits) {
        hash = Math.imul(hash ^ c, FNV_PRIME);
        continue;
      }
      if (start >= 0) {
        const slot = token(text, start, i, hash, afterNumber);
        if (slot < 0) return false;
        afterNumber = kind[slot] === NUMERIC;
        if (stop[slot] === 0) out.push(slot);
        // Letters then digits (or back) within a piece: the joined form is not one word.
        mixed = true;
        runs += 1;
      } else if (word < 0) {
        word = i;
        runs = 0;
        mixed = false;
      } else if (digit !== digits) mixed = true;
      start = i;
      digits = digit;
      hash = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
      continue;
    }
    if (c === 34 || c === 39) return false;
    if (start >= 0) {
      const inner = i + 1 < n && isWordChar(text.charCodeAt(i + 1));
      if (c === 46 && inner) return false;
      const slot = token(text, start, i, hash, afterNumber);
      if (slot < 0) return false;
      afterNumber = kind[slot] === NUMERIC;
      if (stop[slot] === 0) out.push(slot);
      runs += 1;
      start = -1;
      if (c === 45 && inner) continue;
      // The end of a word: a hyphenated one's parts joined, when one word (runs > 1 unmixed: hyphens).
      if (runs > 1 && !mixed && !joined(text, word, i)) return false;
      word = -1;
    }
  }
  for (let k = 0; k < joinedSlots.length; k += 1) out.push(joinedSlots[k] as number);
  return generation === from;
}

/**
 * The parts of text[from, to) (ASCII letters or digits between hyphens) joined, queued for the
 * end of the field unless a stop word; false when over the length limit (the general path).
 */
function joined(text: string, from: number, to: number): boolean {
  const word = text.slice(from, to).replaceAll('-', '');
  if (word.length > MAX_TOKEN_LENGTH) return false;
  const slot = lookup(word, 0, word.length, tokenHash(word.toLowerCase()));
  if (stop[slot] === 0) joinedSlots.push(slot);
  return true;
}

/** An ASCII letter or digit (any case), or a character past ASCII (which may be one). */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;
}

/** The memo slot of text[start, end), or −1 when the rules would change it (see `scan`). */
function token(text: string, start: number, end: number, hash: number, afterNumber: boolean): number {
  if (end - start > MAX_TOKEN_LENGTH) return -1;
  const slot = lookup(text, start, end, hash);
  return afterNumber && kind[slot] === UNIT ? -1 : slot;
}

export function forEachIndexWord(text: string, visit: (word: string) => void): void {
  // Buffers of their own per call (reused): a `visit` may analyse another text meanwhile, and
  // the words are taken out of the memo before any visit (one may clear it).
  const pending = spare.pop() ?? [];
  const found = spareWords.pop() ?? [];
  found.length = 0;
  if (scan(text, pending)) {
    for (let k = 0; k < pending.length; k += 1) found.push(keys[pending[k] as number] as string);
    for (let k = 0; k < found.length; k += 1) visit(found[k] as string);
  } else general(text, visit);
  spare.push(pending);
  spareWords.push(found);
}

/**
 * One dictionary's word ids by memo slot (each index has its own; the memo is shared), so a
 * word seen before costs no lookup in the dictionary. Reset when the memo is cleared.
 */
export class WordIds {
  private readonly ids = new Int32Array(TABLE_SIZE).fill(-1);
  private generation = generation;

  constructor(readonly wordId: (word: string) => number) {}

  /** The id of the word in memo slot `slot` (of the current generation). */
  at(slot: number): number {
    if (this.generation !== generation) {
      this.ids.fill(-1);
      this.generation = generation;
    }
    let id = this.ids[slot] as number;
    if (id < 0) {
      id = this.wordId(keys[slot] as string);
      this.ids[slot] = id;
    }
    return id;
  }
}

/** `forEachIndexWord` as word ids of `ids`' dictionary. */
export function forEachIndexWordId(text: string, ids: WordIds, visit: (id: number) => void): void {
  const pending = spare.pop() ?? [];
  if (scan(text, pending)) {
    // Every id taken before any visit (as above).
    for (let k = 0; k < pending.length; k += 1) pending[k] = ids.at(pending[k] as number);
    for (let k = 0; k < pending.length; k += 1) visit(pending[k] as number);
  } else general(text, (word) => visit(ids.wordId(word)));
  spare.push(pending);
}

function general(text: string, visit: (word: string) => void): void {
  for (const w of words(text)) if (!isStopWord(w)) visit(w);
}
