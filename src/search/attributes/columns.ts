import { GrowableFloat64 } from '../columns/growable.js';
import { Interned } from '../columns/interned.js';
import type { AttributeDeclaration, SearchSchema } from '../engine.js';
import { ValueSets } from '../sets/slot-sets.js';
import { attributeValue } from './values.js';

/**
 * The columns of an environment's declared attributes (ADR 0028), one per declaration, by slot
 * like every other column: the value (NaN: the offer has none) — a number, a string's id in
 * `table` (folded like text), a boolean as 1 / 0 — and, for strings and booleans, the live
 * slots per value (what `attr.NAME=V` and the facets read). Numbers are filtered, counted and
 * sorted by a pass over the matches reading the column.
 */
export class AttributeColumn {
  readonly values = new GrowableFloat64();
  readonly table = new Interned();
  readonly sets = new ValueSets();

  constructor(readonly declaration: AttributeDeclaration) {}

  /** The offer's value appended at the next slot. */
  push(attributes: Readonly<Record<string, unknown>> | undefined): void {
    const value = attributeValue(this.declaration.type, attributes?.[this.declaration.name]);
    if (value === undefined) this.values.push(Number.NaN);
    else this.values.push(typeof value === 'string' ? this.table.id(value) : value);
  }

  /** The slot counted in (+1) or out (−1) of its value's set (strings and booleans). */
  count(slot: number, delta: 1 | -1): void {
    if (this.declaration.type === 'number') return;
    const id = this.values.data[slot] as number;
    if (Number.isNaN(id)) return;
    if (delta === 1) this.sets.add(id, slot);
    else this.sets.remove(id, slot);
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

  trim(): void {
    for (const column of this.byName.values()) {
      column.values.trim();
      column.sets.trim();
    }
  }
}
