import { describe, expect, it } from 'vitest';
import { SlotTable } from './slot-table.js';

/** A small deterministic generator (the same operations every run). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('SlotTable', () => {
  it('answers like a Map through inserts, updates (a new slot for the id) and removals, across its growth', () => {
    const ids: string[] = [];
    const table = new SlotTable(ids);
    const reference = new Map<string, number>();
    const random = lcg(26);
    // Few distinct ids (short ones included), so the same id comes back, dies and lives again.
    const idOf = () =>
      random() < 0.1 ? String(Math.floor(random() * 50)) : `off_${Math.floor(random() * 40_000)}`;
    for (let step = 0; step < 120_000; step += 1) {
      const id = idOf();
      if (random() < 0.3) {
        expect(table.delete(id)).toBe(reference.get(id));
        reference.delete(id);
      } else {
        // An upsert as the index does it: the old slot forgotten, a new slot at the end.
        table.delete(id);
        const slot = ids.length;
        ids.push(id);
        table.set(id, slot);
        reference.set(id, slot);
      }
      if (step % 997 === 0) expect(table.size).toBe(reference.size);
    }
    expect(table.size).toBe(reference.size);
    for (const [id, slot] of reference) expect(table.get(id)).toBe(slot);
    for (let n = 0; n < 50; n += 1) expect(table.get(String(n))).toBe(reference.get(String(n)));
    expect(table.get('never')).toBeUndefined();
    expect(table.delete('never')).toBeUndefined();
  });

  it('finds every id again after removing most of them (entries moved back into the holes)', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `id-${i}`);
    const table = new SlotTable(ids);
    ids.forEach((id, slot) => {
      table.set(id, slot);
    });
    for (let i = 0; i < ids.length; i += 1) if (i % 3 !== 0) expect(table.delete(ids[i] as string)).toBe(i);
    for (let i = 0; i < ids.length; i += 1)
      expect(table.get(ids[i] as string)).toBe(i % 3 === 0 ? i : undefined);
    expect(table.size).toBe(Math.ceil(ids.length / 3));
  });

  it('takes back the state a snapshot kept: the same lookups, then grows and removes as before', () => {
    const ids = Array.from({ length: 3_000 }, (_, i) => `off_${i}`);
    const table = new SlotTable(ids);
    for (let slot = 0; slot < 2_000; slot += 1) table.set(ids[slot] as string, slot);
    for (let slot = 0; slot < 2_000; slot += 3) table.delete(ids[slot] as string);
    const kept = table.state(2_000);
    const restored = new SlotTable(ids);
    restored.restore(kept);
    expect(restored.size).toBe(table.size);
    for (let slot = 0; slot < 2_000; slot += 1)
      expect(restored.get(ids[slot] as string)).toBe(slot % 3 === 0 ? undefined : slot);
    // Slots past the kept ones: the hashes grow, the table grows past its load.
    for (let slot = 2_000; slot < 3_000; slot += 1) restored.set(ids[slot] as string, slot);
    for (let slot = 2_000; slot < 3_000; slot += 1) expect(restored.get(ids[slot] as string)).toBe(slot);
    expect(restored.delete('off_7')).toBe(7);
    expect(restored.get('off_7')).toBeUndefined();
    // A state whose count its positions cannot hold is refused, not taken.
    expect(() => new SlotTable(ids).restore({ ...kept, count: kept.table.length })).toThrow();
    // So is one naming a slot past the hashes it came with (a damaged file).
    expect(() => new SlotTable(ids).restore({ ...kept, hashes: kept.hashes.slice(0, 10) })).toThrow(
      /past the slots/,
    );
  });
});
