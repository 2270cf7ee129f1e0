import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/http/logger.js';
import { createIndexSnapshots } from '../../src/offers/index-snapshots.js';
import { createLiveIndex, toIndexDocument } from '../../src/offers/live-index.js';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createSnapshotMarks, type SnapshotMarks } from '../../src/offers/snapshot-marks.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import { DEFAULT_TUNING } from '../../src/search/columns/tuning.js';
import type { SearchSchema } from '../../src/search/engine.js';
import { createSearchIndex, type Index } from '../../src/search/index/search-index.js';
import { captureIndex, writeIndex } from '../../src/search/snapshot/snapshot.js';
import type { SnapshotHeader } from '../../src/search/snapshot/snapshot-header.js';
import { MAGIC, writeAtomically } from '../../src/search/snapshot/snapshot-io.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { engineQuery } from '../support/engine-query.js';

/**
 * ADR 0024 on both backends: a start from a snapshot finds the writes made after it; a snapshot
 * that is damaged, of another database, ahead of the database, of another timeline of it (a
 * restored backup: its mark is missing) or of another text analysis is ignored with a warning (a
 * full build); a failed write leaves the previous file usable; no mark, no file; the snapshot of
 * an environment without offers is loaded as any other.
 */
const NOW = Date.UTC(2026, 10, 1);
const offers = [...generateOffers({ count: 40, seed: 3 })];

function capturingLogger(lines: string[]) {
  return createLogger({
    level: 'info',
    stream: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
  });
}

const identityOf = async (db: Database) =>
  ((await db.get<{ id: string }>('SELECT id FROM database_identity WHERE one = 1')) as { id: string }).id;

function snapshotsOf(db: Database, dir: string, lines: string[], marks = createSnapshotMarks(db)) {
  const logger = capturingLogger(lines);
  return {
    logger,
    snapshots: createIndexSnapshots({ dir, databaseId: () => identityOf(db), marks, logger }),
  };
}

function start(
  db: Database,
  dir: string,
  lines: string[] = [],
  more: Partial<Parameters<typeof createLiveIndex>[0]> = {},
  marks?: SnapshotMarks,
) {
  return createLiveIndex({
    ...more,
    environment: 'testing',
    store: createOfferStore(db),
    createIndex: (schema) => createSearchIndex({}, schema),
    pageSize: 7,
    ...snapshotsOf(db, dir, lines, marks),
  });
}

/** Every live id the index answers, status by status, in price order. */
function allIds(index: Index): string[] {
  return (['active', 'expired', 'withdrawn'] as const).flatMap(
    (status) => index.search(engineQuery(NOW, { status, sort: 'price', limit: 10_000 }), []).ids,
  );
}

function headerOf(file: string): SnapshotHeader {
  const bytes = fs.readFileSync(file);
  const length = bytes.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 8;
  return JSON.parse(bytes.subarray(start, start + length).toString('utf8'));
}

/** The file with its header (first section) changed and its checksum made right again. */
function rewriteHeader(file: string, patch: Record<string, unknown>): void {
  const bytes = fs.readFileSync(file);
  const length = bytes.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 8;
  const header = JSON.parse(bytes.subarray(start, start + length).toString('utf8'));
  const next = Buffer.from(JSON.stringify({ ...header, ...patch }), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(next.length, 0);
  head.writeUInt32LE(crc32(next) >>> 0, 4);
  fs.writeFileSync(file, Buffer.concat([MAGIC, head, next, bytes.subarray(start + length)]));
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`search-index snapshots on ${dialect}`, () => {
    let database: TestDatabase;
    let other: TestDatabase;
    let dir: string;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      other = await createTestDatabase(dialect);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-snapshots-'));
      const store = createOfferStore(database.db);
      await store.upsertMany('testing', offers, NOW);
      await store.upsertMany('testing', offers.slice(0, 5), NOW + 1);
      await createOfferStore(other.db).upsertMany('testing', offers.slice(0, 3), NOW);
    });
    afterAll(async () => {
      await database.drop();
      await other.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const file = () => path.join(dir, 'testing.snapshot');

    it('starts from the snapshot written after a full build and applies the writes made since', async () => {
      const lines: string[] = [];
      const first = start(database.db, dir, lines);
      await first.build();
      await first.close();
      expect(lines.some((l) => l.includes('wrote snapshot'))).toBe(true);
      expect(fs.existsSync(file())).toBe(true);
      const header = headerOf(file());
      expect(await createSnapshotMarks(database.db).find('testing', header.mark)).toMatchObject({
        applied: header.applied,
      });
      const store = createOfferStore(database.db);
      const later = [...generateOffers({ count: 6, seed: 4, startIndex: 500 })];
      await store.upsertMany('testing', later, NOW + 2);
      const changed = offers[7] as (typeof offers)[number];
      await store.upsertMany('testing', [{ ...changed, status: 'withdrawn' }], NOW + 3);

      const startLines: string[] = [];
      const second = start(database.db, dir, startLines);
      await second.build();
      const loaded = startLines.find((l) => l.includes('search index: loaded snapshot'));
      expect(loaded).toBeDefined();
      expect(JSON.parse(loaded as string)).toMatchObject({
        caughtUp: 7,
        offers: offers.length + later.length,
      });
      expect(second.applied).toBe(await store.changeSeq('testing'));
      const fresh = start(database.db, path.join(dir, 'none'));
      await fresh.build();
      expect(allIds(second.index as Index)).toEqual(allIds(fresh.index as Index));
      expect(allIds(second.index as Index)).toContain(offerIdFor('testing', later[0]?.externalId ?? ''));
      const withdrawn = (second.index as Index).search(
        engineQuery(NOW, { status: 'withdrawn', limit: 100 }),
        [],
      ).ids;
      expect(withdrawn).toContain(offerIdFor('testing', changed.externalId));
      await Promise.all([second.close(), fresh.close()]);
    });

    it('starts from the snapshot of an environment without offers, without a warning', async () => {
      const empty = await createTestDatabase(dialect);
      const here = fs.mkdtempSync(path.join(dir, 'no-offers-'));
      try {
        const first = start(empty.db, here);
        await first.build();
        await first.close();
        expect(fs.existsSync(path.join(here, 'testing.snapshot'))).toBe(true);

        const lines: string[] = [];
        const second = start(empty.db, here, lines);
        await second.build();
        const logged = lines.map((l) => JSON.parse(l));
        expect(logged.filter((l) => l.level >= 40)).toEqual([]);
        expect(logged.find((l) => l.msg === 'search index: loaded snapshot')).toMatchObject({
          offers: 0,
          caughtUp: 0,
        });
        expect(second.index.size).toBe(0);
        // It keeps taking writes.
        await createOfferStore(empty.db).upsertMany('testing', offers.slice(0, 3), NOW);
        await second.catchUp();
        expect(allIds(second.index as Index).length).toBe(3);
        await second.close();
      } finally {
        await empty.drop();
      }
    });

    /** A new snapshot of `db` (none before: a full build writes it). */
    async function rewrite(db: Database): Promise<void> {
      fs.rmSync(file(), { force: true });
      const live = start(db, dir);
      await live.build();
      await live.close();
      expect(fs.existsSync(file())).toBe(true);
    }

    /** The ids of the index a start built from the database, having refused the snapshot. */
    async function expectFullBuild(db: Database, problem: RegExp): Promise<string[]> {
      const lines: string[] = [];
      const live = start(db, dir, lines);
      await live.build();
      await live.close();
      expect(live.ready).toBe(true);
      expect(lines.some((l) => l.includes('loaded snapshot'))).toBe(false);
      const warning = lines.map((l) => JSON.parse(l)).find((l) => l.level === 40);
      expect(warning).toBeDefined();
      expect(JSON.stringify(warning)).toMatch(problem);
      expect(allIds(live.index as Index).length).toBe(live.index.size);
      return allIds(live.index as Index);
    }

    it('builds from the database when the snapshot is of another database', async () => {
      await expectFullBuild(other.db, /another database/);
    });

    it('builds from the database when the snapshot is ahead of it (a restored backup)', async () => {
      await rewrite(database.db);
      const id = await identityOf(database.db);
      await other.db.run('UPDATE database_identity SET id = ? WHERE one = 1', [id]);
      await expectFullBuild(other.db, /ahead of the database/);
    });

    it('builds from the database when the snapshot is of a timeline a restored backup discarded', async () => {
      const origin = await createTestDatabase(dialect);
      const store = () => createOfferStore(origin.db);
      await store().upsertMany('testing', offers.slice(0, 10), NOW);
      const backup = await origin.copy(); // taken before the snapshot
      try {
        // Written after the backup: only the discarded timeline has them.
        const lost = [...generateOffers({ count: 4, seed: 8, startIndex: 800 })];
        await store().upsertMany('testing', lost, NOW + 1);
        await rewrite(origin.db);
        const { applied } = headerOf(file());
        expect(applied).toBe(await store().changeSeq('testing'));

        // The restore: same identity; its own writes carry its counter past the snapshot's.
        const restored = createOfferStore(backup.db);
        expect(await identityOf(backup.db)).toBe(await identityOf(origin.db));
        const after = [...generateOffers({ count: 6, seed: 9, startIndex: 900 })];
        for (const offer of after) await restored.upsertMany('testing', [offer], NOW + 2); // a write each
        const changeSeq = await restored.changeSeq('testing');
        expect(changeSeq).toBeGreaterThan(applied);

        const lines: string[] = [];
        const { snapshots } = snapshotsOf(backup.db, dir, lines);
        expect(await snapshots.load('testing', changeSeq, DEFAULT_TUNING)).toBeNull();
        expect(lines.join('')).toContain('taken on another timeline of this database (a restored backup?)');

        const ids = await expectFullBuild(backup.db, /another timeline of this database/);
        const idsOf = (list: typeof offers) => list.map((o) => offerIdFor('testing', o.externalId));
        expect(ids.toSorted()).toEqual(idsOf([...offers.slice(0, 10), ...after]).toSorted());
        for (const id of idsOf(lost)) expect(ids).not.toContain(id);
      } finally {
        await backup.drop();
        await origin.drop();
      }
    });

    it('builds from the database when the snapshot is of a format before marks, publishers, searchable attributes or the pair filter, or its mark disagrees', async () => {
      await rewrite(database.db);
      const { applied } = headerOf(file());
      rewriteHeader(file(), { format: 1 });
      await expectFullBuild(database.db, /format 1, not 6/);
      // Formats 2 and 3 had no publisher column (distinct=publisher): never read as if it had.
      await rewrite(database.db);
      rewriteHeader(file(), { format: 2 });
      await expectFullBuild(database.db, /format 2, not 6/);
      await rewrite(database.db);
      rewriteHeader(file(), { format: 3 });
      await expectFullBuild(database.db, /format 3, not 6/);
      // Format 4 had no searchable attributes' words (ADR 0042): never read as if it had.
      await rewrite(database.db);
      rewriteHeader(file(), { format: 4 });
      await expectFullBuild(database.db, /format 4, not 6/);
      // Format 5 had no proximity floors' stem-pairs filter (ADR 0059): never read as if it had.
      await rewrite(database.db);
      rewriteHeader(file(), { format: 5 });
      await expectFullBuild(database.db, /format 5, not 6/);
      await rewrite(database.db);
      rewriteHeader(file(), { applied: applied - 1 });
      await expectFullBuild(
        database.db,
        new RegExp(`its mark records sequence ${applied}, not ${applied - 1}`),
      );
      await rewrite(database.db);
      rewriteHeader(file(), { mark: randomUUID() });
      await expectFullBuild(database.db, /another timeline of this database/);
    });

    it('loads a snapshot with its attribute columns under the same declarations, and builds under others', async () => {
      const own = fs.mkdtempSync(path.join(dir, 'attributes-'));
      const schema: SearchSchema = {
        attributes: [
          { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
          { name: 'condition', type: 'string', facet: true, sort: false, searchable: false },
          { name: 'ramGb', type: 'number', facet: true, sort: true, searchable: false },
        ],
        rankBy: { name: 'ramGb', descending: true },
      };
      const schemas = (declared: SearchSchema) => ({
        read: async () => ({ attributes: declared.attributes, rankBy: declared.rankBy ?? null, version: 1 }),
        version: async () => 1,
      });
      const queries = [
        engineQuery(NOW, { attributes: [{ name: 'condition', values: ['good'], min: null, max: null }] }),
        engineQuery(NOW, { sort: '-attr.ramGb', limit: 100 }),
        engineQuery(NOW, { text: parseTextQuery('for'), sort: 'relevance', limit: 100 }),
      ];
      const answers = (index: Index) =>
        queries.map((q) => index.search(q, ['attr.brand', 'attr.ramGb', 'attr.condition']));
      const first = start(database.db, own, [], { schemas: schemas(schema) });
      await first.build();
      await first.close();
      expect(headerOf(path.join(own, 'testing.snapshot')).schema).toMatch(/^[0-9a-f]{32}$/);

      const lines: string[] = [];
      const second = start(database.db, own, lines, { schemas: schemas(schema) });
      await second.build();
      expect(lines.some((l) => l.includes('search index: loaded snapshot'))).toBe(true);
      const fresh = createSearchIndex({}, schema) as Index;
      for (const row of await createOfferStore(database.db).scan('testing', 0, 10_000))
        fresh.upsert(toIndexDocument(row, true));
      const loaded = answers(second.index as Index);
      expect(loaded).toEqual(answers(fresh));
      expect((loaded[0] as { total: number }).total).toBeGreaterThan(0);
      await second.close();

      // Other declarations (the tie-break alone differs): the snapshot is not used.
      const otherLines: string[] = [];
      const third = start(database.db, own, otherLines, { schemas: schemas({ ...schema, rankBy: null }) });
      await third.build();
      expect(otherLines.some((l) => l.includes('loaded snapshot'))).toBe(false);
      expect(otherLines.join('\n')).toContain(
        'built under other declared attributes or another ranking tie-break',
      );
      expect(third.index.size).toBe(fresh.size);
      await third.close();

      // An attribute made searchable (ADR 0042): other declarations, the snapshot is not used.
      const searchable = {
        ...schema,
        attributes: schema.attributes.map((a) => (a.name === 'brand' ? { ...a, searchable: true } : a)),
      };
      const searchableLines: string[] = [];
      const fourth = start(database.db, own, searchableLines, { schemas: schemas(searchable) });
      await fourth.build();
      expect(searchableLines.some((l) => l.includes('loaded snapshot'))).toBe(false);
      expect(fourth.index.schema).toEqual(searchable);
      await fourth.close();
    });

    it('writes no snapshot when its mark cannot be recorded, and the start goes on', async () => {
      const empty = fs.mkdtempSync(path.join(dir, 'no-mark-'));
      const marks = createSnapshotMarks(database.db);
      const lines: string[] = [];
      const live = start(
        database.db,
        empty,
        lines,
        {},
        {
          add: () => Promise.reject(new Error('the database is read-only')),
          find: marks.find,
        },
      );
      await live.build();
      await live.close();
      expect(live.ready).toBe(true);
      expect(live.index.size).toBeGreaterThan(0);
      expect(fs.readdirSync(empty)).toEqual([]);
      const warning = lines.map((l) => JSON.parse(l)).find((l) => l.level === 40);
      expect(warning?.msg).toBe('search index: snapshot could not be written');
      expect(JSON.stringify(warning)).toContain('the database is read-only');
    });

    it('keeps the newest marks of each environment', async () => {
      const db = await createTestDatabase(dialect);
      try {
        const marks = createSnapshotMarks(db.db, 3);
        const add = (token: string, environment: 'testing' | 'production' = 'testing') =>
          marks.add({ environment, token, applied: 7, createdAt: NOW });
        await add('p1', 'production');
        for (const token of ['t1', 't2', 't3', 't4', 't5']) await add(token);
        const found = async (environment: 'testing' | 'production', token: string) =>
          (await marks.find(environment, token)) !== null;
        expect(await Promise.all(['t1', 't2', 't3', 't4', 't5'].map((t) => found('testing', t)))).toEqual([
          false,
          false,
          true,
          true,
          true,
        ]);
        expect(await found('production', 'p1')).toBe(true);
        expect(await found('production', 't5')).toBe(false);
        expect(await marks.find('testing', 't5')).toEqual({
          environment: 'testing',
          token: 't5',
          applied: 7,
          createdAt: NOW,
        });
      } finally {
        await db.drop();
      }
    });

    it('builds from the database when the text analysis changed or the file is damaged', async () => {
      await rewrite(database.db);
      rewriteHeader(file(), { fingerprint: 'not-this-analysis' });
      await expectFullBuild(database.db, /another version of the text analysis/);
      const bytes = fs.readFileSync(file());
      const middle = Math.floor(bytes.length / 2);
      bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
      fs.writeFileSync(file(), bytes);
      await expectFullBuild(database.db, /checksum/);
      fs.writeFileSync(file(), fs.readFileSync(file()).subarray(0, 1000));
      await expectFullBuild(database.db, /ends early|checksum/);
    });

    it('writes a snapshot again after enough writes, no sooner than the interval, and at close', async () => {
      await rewrite(database.db);
      const store = createOfferStore(database.db);
      let clock = NOW;
      const lines: string[] = [];
      const live = start(database.db, dir, lines, {
        now: () => clock,
        snapshotAfter: { writes: 3, share: 0, intervalMs: 60_000 },
      });
      await live.build();
      const written = () => lines.filter((l) => l.includes('wrote snapshot')).length;
      const sequenceOnDisk = () => headerOf(file()).applied;
      const more = (n: number, at: number) =>
        store.upsertMany('testing', [...generateOffers({ count: n, seed: at, startIndex: at })], NOW);
      await more(2, 700);
      await live.catchUp();
      clock += 60_000;
      expect(written()).toBe(0); // two writes: not enough
      await more(2, 710);
      await live.catchUp();
      await live.close();
      expect(written()).toBe(1);
      expect(sequenceOnDisk()).toBe(await store.changeSeq('testing'));

      const again: string[] = [];
      const next = start(database.db, dir, again, {
        now: () => clock,
        snapshotAfter: { writes: 3, share: 0, intervalMs: 60_000 },
      });
      await next.build();
      await more(5, 720);
      await next.catchUp();
      // Enough writes, but within the interval of the load: not yet; at close, yes.
      expect(again.filter((l) => l.includes('wrote snapshot'))).toHaveLength(0);
      await next.close();
      expect(again.filter((l) => l.includes('wrote snapshot'))).toHaveLength(1);
      expect(sequenceOnDisk()).toBe(await store.changeSeq('testing'));
    });

    it('leaves the previous snapshot usable when a write fails half-way', async () => {
      await rewrite(database.db);
      const before = fs.readFileSync(file());
      const built = start(database.db, path.join(dir, 'elsewhere'));
      await built.build();
      const index = built.index as Index;
      let sections = 0;
      await expect(
        writeAtomically(file(), async (writer) => {
          const section = writer.section.bind(writer);
          writer.section = (parts) => {
            if (++sections === 6) throw new Error('disk full');
            return section(parts);
          };
          await writeIndex(writer, index, captureIndex(index));
        }),
      ).rejects.toThrow('disk full');
      expect(fs.readFileSync(file()).equals(before)).toBe(true);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      const lines: string[] = [];
      const live = start(database.db, dir, lines);
      await live.build();
      expect(lines.some((l) => l.includes('loaded snapshot'))).toBe(true);
      await live.close();
    });
  });
}
