import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Change,
  changeArb,
  initialDocs,
  nearestQueryArb,
  queryArb,
  rankingQueryArb,
  statusOnlyQueryArb,
} from '../../test/support/search-arbitraries.js';
import { referenceSearch } from '../../test/support/search-reference.js';
import type { EngineQuery, IndexDocument } from './engine.js';
import { createSearchIndex, type Index } from './search-index.js';
import { captureIndex, readIndex, writeIndex } from './snapshot.js';
import { openSnapshot, writeAtomically } from './snapshot-io.js';
import { DEFAULT_TUNING } from './tuning.js';

/**
 * ADR 0024: an index written to a snapshot and read back answers every query as a freshly built
 * one does, also when offers were written while the snapshot was being written (the catch-up
 * after a load re-applies them).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-snapshot-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;

function apply(index: Index, docs: Map<string, IndexDocument>, change: Change): void {
  if (change.kind === 'upsert') {
    index.upsert(change.doc);
    docs.set(change.doc.id, change.doc);
  } else {
    index.remove(change.id);
    docs.delete(change.id);
  }
}

/** Writes `index` to a file, applying `during[i]` before section i is written; reads it back. */
async function roundTrip(index: Index, during: readonly (() => void)[] = []): Promise<Index> {
  const file = path.join(dir, `index-${files++}.snap`);
  const capture = captureIndex(index);
  await writeAtomically(file, async (writer) => {
    let sections = 0;
    const section = writer.section.bind(writer);
    writer.section = (parts) => {
      during[sections++]?.();
      return section(parts);
    };
    await writeIndex(writer, index, capture);
  });
  const { reader, close } = await openSnapshot(file);
  try {
    return await readIndex(reader, DEFAULT_TUNING);
  } finally {
    await close();
  }
}

function pages(index: Index, query: EngineQuery, facets: Parameters<Index['search']>[1]) {
  const out: unknown[] = [];
  let after: EngineQuery['after'] = null;
  for (let page = 0; page < 100; page += 1) {
    const { matchedStems: _, ...got } = index.search({ ...query, after }, facets);
    out.push(got);
    if (got.nextKeys === null) break;
    after = got.nextKeys;
  }
  return out;
}

const anyQuery = fc.oneof(queryArb(4), queryArb(20), rankingQueryArb, nearestQueryArb, statusOnlyQueryArb);

describe('search index snapshot', () => {
  it('reads back an index that answers every query like a fresh build of the same offers', async () => {
    await fc.assert(
      fc.asyncProperty(
        initialDocs,
        fc.array(changeArb, { maxLength: 30 }),
        fc.array(anyQuery, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (docs, changes, queries, compact) => {
          const index = createSearchIndex() as Index;
          const live = new Map<string, IndexDocument>();
          for (const doc of docs) apply(index, live, { kind: 'upsert', doc });
          if (compact) index.compact();
          for (const change of changes) apply(index, live, change);
          // Sorted orders folded before the snapshot, as after queries in a serving process.
          index.search({ ...(queries[0] as { query: EngineQuery }).query, sort: 'price' }, []);
          const loaded = await roundTrip(index);
          const fresh = createSearchIndex() as Index;
          for (const doc of live.values()) fresh.upsert(doc);
          expect(loaded.size).toBe(live.size);
          for (const { query, facets } of queries) {
            const expected = pages(fresh, query, facets);
            expect(pages(loaded, query, facets)).toEqual(expected);
            expect(expected[0]).toMatchObject({
              total: referenceSearch([...live.values()], query, facets).total,
            });
          }
          // The loaded index keeps taking writes.
          for (const change of changes.slice(0, 5)) {
            apply(loaded, new Map(), change);
            apply(fresh, live, change);
          }
          for (const { query, facets } of queries)
            expect(pages(loaded, query, facets)).toEqual(pages(fresh, query, facets));
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('is exact once the writes made while it was written are applied again after the load', async () => {
    await fc.assert(
      fc.asyncProperty(
        initialDocs,
        fc.array(fc.tuple(fc.nat(60), changeArb), { maxLength: 20 }),
        fc.array(anyQuery, { minLength: 1, maxLength: 3 }),
        async (docs, timed, queries) => {
          const index = createSearchIndex() as Index;
          const live = new Map<string, IndexDocument>();
          for (const doc of docs) apply(index, live, { kind: 'upsert', doc });
          const during: Array<() => void> = [];
          const late: Change[] = [];
          for (const [at, change] of timed) {
            const before = during[at];
            during[at] = () => {
              before?.();
              apply(index, live, change);
              late.push(change);
            };
          }
          const loaded = await roundTrip(index, during);
          // As a catch-up reads them: each offer written meanwhile once, as it is now, by id.
          const touched = [...new Set(late.map((c) => (c.kind === 'upsert' ? c.doc.id : c.id)))].sort();
          for (const id of touched) {
            const doc = live.get(id);
            apply(loaded, new Map(), doc ? { kind: 'upsert', doc } : { kind: 'remove', id });
          }
          const fresh = createSearchIndex() as Index;
          for (const doc of live.values()) fresh.upsert(doc);
          expect(loaded.size).toBe(live.size);
          for (const { query, facets } of queries)
            expect(pages(loaded, query, facets)).toEqual(pages(fresh, query, facets));
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);
});
