import { stem as stemOf } from '../analysis/text.js';
import { GrowableInt32 } from './growable.js';

/**
 * The term dictionary (issue 12): every indexed word (folded, unstemmed) and every stem, the
 * words of each stem, and how many live offers hold each word and stem (the offers themselves
 * are in the index's word bitmaps). Typo and prefix candidates come from a sorted array of keys (words and stems) walked as a
 * trie (`walk`), so a query looks at the few keys near what was typed, never the whole vocabulary.
 */

const NONE = -1;
/** Keys added since the last settle inserted one by one up to this many; more: one sort. */
const SETTLE_IN_PLACE = 64;
/** Walks kept (typed word, budget, prefix or not). */
const WALK_CACHE = 4096;

export class Dictionary {
  readonly wordIds = new Map<string, number>();
  readonly wordText: string[] = [];
  /** Word id → stem id. */
  readonly wordStem = new GrowableInt32();
  /** Word id → live offers holding it. */
  readonly wordDocs = new GrowableInt32();

  readonly stemIds = new Map<string, number>();
  readonly stemText: string[] = [];
  /** Stem id → live offers holding it. */
  readonly stemDocs = new GrowableInt32();
  /** Stem id → the ids of the words seen with this stem. */
  readonly stemWords: number[][] = [];

  /**
   * Sorted (UTF-16 order) keys: every word and every stem, each once, as of the last `settle`;
   * the keys added since wait in `added` (a sorted insert per new key made a bulk load
   * quadratic in the vocabulary).
   */
  private keys: string[] = [];
  /** Per key: its word id, its stem id (when the key is a stem), or NONE. */
  private keyWord: number[] = [];
  private keyStem: number[] = [];
  private added: string[] = [];
  /**
   * The keys each recent walk reached (word id, stem id, edits per key), least recently used
   * first; valid while no key is added (`cachedFor` keys). Liveness is checked on each replay.
   */
  private readonly walks = new Map<string, Int32Array>();
  private cachedFor = 0;

  get stemCount(): number {
    return this.stemText.length;
  }

  /** The id of `word`, adding it (and its stem) when new. */
  wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id !== undefined) return id;
    id = this.wordText.length;
    this.wordIds.set(word, id);
    this.wordText.push(word);
    const s = this.stemId(stemOf(word));
    this.wordStem.push(s);
    this.wordDocs.push(0);
    (this.stemWords[s] as number[]).push(id);
    this.added.push(word);
    return id;
  }

  /**
   * Fills an empty dictionary with the words and stems of a snapshot (snapshot.ts): the counts
   * as given, the lookups, the words of each stem and the sorted keys rebuilt from them.
   */
  restore(parts: {
    words: readonly string[];
    wordStem: Int32Array;
    wordDocs: Int32Array;
    stems: readonly string[];
    stemDocs: Int32Array;
  }): void {
    const restoreColumn = (column: GrowableInt32, data: Int32Array) => {
      column.data = data;
      column.length = data.length;
    };
    restoreColumn(this.wordStem, parts.wordStem);
    restoreColumn(this.wordDocs, parts.wordDocs);
    restoreColumn(this.stemDocs, parts.stemDocs);
    const keyOf = new Map<string, { word: number; stem: number }>();
    const key = (text: string) => {
      let k = keyOf.get(text);
      if (k === undefined) {
        k = { word: NONE, stem: NONE };
        keyOf.set(text, k);
      }
      return k;
    };
    parts.stems.forEach((stem, id) => {
      this.stemIds.set(stem, id);
      this.stemText.push(stem);
      this.stemWords.push([]);
      key(stem).stem = id;
    });
    parts.words.forEach((word, id) => {
      this.wordIds.set(word, id);
      this.wordText.push(word);
      (this.stemWords[parts.wordStem[id] as number] as number[]).push(id);
      key(word).word = id;
    });
    // Default sort: UTF-16 code unit order, the order keyAt keeps.
    for (const text of [...keyOf.keys()].sort()) {
      const k = keyOf.get(text) as { word: number; stem: number };
      this.keys.push(text);
      this.keyWord.push(k.word);
      this.keyStem.push(k.stem);
    }
  }

  private stemId(stem: string): number {
    let id = this.stemIds.get(stem);
    if (id !== undefined) return id;
    id = this.stemText.length;
    this.stemIds.set(stem, id);
    this.stemText.push(stem);
    this.stemDocs.push(0);
    this.stemWords.push([]);
    this.added.push(stem);
    return id;
  }

  /**
   * Puts the keys added since the last call in the sorted keys (walks do it first; an index
   * does it at the end of a bulk load): a few by binary search and insert, many by one sort.
   */
  settle(): void {
    const added = this.added;
    if (added.length === 0) return;
    this.added = [];
    const idsOf = (key: string) => [this.wordIds.get(key) ?? NONE, this.stemIds.get(key) ?? NONE];
    if (added.length <= SETTLE_IN_PLACE) {
      for (const key of added) {
        const lo = this.endOfLess(key);
        if (this.keys[lo] !== key) {
          this.keys.splice(lo, 0, key);
          this.keyWord.splice(lo, 0, NONE);
          this.keyStem.splice(lo, 0, NONE);
        }
        [this.keyWord[lo], this.keyStem[lo]] = idsOf(key) as [number, number];
      }
      return;
    }
    // Array.prototype.sort without a comparator orders strings by UTF-16 code units, as `<` does.
    const all = this.keys.concat(added).sort();
    const keys: string[] = [];
    for (const key of all) if (keys.length === 0 || keys[keys.length - 1] !== key) keys.push(key);
    this.keys = keys;
    this.keyWord = keys.map((key) => this.wordIds.get(key) ?? NONE);
    this.keyStem = keys.map((key) => this.stemIds.get(key) ?? NONE);
  }

  /**
   * Calls `visit(stemId, edits)` for every live stem reachable from a key within `budget` edits
   * (optimal string alignment: insertion, deletion, substitution, adjacent transposition) of
   * `typed`; with `prefix`, a key matches when one of its prefixes is within the budget. A stem
   * may be visited more than once (through several keys).
   */
  walk(typed: string, budget: number, prefix: boolean, visit: (stemId: number, edits: number) => void): void {
    this.settle();
    if (this.cachedFor !== this.keys.length) {
      this.walks.clear();
      this.cachedFor = this.keys.length;
    }
    const cacheKey = `${prefix ? 'p' : 'w'}${budget}:${typed}`;
    let hits = this.walks.get(cacheKey);
    if (hits === undefined) {
      const found: number[] = [];
      this.walkKeys(typed, budget, prefix, (index, edits) => {
        found.push(this.keyWord[index] as number, this.keyStem[index] as number, edits);
      });
      hits = Int32Array.from(found);
      if (this.walks.size >= WALK_CACHE) this.walks.delete(this.walks.keys().next().value as string);
    } else this.walks.delete(cacheKey);
    // Map order is insertion order: re-inserting makes this the most recently used.
    this.walks.set(cacheKey, hits);
    for (let i = 0; i < hits.length; i += 3) {
      const w = hits[i] as number;
      const edits = hits[i + 2] as number;
      if (w !== NONE && (this.wordDocs.data[w] as number) > 0) visit(this.wordStem.data[w] as number, edits);
      const s = hits[i + 1] as number;
      if (s !== NONE && (this.stemDocs.data[s] as number) > 0) visit(s, edits);
    }
  }

  /** The walk itself: `hit(keyIndex, edits)` for every key within the budget, live or not. */
  private walkKeys(
    typed: string,
    budget: number,
    prefix: boolean,
    hit: (index: number, edits: number) => void,
  ): void {
    const keys = this.keys;
    if (budget === 0) {
      // No edit allowed: the key itself, or the keys that start with it, found by binary search
      // (the same keys as the walk finds; a 2–4-letter prefix typed has no typo budget).
      for (let i = this.endOfLess(typed); i < keys.length; i += 1) {
        const key = keys[i] as string;
        if (key === typed || (prefix && key.startsWith(typed))) hit(i, 0);
        else break;
      }
      return;
    }
    const m = typed.length;
    const rows: Int32Array[] = [];
    const pathBest: number[] = [];
    const row0 = new Int32Array(m + 1);
    for (let j = 0; j <= m; j += 1) row0[j] = j;
    rows.push(row0);
    pathBest.push(m);
    let previous = '';
    let i = 0;
    const report = hit;
    while (i < keys.length) {
      const key = keys[i] as string;
      let common = 0;
      const limit = Math.min(previous.length, key.length);
      while (common < limit && previous.charCodeAt(common) === key.charCodeAt(common)) common += 1;
      // Rows 0..common are still valid; compute the rest of this key's rows.
      let pruned = -1;
      for (let d = common + 1; d <= key.length; d += 1) {
        let row = rows[d];
        if (row === undefined) {
          row = new Int32Array(m + 1);
          rows[d] = row;
        }
        const up = rows[d - 1] as Int32Array;
        const upUp = d >= 2 ? (rows[d - 2] as Int32Array) : null;
        const c = key.charCodeAt(d - 1);
        const cPrev = d >= 2 ? key.charCodeAt(d - 2) : -1;
        row[0] = d;
        let rowMin = d;
        for (let j = 1; j <= m; j += 1) {
          const t = typed.charCodeAt(j - 1);
          let v = Math.min(
            (up[j] as number) + 1,
            (row[j - 1] as number) + 1,
            (up[j - 1] as number) + (t === c ? 0 : 1),
          );
          if (upUp !== null && j >= 2 && t === cPrev && typed.charCodeAt(j - 2) === c) {
            v = Math.min(v, (upUp[j - 2] as number) + 1);
          }
          row[j] = v;
          if (v < rowMin) rowMin = v;
        }
        pathBest[d] = Math.min(pathBest[d - 1] as number, row[m] as number);
        if (rowMin > budget) {
          pruned = d;
          break;
        }
      }
      if (pruned >= 0) {
        // No key that starts with key[0, pruned) gets within the budget any further down.
        const stem = key.slice(0, pruned);
        const end = this.endOfPrefix(stem, i);
        const best = pathBest[pruned - 1] as number;
        if (prefix && best <= budget) for (let k = i; k < end; k += 1) report(k, best);
        previous = key.slice(0, pruned - 1);
        i = end;
        continue;
      }
      const edits = prefix ? (pathBest[key.length] as number) : (rows[key.length] as Int32Array)[m];
      if ((edits as number) <= budget) report(i, edits as number);
      previous = key;
      i += 1;
    }
  }

  /** The index of the first key not less than `typed` (UTF-16 order). */
  private endOfLess(typed: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string) < typed) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index after the last key starting with `prefix`, searching from `from`. */
  private endOfPrefix(prefix: string, from: number): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string).startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
