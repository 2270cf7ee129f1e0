import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineQuery, textDoc } from '../../../test/support/engine-query.js';
import { referenceFacetValues, referenceSearch } from '../../../test/support/search-reference.js';
import { DEFAULT_TUNING } from '../columns/tuning.js';
import type { IndexDocument, SearchSchema } from '../engine.js';
import { createSearchIndex, type Index } from '../index/search-index.js';
import { captureIndex, type IndexCapture, readIndex, writeIndex } from '../snapshot/snapshot.js';
import { openSnapshot, writeAtomically } from '../snapshot/snapshot-io.js';
import { Spellings } from './spellings.js';

/**
 * String attribute values are compared folded and shown as written (issue 23): the spelling most
 * live offers holding the value use, ties to the smaller string; through removals, a snapshot,
 * and a snapshot written before the spellings were kept.
 */
const SCHEMA: SearchSchema = {
  attributes: [{ name: 'brand', type: 'string', facet: true, sort: false, searchable: false }],
};
const T0 = Date.UTC(2026, 0, 1);
const NOW = T0 + 86_400_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-spellings-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function doc(id: string, brand: unknown): IndexDocument {
  return { ...textDoc(id, 'road bike', T0), attributes: { brand } };
}

function brands(index: Index) {
  return index.search(engineQuery(NOW, {}), ['attr.brand']).facets['attr.brand'];
}

/** The engine's facet and facet-value answers, each equal to the reference's over `docs`. */
function expectReference(index: Index, docs: Map<string, IndexDocument>) {
  const all = [...docs.values()];
  const query = engineQuery(NOW, {});
  expect(index.search(query, ['attr.brand']).facets).toEqual(
    referenceSearch(all, query, ['attr.brand'], SCHEMA).facets,
  );
  for (const prefix of ['', 'a', 'ÄP', 'caf'])
    expect(index.facetValues(query, 'attr.brand', prefix, 10)).toEqual(
      referenceFacetValues(all, query, 'attr.brand', prefix, 10, SCHEMA),
    );
}

async function roundTrip(index: Index, edit: (c: IndexCapture) => void = () => undefined): Promise<Index> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.snap`);
  const capture = captureIndex(index);
  edit(capture);
  await writeAtomically(file, (writer) => writeIndex(writer, index, capture));
  const { reader, close } = await openSnapshot(file);
  try {
    return await readIndex(reader, DEFAULT_TUNING, SCHEMA);
  } finally {
    await close();
  }
}

describe('string attribute values shown as written', () => {
  it('shows the spelling most offers use, filters folded, and follows removals and rewrites', () => {
    const index = createSearchIndex({}, SCHEMA) as Index;
    const docs = new Map<string, IndexDocument>();
    const put = (d: IndexDocument) => {
      index.upsert(d);
      docs.set(d.id, d);
    };
    put(doc('a1', 'APPLE'));
    put(doc('a2', 'Apple'));
    put(doc('a3', 'Apple'));
    put(doc('c1', 'Café-Co'));
    put(doc('n1', 7));
    // Ties by the folded value: `7` before `cafe co`.
    expect(brands(index)).toEqual([
      { value: 'Apple', count: 3 },
      { value: '7', count: 1 },
      { value: 'Café-Co', count: 1 },
    ]);
    const byFolded = engineQuery(NOW, {
      attributes: [{ name: 'brand', values: ['apple'], min: null, max: null }],
    });
    expect(index.search(byFolded, []).total).toBe(3);
    expect(index.facetValues(engineQuery(NOW, {}), 'attr.brand', 'ap', 5)).toEqual([
      { value: 'Apple', count: 3 },
    ]);
    expectReference(index, docs);
    // A tie: the smaller string (`APPLE` < `Apple` in code-unit order).
    index.remove('a3');
    docs.delete('a3');
    expect(brands(index)?.[0]).toEqual({ value: 'APPLE', count: 2 });
    expectReference(index, docs);
    // A rewrite counts the old spelling out and the new one in.
    put(doc('a2', 'apple'));
    put(doc('a4', 'apple'));
    expect(brands(index)?.[0]).toEqual({ value: 'apple', count: 3 });
    expectReference(index, docs);
    // Every offer written one way gone: the value shows as the others write it.
    for (const id of ['a2', 'a4']) {
      index.remove(id);
      docs.delete(id);
    }
    expect(brands(index)?.find((f) => f.value.toLowerCase() === 'apple')).toEqual({
      value: 'APPLE',
      count: 1,
    });
    expectReference(index, docs);
  });

  it('keeps the spellings through a snapshot, and shows folded values from one written before them', async () => {
    const index = createSearchIndex({}, SCHEMA) as Index;
    const docs = new Map<string, IndexDocument>();
    for (const [id, brand] of [
      ['a1', 'APPLE'],
      ['a2', 'Apple'],
      ['a3', 'Apple'],
      ['z1', 'Zörglub'],
      ['z2', 'zorglub'],
      ['z3', 'ZORGLUB'],
    ] as const) {
      index.upsert(doc(id, brand));
      docs.set(id, doc(id, brand));
    }
    index.remove('z3');
    docs.delete('z3');
    const loaded = await roundTrip(index);
    expect(brands(loaded)).toEqual(brands(index));
    expectReference(loaded, docs);
    // After the load, removals and writes count spellings as in a built index.
    for (const target of [index, loaded]) {
      target.remove('a2');
      target.remove('a3');
      target.upsert(doc('z4', 'Zörglub'));
    }
    docs.delete('a2');
    docs.delete('a3');
    docs.set('z4', doc('z4', 'Zörglub'));
    expect(brands(loaded)).toEqual(brands(index));
    expectReference(loaded, docs);
    const older = await roundTrip(index, (c) => {
      for (const a of c.attributes) delete a.spellings;
    });
    expect(brands(older)).toEqual([
      { value: 'zorglub', count: 3 },
      { value: 'apple', count: 1 },
    ]);
  });

  it('counts a value written a second way from the offers it already has', () => {
    const s = new Spellings();
    let live = 0;
    s.added(0, 0, 'Acme', () => live);
    s.counted(0, 0, 1);
    live = 1;
    s.added(0, 1, 'Acme', () => live);
    s.counted(0, 1, 1);
    live = 2;
    s.added(0, 2, 'ACME', () => live);
    s.counted(0, 2, 1);
    expect(s.shown(0)).toBe('Acme');
    s.counted(0, 0, -1);
    expect(s.shown(0)).toBe('ACME');
    expect(s.other.size).toBe(1);
    s.counted(0, 2, -1);
    expect(s.other.size).toBe(0);
    expect(s.shown(0)).toBe('Acme');
  });
});
