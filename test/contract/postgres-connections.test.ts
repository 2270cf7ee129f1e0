import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';

/** What every Vitrine connection to PostgreSQL is set up with (src/db/postgres.ts). */
const postgres = backends().find((b) => b.dialect === 'postgres');

describe.skipIf(!postgres?.available)('PostgreSQL connections', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await t.drop();
  });

  it('run without JIT compilation, on every connection of the pool', async () => {
    const settings = await Promise.all(
      Array.from({ length: 5 }, () => t.db.get<{ jit: string }>('SHOW jit')),
    );
    expect(settings).toEqual(Array(5).fill({ jit: 'off' }));
  });

  it('read by key through prepared statements, each connection preparing a text once, and any number of texts', async () => {
    await t.db.exec('CREATE TABLE by_key (id TEXT PRIMARY KEY, v INTEGER)');
    await t.db.run("INSERT INTO by_key (id, v) VALUES ('a', 1), ('b', 2), ('c', 3)");
    const page = 'SELECT id, v FROM by_key WHERE id = ANY(?::text[]) ORDER BY id';
    // Many times, concurrently: every pool connection prepares it, then reuses it.
    const pages = await Promise.all(Array.from({ length: 12 }, () => t.db.allByKeys(page, ['{a,c,x}'])));
    expect(pages).toEqual(
      Array(12).fill([
        { id: 'a', v: 1 },
        { id: 'c', v: 3 },
      ]),
    );
    // Read through allByKeys itself: the connection that runs it has prepared it, so it lists itself.
    const listed = await t.db.allByKeys<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'vk%' AND statement LIKE '%pg_prepared_statements%'",
    );
    expect(listed).toHaveLength(1);
    // More distinct texts than are named: the rest run unnamed, and all answer.
    for (let i = 0; i < 80; i += 1) {
      expect(
        await t.db.getByKey<{ v: number }>(`SELECT v + ${i} - ${i} AS v FROM by_key WHERE id = ?`, ['b']),
      ).toEqual({
        v: 2,
      });
    }
  });
});
