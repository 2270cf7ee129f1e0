import type { Dictionary } from '../columns/dictionary.js';
import type { GrowableInt32, GrowableWords } from '../columns/growable.js';
import type { ValueSets } from '../sets/slot-sets.js';

/** What counting an offer's terms writes: the dictionary's counts and the word sets. */
export interface TermColumns {
  readonly dict: Dictionary;
  readonly text: GrowableWords;
  readonly textOffsets: GrowableInt32;
  readonly searchable: readonly string[];
  readonly attributeWords: GrowableInt32;
  readonly sets: { readonly word: ValueSets; readonly title: ValueSets; readonly attribute: ValueSets };
}

/**
 * An offer's distinct words and stems counted in (an insert) or out (a removal): the
 * dictionary's document counts and the word bitmaps (anywhere, in the title, in the searchable
 * attributes). Holds the
 * per-term scratch that makes each word and stem count once per offer.
 */
export class TermCounts {
  // The call that last counted each word (anywhere, in the title, in the attributes) and stem.
  private wordSeen = new Int32Array(0);
  private titleSeen = new Int32Array(0);
  private attributeSeen = new Int32Array(0);
  private stemSeen = new Int32Array(0);

  /**
   * Adds (+1) or withdraws (−1) the slot's distinct words and stems: the dictionary's counts and
   * the word bitmaps (anywhere, in the title, in the searchable attributes).
   */
  count(ix: TermColumns, slot: number, delta: 1 | -1): void {
    const dict = ix.dict;
    if (this.wordSeen.length < dict.wordText.length) {
      const size = dict.wordText.length * 2;
      const grow = (old: Int32Array) => {
        const next = new Int32Array(size);
        next.set(old);
        return next;
      };
      this.wordSeen = grow(this.wordSeen);
      this.titleSeen = grow(this.titleSeen);
      this.attributeSeen = grow(this.attributeSeen);
    }
    if (this.stemSeen.length < dict.stemCount) {
      const next = new Int32Array(dict.stemCount * 2);
      next.set(this.stemSeen);
      this.stemSeen = next;
    }
    // Stamps are slot + 1 for an insert, −(slot + 1) for a removal: unique per call.
    const stamp = delta === 1 ? slot + 1 : -(slot + 1);
    const text = ix.text.data;
    const from = ix.textOffsets.data[2 * slot] as number;
    const middle = ix.textOffsets.data[2 * slot + 1] as number;
    const to = ix.textOffsets.data[2 * slot + 2] as number;
    const attributesEnd =
      ix.searchable.length === 0 ? middle : middle + (ix.attributeWords.data[slot] as number);
    const { word: words, title: titles, attribute: attributes } = ix.sets;
    for (let p = from; p < to; p += 1) {
      const w = text[p] as number;
      const s = dict.wordStem.data[w] as number;
      if (this.stemSeen[s] !== stamp) {
        this.stemSeen[s] = stamp;
        dict.stemDocs.data[s] = (dict.stemDocs.data[s] as number) + delta;
      }
      if (this.wordSeen[w] !== stamp) {
        this.wordSeen[w] = stamp;
        dict.wordDocs.data[w] = (dict.wordDocs.data[w] as number) + delta;
        if (delta === 1) words.add(w, slot);
        else words.remove(w, slot);
      }
      if (p < middle && this.titleSeen[w] !== stamp) {
        this.titleSeen[w] = stamp;
        if (delta === 1) titles.add(w, slot);
        else titles.remove(w, slot);
      }
      if (p >= middle && p < attributesEnd && this.attributeSeen[w] !== stamp) {
        this.attributeSeen[w] = stamp;
        if (delta === 1) attributes.add(w, slot);
        else attributes.remove(w, slot);
      }
    }
  }
}
