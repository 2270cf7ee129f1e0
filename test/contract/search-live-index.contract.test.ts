import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { createLogger } from '../../src/http/logger.js';
import { createLiveIndex } from '../../src/offers/live-index.js';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createOfferStore } from '../../src/offers/store-sql.js';
import { ManualClock } from '../../src/platform/clock.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createNaiveIndex } from '../support/naive-index.js';

/**
 * The live index's lifecycle (issue 12) on both backends: the start-up read, changes applied in
 * change-sequence order, a process reading its own writes, `/readyz` before and after. The
 * engine's answers are not under test here (a stand-in index holds the documents).
 */
const offers = [...generateOffers({ count: 23, seed: 9 })];
const NOW = Date.UTC(2026, 10, 1);

function quietLogger(lines: string[] = []) {
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

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`live search index on ${dialect}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database.drop();
    });

    it('reads every offer at start in pages, then applies later writes only when it catches up', async () => {
      const store = createOfferStore(database.db);
      await store.upsertMany('testing', offers, NOW);
      await store.upsertMany('production', offers.slice(0, 2), NOW);
      const lines: string[] = [];
      const naive = createNaiveIndex();
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => naive,
        logger: quietLogger(lines),
        pageSize: 5,
      });
      expect(live.ready).toBe(false);
      await live.build();
      expect(live.ready).toBe(true);
      expect(naive.size).toBe(offers.length);
      const first = offers[0];
      if (!first) throw new Error('no offer');
      const doc = naive.docs.get(offerIdFor('testing', first.externalId));
      expect(doc).toMatchObject({
        title: first.title,
        category: first.category,
        tags: first.tags,
        city: first.location.city,
        country: first.location.country,
        lat: first.location.lat,
        status: first.status,
        publishedAt: first.publishedAt,
        expiresAt: first.expiresAt,
      });
      expect(typeof doc?.price).toBe('number');
      expect(lines.some((l) => l.includes('search index: ready'))).toBe(true);

      // Another process writes (the store directly: nobody tells this index).
      const later = [...generateOffers({ count: 12, seed: 10, startIndex: 1000 })];
      await store.upsertMany('testing', later, NOW + 1);
      await store.upsertMany('testing', [{ ...first, status: 'withdrawn' }], NOW + 2);
      await store.upsertMany('production', later, NOW + 3);
      expect(naive.size).toBe(offers.length);
      await live.catchUp();
      expect(naive.size).toBe(offers.length + later.length);
      expect(naive.docs.get(offerIdFor('testing', first.externalId))?.status).toBe('withdrawn');
      expect(live.applied).toBe(await store.changeSeq('testing'));
      // Nothing new: a catch-up changes nothing.
      const applied = live.applied;
      await live.catchUp();
      expect(live.applied).toBe(applied);
    });

    it('catch-ups asked for while one runs all end with every change applied', async () => {
      const store = createOfferStore(database.db);
      const naive = createNaiveIndex();
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => naive,
        logger: quietLogger(),
        pageSize: 7,
      });
      await live.build();
      const before = naive.size;
      const batches = [0, 1, 2, 3].map((b) => [
        ...generateOffers({ count: 4, seed: 20 + b, startIndex: 5000 + b * 10 }),
      ]);
      const waits: Promise<void>[] = [];
      for (const batch of batches) {
        await store.upsertMany('testing', batch, NOW);
        waits.push(live.catchUp());
      }
      await Promise.all(waits);
      expect(naive.size).toBe(before + 16);
      expect(live.applied).toBe(await store.changeSeq('testing'));
    });

    it('finishes the build once, after every row and the changes made meanwhile, before ready', async () => {
      const store = createOfferStore(database.db);
      const naive = createNaiveIndex();
      const finished: Array<{ size: number; ready: boolean }> = [];
      const live = createLiveIndex({
        environment: 'testing',
        store,
        createIndex: () => ({
          ...naive,
          get size() {
            return naive.size;
          },
          finishBuild: () => finished.push({ size: naive.size, ready: live.ready }),
        }),
        logger: quietLogger(),
        pageSize: 6,
      });
      await live.build();
      expect(finished).toEqual([{ size: await store.count('testing'), ready: false }]);
      await store.upsertMany('testing', [...generateOffers({ count: 2, seed: 40, startIndex: 7000 })], NOW);
      await live.catchUp();
      expect(finished).toHaveLength(1);
    });

    it('serves its own writes at once and says not ready until built', async () => {
      const config = loadConfig({ RATE_LIMITING: 'false' });
      const naive = createNaiveIndex();
      const warmedAt: number[] = [];
      const deps: Deps = createDeps(config, {
        clock: new ManualClock(NOW),
        logger: quietLogger(),
        db: database.db,
        masterSecret: Buffer.alloc(32, 7),
        // Not a spread copy: the stand-in's `version` and `size` are getters.
        createSearchIndex: () => Object.assign(naive, { warm: (now: number) => void warmedAt.push(now) }),
      });
      await migrate(deps.db);
      const app = await buildApp(deps, 'testing');
      try {
        const before = await app.inject({ method: 'GET', url: '/readyz' });
        expect(before.statusCode).toBe(503);
        expect(before.headers['retry-after']).toBe('1');
        await deps.searchIndexes?.start(['testing'], 1000);
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        // Warmed for the service's clock, the one its queries are asked at.
        expect(warmedAt).toEqual([NOW]);
        const mine = [...generateOffers({ count: 1, seed: 30, startIndex: 9000 })];
        await deps.offers.upsertMany('testing', mine);
        // No catch-up asked for: the write call applied it before returning.
        expect(naive.docs.has(offerIdFor('testing', mine[0]?.externalId ?? ''))).toBe(true);
      } finally {
        await app.close();
        deps.searchIndexes?.stop();
        await deps.keyVerifier.stop();
        await deps.changeBus.close();
      }
    });
  });
}
