/**
 * How a string attribute's values are written (issue 23): search compares them folded (`Apple`,
 * `APPLE` and `apple` are one value, `apple`), facets show each value as the offers write it —
 * the spelling most live offers holding the value use, ties to the smaller string (UTF-16
 * order), so the form shown depends only on the offers indexed, not on their order.
 *
 * Most values are written one way: for those, only the spelling (`first`). A value written
 * several ways keeps each spelling with its live offers, and the offers not written the first
 * way are remembered by slot (`other`) so that an offer's removal counts its own spelling out.
 */
export class Spellings {
  /** Per value id: the spelling first seen. */
  readonly first: string[] = [];
  /** Values written more than one way: each spelling (the first one first), live offers per spelling. */
  readonly several = new Map<number, { forms: string[]; live: number[] }>();
  /** Slot → its spelling's position in `forms`, for the slots not written the first way. */
  readonly other = new Map<number, number>();

  /**
   * The spelling of value `id` at a new `slot` (not counted yet); `live` counts the value's live
   * offers, all written the first way when a second spelling first appears.
   */
  added(id: number, slot: number, written: string, live: () => number): void {
    const first = this.first[id];
    if (first === undefined) {
      this.first[id] = written;
      return;
    }
    let entry = this.several.get(id);
    if (entry === undefined) {
      if (written === first) return;
      entry = { forms: [first], live: [live()] };
      this.several.set(id, entry);
    }
    let at = entry.forms.indexOf(written);
    if (at === -1) {
      at = entry.forms.length;
      entry.forms.push(written);
      entry.live.push(0);
    }
    if (at !== 0) this.other.set(slot, at);
  }

  /** The slot of value `id` counted in (+1) or out for good (−1). */
  counted(id: number, slot: number, delta: 1 | -1): void {
    const entry = this.several.get(id);
    if (entry === undefined) return;
    const at = this.other.get(slot) ?? 0;
    entry.live[at] = (entry.live[at] as number) + delta;
    if (delta === -1) this.other.delete(slot);
  }

  /** The form value `id` is shown in. */
  shown(id: number): string {
    const entry = this.several.get(id);
    if (entry === undefined) return this.first[id] as string;
    let best = 0;
    for (let at = 1; at < entry.forms.length; at += 1) {
      const n = entry.live[at] as number;
      const top = entry.live[best] as number;
      if (n > top || (n === top && (entry.forms[at] as string) < (entry.forms[best] as string))) best = at;
    }
    return entry.forms[best] as string;
  }

  /** What a snapshot keeps (the live counts are made again as the live slots are restored). */
  state(): SpellingsState {
    const several: Array<[number, string[]]> = [];
    for (const [id, { forms }] of this.several) several.push([id, forms.slice()]);
    const other: number[] = [];
    for (const [slot, at] of this.other) other.push(slot, at);
    return { first: this.first.slice(), several, other };
  }

  /** A snapshot's spellings (none in one written before them: each value shown as folded). */
  restore(state: SpellingsState | undefined, folded: readonly string[]): void {
    this.first.length = 0;
    this.several.clear();
    this.other.clear();
    for (let id = 0; id < folded.length; id += 1) this.first.push(state?.first[id] ?? (folded[id] as string));
    for (const [id, forms] of state?.several ?? []) this.several.set(id, { forms, live: forms.map(() => 0) });
    const other = state?.other ?? [];
    for (let i = 0; i + 1 < other.length; i += 2) this.other.set(other[i] as number, other[i + 1] as number);
  }

  /** A live slot of a loaded snapshot counted in. */
  restored(id: number, slot: number): void {
    this.counted(id, slot, 1);
  }
}

export interface SpellingsState {
  first: string[];
  several: Array<[number, string[]]>;
  /** Pairs: slot, position of its spelling. */
  other: number[];
}
