import { GrowableFloat64 } from '../columns/growable.js';
import { Interned } from '../columns/interned.js';
import type { AttributeDeclaration, SearchSchema } from '../engine.js';
import { ValueSets } from '../sets/slot-sets.js';
import { Spellings } from './spellings.js';
import { attributeValue } from './values.js';

/**
 * The columns of an environment's declared attributes (ADR 0028), one per declaration, by slot
 * like every other column: the value (NaN: the offer has none) — a number, a string's id in
 * `table` (folded like text), a boolean as 1 / 0 — and, for strings and booleans, the live
 * slots per value (what `attr.NAME=V` and the facets read). Numbers are sorted by a pass over
 * the matches reading the column; while a number column holds few distinct values (`FEW_NUMBERS`
 * small integers) it keeps the live slots per value too (`few`), and a range is the union of the
 * sets of the values inside, its facet counts and stats a count of each value's set among the
 * matches (issue 23); past that, a range is a test per match and the facet a pass over them.
 * A string column also keeps how its values are written (`spellings`), what its facets show.
 */
export class AttributeColumn {
  readonly values = new GrowableFloat64();
  readonly table = new Interned();
  readonly sets = new ValueSets();
  /** A number column's sets per value while its values are few (null: dropped for good). */
  few: FewNumbers | null;
  /** A string column's spellings per value (null: numbers and booleans). */
  readonly spellings: Spellings | null;

  constructor(readonly declaration: AttributeDeclaration) {
    this.few = declaration.type === 'number' ? new FewNumbers() : null;
    this.spellings = declaration.type === 'string' ? new Spellings() : null;
  }

  /** The offer's value appended at the next slot. */
  push(attributes: Readonly<Record<string, unknown>> | undefined): void {
    const raw = attributes?.[this.declaration.name];
    const value = attributeValue(this.declaration.type, raw);
    if (typeof value !== 'string') {
      this.values.push(value ?? Number.NaN);
      return;
    }
    const id = this.table.id(value);
    this.spellings?.added(id, this.values.length, String(raw), () => this.sets.get(id).size);
    this.values.push(id);
  }

  /** The slot counted in (+1) or out (−1) of its value's set (strings and booleans). */
  count(slot: number, delta: 1 | -1): void {
    if (this.declaration.type === 'number') {
      if (this.few !== null && !this.few.count(this.values.data[slot] as number, slot, delta))
        this.few = null;
      return;
    }
    const id = this.values.data[slot] as number;
    if (Number.isNaN(id)) return;
    if (delta === 1) this.sets.add(id, slot);
    else this.sets.remove(id, slot);
    this.spellings?.counted(id, slot, delta);
  }
}

/** The most distinct values a number column keeps a set per value for. */
export const FEW_NUMBERS = 64;
/**
 * The largest magnitude of a value kept by set: a sum of counts × values is then exact (below
 * 2^53 up to 2^28 matches), the same as the pass adding each match's value.
 */
const FEW_MAGNITUDE = 2 ** 24;

/** A number column's distinct values (by id, in order of arrival) and the live slots of each. */
export class FewNumbers {
  readonly ids = new Map<number, number>();
  readonly values: number[] = [];
  readonly sets = new ValueSets();

  /** The slot counted in or out of its value's set; false when the value cannot be kept. */
  count(value: number, slot: number, delta: 1 | -1): boolean {
    if (Number.isNaN(value)) return true;
    let id = this.ids.get(value);
    if (id === undefined) {
      if (
        this.values.length >= FEW_NUMBERS ||
        !Number.isInteger(value) ||
        Math.abs(value) > FEW_MAGNITUDE ||
        Object.is(value, -0)
      )
        return false;
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    if (delta === 1) this.sets.add(id, slot);
    else this.sets.remove(id, slot);
    return true;
  }
}

export class AttributeColumns {
  readonly byName = new Map<string, AttributeColumn>();

  constructor(readonly schema: SearchSchema) {
    for (const declaration of schema.attributes)
      this.byName.set(declaration.name, new AttributeColumn(declaration));
  }

  push(attributes: Readonly<Record<string, unknown>> | undefined): void {
    for (const column of this.byName.values()) column.push(attributes);
  }

  count(slot: number, delta: 1 | -1): void {
    for (const column of this.byName.values()) column.count(slot, delta);
  }

  /** A live slot of a loaded snapshot counted in its numbers' sets and its spelling (the snapshot has no counts). */
  restored(slot: number): void {
    for (const column of this.byName.values()) {
      const value = column.values.data[slot] as number;
      if (column.few !== null && !column.few.count(value, slot, 1)) column.few = null;
      if (column.spellings !== null && !Number.isNaN(value)) column.spellings.restored(value, slot);
    }
  }

  trim(): void {
    for (const column of this.byName.values()) {
      column.values.trim();
      column.sets.trim();
      column.few?.sets.trim();
    }
  }
}
