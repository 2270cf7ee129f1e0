import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { engineQuery } from '../../../test/support/engine-query.js';
import {
  type Change,
  changeArb,
  documentArb,
  idArb,
  initialDocs,
  NOW,
  nearestQueryArb,
  queryArb,
  RANKED_SCHEMAS,
  rankedTextQueryArb,
  rankingQueryArb,
  SEARCHABLE_SCHEMA,
  SEARCHABLE_SCHEMAS,
  searchableDocs,
  statusOnlyQueryArb,
} from '../../../test/support/search-arbitraries.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import { parseTextQuery } from '../analysis/text.js';
import { DEFAULT_TUNING } from '../columns/tuning.js';
import type { EngineQuery, IndexDocument, SearchSchema } from '../engine.js';
import { FACET_NAMES, NO_ATTRIBUTES } from '../engine.js';
import { createSearchIndex, type Index } from '../index/search-index.js';
import { captureIndex, readIndex, writeIndex } from './snapshot.js';
import { headerProblem, SNAPSHOT_FORMAT, snapshotHeader } from './snapshot-header.js';
import { openSnapshot, writeAtomically } from './snapshot-io.js';

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
async function roundTrip(
  index: Index,
  during: readonly (() => void)[] = [],
  schema: SearchSchema = NO_ATTRIBUTES,
): Promise<Index> {
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
    return await readIndex(reader, DEFAULT_TUNING, schema);
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

/** The offers built at start: usually many, also none (an environment without offers) or a few. */
const startDocs = fc.oneof(
  { arbitrary: initialDocs, weight: 3 },
  fc.constant([] as IndexDocument[]),
  fc
    .uniqueArray(idArb, { minLength: 1, maxLength: 3 })
    .chain((ids) => fc.tuple(...ids.map((id) => documentArb(id)))),
);

/** How the build ended: as a start does (finishBuild), compacted, or not at all (tests). */
const ending = fc.constantFrom('finishBuild', 'compact', 'none');

function build(
  docs: readonly IndexDocument[],
  end: 'finishBuild' | 'compact' | 'none',
  schema: SearchSchema = NO_ATTRIBUTES,
) {
  const index = createSearchIndex({}, schema) as Index;
  const live = new Map<string, IndexDocument>();
  for (const doc of docs) apply(index, live, { kind: 'upsert', doc });
  if (end === 'finishBuild') index.finishBuild();
  else if (end === 'compact') index.compact();
  return { index, live };
}

/** The loaded index answers as a fresh build of `live` does, before and after more writes. */
function expectSameAsFresh(
  loaded: Index,
  live: Map<string, IndexDocument>,
  queries: ReadonlyArray<{ query: EngineQuery; facets: Parameters<Index['search']>[1] }>,
  more: readonly Change[],
  schema: SearchSchema = NO_ATTRIBUTES,
): void {
  const fresh = createSearchIndex({}, schema) as Index;
  for (const doc of live.values()) fresh.upsert(doc);
  expect(loaded.size).toBe(live.size);
  for (const { query, facets } of queries) {
    const expected = pages(fresh, query, facets);
    expect(pages(loaded, query, facets)).toEqual(expected);
    expect(expected[0]).toMatchObject({
      total: referenceSearch([...live.values()], query, facets, schema).total,
    });
  }
  // The loaded index keeps taking writes.
  for (const change of more) {
    apply(loaded, new Map(), change);
    apply(fresh, live, change);
  }
  expect(loaded.size).toBe(live.size);
  for (const { query, facets } of queries)
    expect(pages(loaded, query, facets)).toEqual(pages(fresh, query, facets));
}

describe('search index snapshot', () => {
  it('reads back the attribute columns and the tie-break: attr.* filters, facets, sorts and ranking as a fresh build', async () => {
    const schema = (RANKED_SCHEMAS[1] as [string, SearchSchema])[1];
    const attributeQuery = fc.oneof(queryArb(4, true), queryArb(20, true), rankingQueryArb);
    await fc.assert(
      fc.asyncProperty(
        startDocs,
        ending,
        fc.array(changeArb, { maxLength: 30 }),
        fc.array(attributeQuery, { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(changeArb, { maxLength: 2 }), { maxLength: 6 }),
        async (docs, end, changes, queries, during) => {
          const { index, live } = build(docs, end, schema);
          for (const change of changes) apply(index, live, change);
          // Writes while the file is written: the load drops their slots, the catch-up re-applies them.
          const made: Change[] = [];
          const loaded = await roundTrip(
            index,
            during.map((batch) => () => {
              for (const change of batch) {
                apply(index, new Map(), change);
                made.push(change);
              }
            }),
            schema,
          );
          expect(loaded.schema).toBe(schema);
          for (const change of made) apply(loaded, live, change);
          expectSameAsFresh(loaded, live, queries, changes.slice(0, 5), schema);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('reads back the searchable attributes: their words, counts and bitmaps rank as a fresh build (ADR 0042)', async () => {
    const [, schema] = SEARCHABLE_SCHEMAS[1] as [string, SearchSchema];
    await fc.assert(
      fc.asyncProperty(
        searchableDocs,
        ending,
        fc.array(changeArb, { maxLength: 20 }),
        fc.array(fc.oneof(rankedTextQueryArb, queryArb(4, true)), { minLength: 1, maxLength: 4 }),
        async (docs, end, changes, queries) => {
          const { index, live } = build(docs, end, schema);
          for (const change of changes) apply(index, live, change);
          const loaded = await roundTrip(index, [], schema);
          expectSameAsFresh(loaded, live, queries, changes.slice(0, 5), schema);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('refuses a snapshot of format 4 (before searchable attributes) and one taken before an attribute became searchable', () => {
    const { index } = build([], 'finishBuild', SEARCHABLE_SCHEMA);
    const of = { environment: 'testing', databaseId: 'db', applied: 0 };
    const expected = { environment: 'testing', databaseId: 'db', changeSeq: 0, schema: SEARCHABLE_SCHEMA };
    const header = snapshotHeader(captureIndex(index), of);
    expect(SNAPSHOT_FORMAT).toBe(6);
    expect(headerProblem(header, expected)).toBeNull();
    expect(headerProblem({ ...header, format: 4 }, expected)).toBe('format 4, not 6');
    // The same attributes, one of them no longer searchable: other declarations.
    const fewer = {
      attributes: SEARCHABLE_SCHEMA.attributes.map((a) =>
        a.name === 'material' ? { ...a, searchable: false } : a,
      ),
    };
    expect(headerProblem(header, { ...expected, schema: fewer })).toBe(
      'built under other declared attributes or another ranking tie-break',
    );
  });

  it('refuses a snapshot built under other declarations (the header) and columns that are not the declared ones', async () => {
    const [, ranked] = RANKED_SCHEMAS[1] as [string, SearchSchema];
    const [, other] = RANKED_SCHEMAS[0] as [string, SearchSchema];
    const { index } = build([], 'finishBuild', ranked);
    const header = snapshotHeader(captureIndex(index), {
      environment: 'testing',
      databaseId: 'db',
      applied: 0,
    });
    const expected = { environment: 'testing', databaseId: 'db', changeSeq: 0 };
    expect(headerProblem(header, { ...expected, schema: ranked })).toBeNull();
    // The same attributes in another order are the same declarations.
    expect(
      headerProblem(header, {
        ...expected,
        schema: { ...ranked, attributes: [...ranked.attributes].reverse() },
      }),
    ).toBeNull();
    for (const schema of [other, NO_ATTRIBUTES, { ...ranked, rankBy: null }]) {
      expect(headerProblem(header, { ...expected, schema })).toBe(
        'built under other declared attributes or another ranking tie-break',
      );
    }
    // Read under other columns than it holds: refused, never misread.
    await expect(roundTrip(index, [], NO_ATTRIBUTES)).rejects.toThrow('not the declared ones');
  });

  it('reads back an index that answers every query like a fresh build of the same offers', async () => {
    await fc.assert(
      fc.asyncProperty(
        startDocs,
        ending,
        fc.array(changeArb, { maxLength: 30 }),
        // Now and then every offer removed after the changes: slots, none alive.
        fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, fc.constant(true)),
        fc.array(anyQuery, { minLength: 1, maxLength: 4 }),
        async (docs, end, changes, removeAll, queries) => {
          const { index, live } = build(docs, end);
          for (const change of changes) apply(index, live, change);
          if (removeAll) for (const id of [...live.keys()]) apply(index, live, { kind: 'remove', id });
          // Sorted orders folded before the snapshot, as after queries in a serving process.
          index.search({ ...(queries[0] as { query: EngineQuery }).query, sort: 'price' }, []);
          expectSameAsFresh(await roundTrip(index), live, queries, changes.slice(0, 5));
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('reads back an empty index, one whose offers were all removed, and one of one offer', async () => {
    const [doc, other] = fc.sample(documentArb('off_001'), { numRuns: 2, seed: 24 }) as IndexDocument[];
    const one = { ...(doc as IndexDocument), id: 'off_001' };
    const more: Change[] = [
      { kind: 'upsert', doc: { ...(other as IndexDocument), id: 'off_002' } },
      { kind: 'upsert', doc: one },
    ];
    const queries = [
      { query: engineQuery(NOW, { text: parseTextQuery('chair') }), facets: FACET_NAMES },
      {
        query: engineQuery(NOW, { sort: 'price', near: { lat: 48.8, lon: 2.3 }, radiusKm: 5000 }),
        facets: [],
      },
      {
        query: engineQuery(NOW, { status: 'withdrawn', sort: 'distance', near: { lat: 48.8, lon: 2.3 } }),
        facets: [],
      },
    ];
    for (const end of ['finishBuild', 'compact', 'none'] as const) {
      // None ever (an environment without offers, as a start builds it).
      const empty = build([], end);
      expectSameAsFresh(await roundTrip(empty.index), empty.live, queries, more);
      // Every offer removed: the slots, the values, the words and the grid's cells stay, none alive.
      const removed = build([one, { ...(other as IndexDocument), id: 'off_002' }], end);
      for (const id of ['off_001', 'off_002']) apply(removed.index, removed.live, { kind: 'remove', id });
      expectSameAsFresh(await roundTrip(removed.index), removed.live, queries, more);
      // One offer.
      const single = build([one], end);
      expectSameAsFresh(await roundTrip(single.index), single.live, queries, more);
    }
  });

  it('reads back the proximity floors’ stem-pairs filter, and extends it to the slots added after the load', async () => {
    const docs = fc.sample(documentArb('off_000'), { numRuns: 40, seed: 59 }) as IndexDocument[];
    const { index, live } = build(
      docs.map((d, i) => ({ ...d, id: `off_${String(i).padStart(3, '0')}` })),
      'finishBuild',
    );
    index.warm(NOW);
    const kept = index.proximity.adjacent.state();
    expect(kept.upTo).toBe(index.slots);
    const loaded = await roundTrip(index);
    expect(loaded.proximity.adjacent.state()).toEqual(kept);
    // A slot added after the load is read into the filter on the next use: the same filter as
    // an index that had it all along.
    const added = { ...(docs[0] as IndexDocument), id: 'off_new' };
    apply(loaded, new Map(live), { kind: 'upsert', doc: added });
    apply(index, live, { kind: 'upsert', doc: added });
    loaded.warm(NOW);
    index.warm(NOW);
    expect(loaded.proximity.adjacent.state()).toEqual(index.proximity.adjacent.state());
    // A filter whose length is no power of two (a damaged file) is refused, never masked wrongly.
    expect(() => loaded.proximity.adjacent.restore(new Uint32Array(48), 0)).toThrow(/power of two/);
  });

  it('reads back a list of bitmaps whose last section ended with a time slice', async () => {
    // 64 tags: the tag sets are one list of 64 bitmaps, a slice's end falls on its last one.
    const docs = fc
      .sample(documentArb('off_000'), { numRuns: 64, seed: 7 })
      .map((doc, i) => ({ ...doc, id: `off_${String(i).padStart(3, '0')}`, tags: [`tag-${i}`] }));
    const { index, live } = build(docs, 'finishBuild');
    let clock = 0;
    // Every reading of the clock 10 ms later: each 64th bitmap of a list ends its section.
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    let loaded: Index;
    try {
      loaded = await roundTrip(index);
    } finally {
      now.mockRestore();
    }
    const queries = [
      { query: engineQuery(NOW, { tags: ['tag-63'], status: 'expired' }), facets: FACET_NAMES },
      { query: engineQuery(NOW, { limit: 100 }), facets: FACET_NAMES },
    ];
    expectSameAsFresh(loaded, live, queries, []);
  });

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
