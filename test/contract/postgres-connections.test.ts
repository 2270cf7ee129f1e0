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
});
