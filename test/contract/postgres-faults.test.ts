import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DatabaseUnavailableError } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { toOfferRecord } from '../../src/offers/offer-record.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { tcpProxy } from '../support/processes.js';

/**
 * Issue 26: PostgreSQL lost in the middle of a transaction (through a TCP proxy we cut, never
 * touching the shared server). A checked-out client whose connection drops between two queries
 * emits 'error'; with no listener that ended the process. Now the transaction fails as
 * `503 unavailable`, the broken client is destroyed, and the process serves again by itself.
 */
const postgres = backends().find((b) => b.dialect === 'postgres');

type Proxy = Awaited<ReturnType<typeof tcpProxy>>;

async function proxied(database: TestDatabase): Promise<{ proxy: Proxy; url: string }> {
  const target = new URL(database.location);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(database.location);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { proxy, url: url.toString() };
}

/** Long enough for the client to see its socket closed (a network event, not a clock). */
const socketsClosed = () => new Promise((resolve) => setTimeout(resolve, 200));

describe.skipIf(!postgres?.available)('PostgreSQL cut mid-transaction', () => {
  it('rejects the transaction as unavailable, destroys the broken client, and the pool answers again', async () => {
    const database = await createTestDatabase('postgres');
    const { proxy, url } = await proxied(database);
    const db = openPostgres(url, { poolMax: 2 });
    try {
      await db.exec('CREATE TABLE cut (n INTEGER)');
      const cut = db.transaction(async (tx) => {
        await tx.run('INSERT INTO cut (n) VALUES (1)');
        // Between two queries: the client is checked out and idle in the transaction.
        await proxy.cut();
        await socketsClosed();
        await tx.run('INSERT INTO cut (n) VALUES (2)');
      });
      await expect(cut).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await proxy.restore();
      expect(await db.get<{ c: number }>('SELECT count(*)::int AS c FROM cut')).toEqual({ c: 0 });
      // The broken client went away instead of back into the pool.
      expect(db.poolStats?.().total).toBe(1);
      expect(await db.transaction((tx) => tx.run('INSERT INTO cut (n) VALUES (3)'))).toBe(1);
    } finally {
      await db.close();
      await proxy.cut();
      await database.drop();
    }
  });

  describe('during an HTTP import', () => {
    let t: TestContext;
    let proxy: Proxy;
    /** Set: the next transaction loses its connection after its writes, before COMMIT. */
    let cutNext = false;
    beforeAll(async () => {
      // The proxy first (to the server every test database lives on), then a context served through it.
      const server = new URL(inject('postgresAdminUrl') as string);
      proxy = await tcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
      t = await createTestContext(
        'postgres',
        {},
        {
          db: (database) => {
            const viaProxy = new URL(database.location);
            viaProxy.hostname = '127.0.0.1';
            viaProxy.port = String(proxy.port);
            return withCut(openPostgres(viaProxy.toString(), { poolMax: 5 }));
          },
          environments: ['testing'],
        },
      );
    });
    // Only a transaction that wrote offers (the import's), not a timer's bookkeeping (last use).
    const withCut = (db: Database): Database => ({
      ...db,
      transaction: (fn) =>
        db.transaction(async (tx) => {
          let wroteOffers = false;
          const seen = (sql: string) => {
            wroteOffers ||= /\bINTO offers\b|\bUPDATE offers\b/i.test(sql);
            return tx;
          };
          const value = await fn({
            ...tx,
            run: (sql, params) => seen(sql).run(sql, params),
            all: (sql, params) => seen(sql).all(sql, params),
            get: (sql, params) => seen(sql).get(sql, params),
          });
          if (cutNext && wroteOffers) {
            cutNext = false;
            await proxy.cut();
            await socketsClosed();
            await proxy.restore();
          }
          return value;
        }),
    });
    afterAll(async () => {
      await t?.close();
      await proxy?.cut();
    });

    it('answers 503 unavailable with Retry-After, keeps serving, and the same import then lands', async () => {
      const key = t.fixtures.keys.testing;
      await t.deps.keys.grantWrite(key.id);
      const body = `${[...generateOffers({ count: 3, seed: 26 })]
        .map((o) => JSON.stringify({ ...toOfferRecord(o), status: 'active', expiresAt: null }))
        .join('\n')}\n`;
      const post = () =>
        t.apps.testing.inject({
          method: 'POST',
          url: '/v1/offers/import',
          headers: { 'x-api-key': key.key, 'content-type': 'application/x-ndjson' },
          payload: body,
        });
      cutNext = true;
      const failed = await post();
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['retry-after']).toBe('1');
      expect(failed.json()).toMatchObject({ code: 'unavailable' });
      // The process lives and recovers by itself: the same body now lands whole.
      const again = await post();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ created: 3, updated: 0, failed: 0 });
      const me = await t.apps.testing.inject({
        method: 'GET',
        url: '/v1/key',
        headers: { 'x-api-key': key.key },
      });
      expect(me.statusCode).toBe(200);
    });
  });
});
