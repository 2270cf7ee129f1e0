import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BULK_WRITE_CACHE_MB } from '../config/command-config.js';
import { DatabaseUnavailableError } from './database.js';
import { openSqlite } from './sqlite.js';
import { createReaderPool } from './sqlite-readers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-readers-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SQLite read workers', () => {
  it('answer reads off the main thread, see every committed write, and report errors with their code', async () => {
    const db = openSqlite(path.join(dir, 'r.db'), { readWorkers: 2 });
    try {
      await db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
      for (let n = 1; n <= 5; n += 1) {
        await db.run('INSERT INTO t (n) VALUES (?)', [n]);
        // Read-your-writes: each read after a committed write sees it, whichever worker answers.
        const counts = await Promise.all(
          Array.from({ length: 6 }, () => db.get<{ c: number }>('SELECT count(*) AS c FROM t')),
        );
        expect(counts.map((r) => r?.c)).toEqual(Array(6).fill(n));
      }
      expect(await db.all<{ n: number }>('SELECT n FROM t WHERE n > ? ORDER BY n', [3])).toEqual([
        { n: 4 },
        { n: 5 },
      ]);
      await expect(db.all('SELECT nope FROM t')).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
      await expect(db.get('INSERT INTO t (n) VALUES (9) RETURNING n')).rejects.toMatchObject({
        code: 'SQLITE_READONLY',
      });
    } finally {
      await db.close();
    }
  });

  it('getByKey reads one row on the main thread, read-only, seeing every committed write', async () => {
    const db = openSqlite(path.join(dir, 'k.db'), { readWorkers: 1 });
    try {
      await db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER)');
      await db.run('INSERT INTO t (id, v) VALUES (?, ?)', ['a', 1]);
      expect(await db.getByKey<{ v: number }>('SELECT v FROM t WHERE id = ?', ['a'])).toEqual({ v: 1 });
      await db.run('UPDATE t SET v = 2 WHERE id = ?', ['a']);
      expect(await db.getByKey<{ v: number }>('SELECT v FROM t WHERE id = ?', ['a'])).toEqual({ v: 2 });
      expect(await db.getByKey('SELECT v FROM t WHERE id = ?', ['b'])).toBeUndefined();
      await expect(db.getByKey("INSERT INTO t (id, v) VALUES ('c', 3) RETURNING v")).rejects.toMatchObject({
        code: 'SQLITE_READONLY',
      });
    } finally {
      await db.close();
    }
  });

  it('allByKeys reads a page of rows by key on the main thread, read-only, seeing every committed write', async () => {
    const db = openSqlite(path.join(dir, 'm.db'), { readWorkers: 1 });
    try {
      await db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER)');
      await db.run("INSERT INTO t (id, v) VALUES ('a', 1), ('b', 2)");
      const page = 'SELECT id, v FROM t WHERE id IN (?, ?, ?) ORDER BY id';
      expect(await db.allByKeys(page, ['a', 'b', 'x'])).toEqual([
        { id: 'a', v: 1 },
        { id: 'b', v: 2 },
      ]);
      await db.run("UPDATE t SET v = 3 WHERE id = 'b'");
      expect(await db.allByKeys(page, ['b', 'y', 'z'])).toEqual([{ id: 'b', v: 3 }]);
      await expect(db.allByKeys("INSERT INTO t (id, v) VALUES ('c', 3) RETURNING v")).rejects.toMatchObject({
        code: 'SQLITE_READONLY',
      });
    } finally {
      await db.close();
    }
  });

  it('give every read connection the page cache asked for (SQLITE_CACHE_MB), the workers and the main thread', async () => {
    const db = openSqlite(path.join(dir, 'c.db'), { readWorkers: 2, readCacheMb: 64 });
    try {
      const sizes = await Promise.all(
        Array.from({ length: 4 }, () => db.get<{ cache_size: number }>('PRAGMA cache_size')),
      );
      expect(sizes.map((r) => r?.cache_size)).toEqual(Array(4).fill(-64 * 1024));
      expect(await db.getByKey<{ cache_size: number }>('PRAGMA cache_size')).toEqual({ cache_size: -65536 });
    } finally {
      await db.close();
    }
  });

  it("give the writer the page cache asked for (serve's SQLITE_WRITE_CACHE_MB), the bulk size when not told", async () => {
    const page = (db: ReturnType<typeof openSqlite>) =>
      db.transaction((tx) => tx.get<{ cache_size: number }>('PRAGMA cache_size'));
    const told = openSqlite(path.join(dir, 'w1.db'), { readCacheMb: 8, writeCacheMb: 16 });
    const bulk = openSqlite(path.join(dir, 'w2.db'), { readCacheMb: 8 });
    try {
      expect(await page(told)).toEqual({ cache_size: -16 * 1024 });
      expect(await page(bulk)).toEqual({ cache_size: -BULK_WRITE_CACHE_MB * 1024 });
      expect(await told.getByKey<{ cache_size: number }>('PRAGMA cache_size')).toEqual({
        cache_size: -8 * 1024,
      });
    } finally {
      await told.close();
      await bulk.close();
    }
  });

  it('replace a worker that dies, rejecting its pending reads as unavailable (503), and answer again', async () => {
    const file = path.join(dir, 'd.db');
    const db = openSqlite(file, { readWorkers: 1 });
    await db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    await db.run('INSERT INTO t (n) VALUES (1)');
    const pool = createReaderPool(file, 1);
    try {
      const [first] = pool.workers();
      const slow = pool.get(
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c',
        [],
      );
      await first?.terminate();
      await expect(slow).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(pool.workers()[0]).not.toBe(first);
      expect(await pool.get('SELECT count(*) AS c FROM t', [])).toEqual({ c: 1 });
    } finally {
      await pool.close();
      await db.close();
    }
  });
});
