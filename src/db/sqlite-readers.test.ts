import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';

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
});
