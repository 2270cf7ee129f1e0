import { isStopWord, words } from '../offers/text.js';

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
 * when half full, so an unusual text costs the plain path, never unbounded memory.
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
const hashes = new Int32Array(TABLE_SIZE);
let entries = 0;

/** Buffers of the words of a field being scanned, handed over once the text is known ASCII. */
const spare: string[][] = [];

/** FNV-1a over the folded character codes. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** The memo's hash of a folded word (exported for the test of colliding words). */
export function tokenHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i += 1) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
  return hash;
}

function lookup(text: string, start: number, end: number, hash: number): string | null {
  let slot = hash & MASK;
  const length = end - start;
  for (;;) {
    const key = keys[slot];
    if (key === undefined) break;
    if (hashes[slot] === hash && key.length === length && sameFolded(key, text, start)) {
      return stop[slot] === 1 ? null : key;
    }
    slot = (slot + 1) & MASK;
  }
  // First sight of this word (since the last clear): analyse it as the plain path does.
  const word = text.slice(start, end).toLowerCase();
  const isStop = isStopWord(word);
  if (entries >= TABLE_LIMIT) {
    keys = new Array(TABLE_SIZE);
    entries = 0;
    slot = hash & MASK;
  }
  keys[slot] = word;
  hashes[slot] = hash;
  stop[slot] = isStop ? 1 : 0;
  entries += 1;
  return isStop ? null : word;
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

export function forEachIndexWord(text: string, visit: (word: string) => void): void {
  const n = text.length;
  // A buffer of its own per call (reused): a `visit` may analyse another text meanwhile.
  const pending = spare.pop() ?? [];
  pending.length = 0;
  let start = -1;
  let hash = FNV_OFFSET;
  for (let i = 0; i <= n; i += 1) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c > 127) {
      // Not ASCII: nothing was handed over yet, the general path analyses the whole text.
      spare.push(pending);
      general(text, visit);
      return;
    }
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
      continue;
    }
    if (start >= 0) {
      if (i - start <= MAX_TOKEN_LENGTH) {
        const word = lookup(text, start, i, hash);
        if (word !== null) pending.push(word);
      }
      start = -1;
    }
  }
  for (let k = 0; k < pending.length; k += 1) visit(pending[k] as string);
  spare.push(pending);
}

function general(text: string, visit: (word: string) => void): void {
  for (const w of words(text)) if (!isStopWord(w)) visit(w);
}
