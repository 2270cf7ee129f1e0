import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger.js';
import { createIndexReader, type IndexReaderSource } from '../../src/offers/index-reader.js';
import { createLiveIndex, toIndexDocument } from '../../src/offers/live-index.js';
import type { OfferInput } from '../../src/offers/offer-input.js';
import type { FacetName } from '../../src/offers/schemas.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import { attributeValue } from '../../src/search/attributes/values.js';
import type { AttributeDeclaration, EngineQuery, IndexDocument } from '../../src/search/engine.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { engineQuery } from '../support/engine-query.js';
import { createNaiveIndex } from '../support/naive-index.js';

/**
 * The start-up read in a worker (ADR 0022) against the plain one (`store.scan` on the main
 * thread, the oracle): the same documents in the same order, and an engine built from either
 * answers the same, on both backends.
 */
const NOW = Date.UTC(2026, 10, 1);

function hostile(offers: OfferInput[]): OfferInput[] {
  // Text and values the compact page form must carry unchanged: non-ASCII, quotes and commas in
  // tags, an empty tag list, no expiry, a price with many digits.
  const [a, b, c] = offers;
  if (!a || !b || !c) throw new Error('too few offers');
  return [
    { ...a, title: 'Straße café 😀 "quoted", — naïve', tags: ['a,b', '"q"', 'ü'], expiresAt: null },
    { ...b, description: `${'x'.repeat(70)} DÉJÀ vu, the THE end.`, tags: [] },
    {
      ...c,
      price: { amount: '123456789.1234', currency: 'JPY' },
      location: { ...c.location, city: 'Zürich' },
    },
    ...offers.slice(3),
  ];
}

/** Declared attributes of every type, and values the worker must read as the main thread does. */
const DECLARED: AttributeDeclaration[] = [
  { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
  { name: 'storageGb', type: 'number', facet: true, sort: true, searchable: false },
  { name: 'year', type: 'number', facet: true, sort: true, searchable: false },
  { name: 'boxed', type: 'boolean', facet: true, sort: true, searchable: false },
  { name: 'colour', type: 'string', facet: true, sort: false, searchable: false },
];
const ODD_ATTRIBUTES: Array<Record<string, unknown>> = [
  { brand: 'Café-Co', storageGb: '64', boxed: 'TRUE', colour: 12 },
  { brand: 'CAFE CO', storageGb: 64, boxed: 0, colour: { hex: '#fff' } },
  { brand: '  ', storageGb: 'lots', boxed: 'maybe', colour: 'Bleu ÉLECTRIQUE', year: -0 },
  { brand: 42, year: '2019.5', boxed: true, other: 'not declared' },
];

function withOddAttributes(list: OfferInput[]): OfferInput[] {
  return list.map((o, i) =>
    i % 9 < ODD_ATTRIBUTES.length
      ? { ...o, attributes: { ...o.attributes, ...ODD_ATTRIBUTES[i % 9] } as OfferInput['attributes'] }
      : o,
  );
}

const offers = withOddAttributes(hostile([...generateOffers({ count: 61, seed: 11 })]));
const others = [...generateOffers({ count: 9, seed: 12, startIndex: 500 })];

const quiet = () =>
  createLogger({
    level: 'warn',
    stream: new Writable({ write: (_c, _e, callback) => callback() }),
  });

async function readAll(reader: ReturnType<typeof createIndexReader>): Promise<IndexDocument[]> {
  const docs: IndexDocument[] = [];
  for await (const page of reader('testing')) for (const doc of page) docs.push(doc);
  return docs;
}

function query(more: Partial<EngineQuery>): EngineQuery {
  return engineQuery(NOW, { limit: 100, ...more });
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`start-up read in a worker on ${dialect}`, () => {
    let database: TestDatabase;
    let source: IndexReaderSource;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      source =
        dialect === 'sqlite'
          ? { dialect, file: database.location }
          : { dialect: 'postgres', url: database.location };
      const store = createOfferStore(database.db);
      await store.upsertMany('testing', offers.slice(0, 30), NOW);
      await store.upsertMany('production', others, NOW);
      await store.upsertMany('testing', offers.slice(30), NOW + 1);
      // Rewritten rows keep their seq: the order is the first write's.
      await store.upsertMany('testing', [{ ...(offers[4] as OfferInput), status: 'withdrawn' }], NOW + 2);
    });
    afterAll(async () => {
      await database.drop();
    });

    it('reads the same documents in the same order as the plain read, across pages', async () => {
      const store = createOfferStore(database.db);
      const plain = (await store.scan('testing', 0, 10_000)).map((r) => toIndexDocument(r));
      expect(plain).toHaveLength(offers.length);
      for (const pageSize of [1, 7, 61, 1000]) {
        const docs = await readAll(createIndexReader(source, { pageSize, ahead: 1 }));
        expect(docs).toEqual(plain);
      }
    });

    it('builds an index that answers as one built by the plain read (the oracle)', async () => {
      const store = createOfferStore(database.db);
      const build = async (reader?: ReturnType<typeof createIndexReader>) => {
        const live = createLiveIndex({
          environment: 'testing',
          store,
          createIndex: (schema) => createSearchIndex({}, schema),
          logger: quiet(),
          pageSize: 13,
          reader,
        });
        await live.build();
        return live.index;
      };
      const plain = await build();
      const worker = await build(createIndexReader(source, { pageSize: 13 }));
      expect(worker.size).toBe(plain.size);
      const facets: FacetName[] = ['category', 'tag', 'city', 'country'];
      const queries = [
        query({}),
        query({ status: 'withdrawn' }),
        query({ status: 'expired', sort: 'price' }),
        query({ text: parseTextQuery('cafe strasse'), sort: 'relevance' }),
        query({ text: parseTextQuery('garden help'), sort: 'relevance' }),
        query({ text: parseTextQuery('deja'), sort: 'relevance' }),
        query({ tags: ['a,b'] }),
        query({ city: 'Zürich', currency: 'JPY' }),
        query({ near: { lat: 48.1, lon: 11.5 }, radiusKm: 2000, sort: 'distance' }),
      ];
      let found = 0;
      for (const q of queries) {
        const expected = plain.search(q, facets);
        expect(worker.search(q, facets)).toEqual(expected);
        found += expected.total;
      }
      // The queries find something (an empty answer would agree with anything).
      expect(found).toBeGreaterThan(offers.length);
    });

    it('carries the declared attributes: an index built from it answers as one built by the plain read', async () => {
      const store = createOfferStore(database.db);
      const plainDocs = (await store.scan('testing', 0, 10_000)).map((r) => toIndexDocument(r, true));
      const workerDocs: IndexDocument[] = [];
      for await (const page of createIndexReader(source, { pageSize: 7 })('testing', DECLARED))
        for (const doc of page) workerDocs.push(doc);
      // Only the declared values travel, each as the index reads it from the plain document.
      expect(workerDocs.map(({ attributes, ...rest }) => rest)).toEqual(
        plainDocs.map(({ attributes, ...rest }) => rest),
      );
      workerDocs.forEach((doc, i) => {
        expect(Object.keys(doc.attributes ?? {}).every((k) => DECLARED.some((d) => d.name === k))).toBe(true);
        for (const d of DECLARED)
          expect(attributeValue(d.type, doc.attributes?.[d.name])).toBe(
            attributeValue(d.type, plainDocs[i]?.attributes?.[d.name]),
          );
      });
      const schemas = {
        read: async () => ({ attributes: DECLARED, version: 1 }),
        version: async () => 1,
      };
      const build = async (reader?: ReturnType<typeof createIndexReader>) => {
        const live = createLiveIndex({
          environment: 'testing',
          store,
          createIndex: (schema) => createSearchIndex({}, schema),
          schemas,
          logger: quiet(),
          pageSize: 13,
          reader,
        });
        await live.build();
        return live.index;
      };
      const plain = await build();
      // The live index asks the worker for the declared attributes (no fallback to this thread).
      const asked: number[] = [];
      const reader = createIndexReader(source, { pageSize: 13 });
      const worker = await build((environment, declared) => {
        asked.push(declared?.length ?? 0);
        return reader(environment, declared);
      });
      expect(asked).toEqual([DECLARED.length]);
      const filter = (name: string, values: Array<number | string>, min: number | null = null) => ({
        name,
        values,
        min,
        max: null,
      });
      const facets = DECLARED.map((d) => `attr.${d.name}` as const);
      const queries = [
        query({}),
        query({ attributes: [filter('brand', ['cafe co'])] }),
        query({ attributes: [filter('storageGb', [64])] }),
        query({ attributes: [filter('boxed', [1])], sort: 'attr.year' }),
        query({ attributes: [filter('colour', ['12'])] }),
        query({ attributes: [filter('year', [], 2000)], sort: '-attr.storageGb' }),
        query({ text: parseTextQuery('cafe strasse'), sort: 'relevance' }),
      ];
      let found = 0;
      for (const q of queries) {
        const expected = plain.search(q, facets);
        expect(worker.search(q, facets)).toEqual(expected);
        found += expected.total;
      }
      expect(found).toBeGreaterThan(offers.length);
      // The odd values are indexed (the filters on them find offers).
      expect(plain.search(queries[1] as EngineQuery, []).total).toBeGreaterThan(0);
      expect(plain.search(queries[4] as EngineQuery, []).total).toBeGreaterThan(0);
    });

    it('feeds the live index, which then applies later writes from the change sequence', async () => {
      const store = createOfferStore(database.db);
      const naive = createNaiveIndex();
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => naive,
        logger: quiet(),
        reader: createIndexReader(source, { pageSize: 5 }),
      });
      await live.build();
      expect(naive.size).toBe(offers.length);
      expect(live.applied).toBe(await store.changeSeq('testing'));
      const later = [...generateOffers({ count: 3, seed: 13, startIndex: 900 })];
      await store.upsertMany('testing', later, NOW + 3);
      await live.catchUp();
      expect(naive.size).toBe(offers.length + later.length);
    });

    it('falls back to the main thread when the worker read fails, first page or later', async () => {
      const store = createOfferStore(database.db);
      const failing: ReturnType<typeof createIndexReader> = (environment) => ({
        async *[Symbol.asyncIterator]() {
          let pages = 0;
          for await (const page of createIndexReader(source, { pageSize: 10 })(environment)) {
            yield page;
            pages += 1;
            if (pages === 2) throw new Error('worker lost');
          }
        },
      });
      const bad: IndexReaderSource =
        dialect === 'sqlite'
          ? { dialect, file: `${database.location}.missing` }
          : { dialect: 'postgres', url: `${database.location}_missing` };
      for (const reader of [failing, createIndexReader(bad)]) {
        const lines: string[] = [];
        const naive = createNaiveIndex();
        const live = createLiveIndex({
          environment: 'testing',
          store,
          createIndex: () => naive,
          logger: createLogger({
            level: 'warn',
            stream: new Writable({
              write(chunk, _e, callback) {
                lines.push(String(chunk));
                callback();
              },
            }),
          }),
          reader,
        });
        await live.build();
        expect(live.ready).toBe(true);
        expect([...naive.docs.values()]).toEqual(
          (await store.scan('testing', 0, 10_000)).map((r) => toIndexDocument(r)),
        );
        expect(lines.some((l) => l.includes('start-up read in a worker failed'))).toBe(true);
      }
    });

    it('stops its worker when the reading stops early, and fails loudly on a bad source', async () => {
      const reader = createIndexReader(source, { pageSize: 5 });
      let pages = 0;
      for await (const page of reader('testing')) {
        expect([...page]).toHaveLength(5);
        pages += 1;
        if (pages === 2) break;
      }
      expect(pages).toBe(2);
      const bad: IndexReaderSource =
        dialect === 'sqlite'
          ? { dialect, file: `${database.location}.missing` }
          : { dialect: 'postgres', url: `${database.location}_missing` };
      await expect(readAll(createIndexReader(bad))).rejects.toThrow();
    });
  });
}
