import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlValue } from '../../src/db/database.js';
import { createWebhookStore } from '../../src/webhooks/store.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * A dispatcher's claim takes its rows by id whatever SQLite's statistics say: with none on
 * `webhook_deliveries` (a new database, or statistics taken while it was empty) the planner chose
 * the due index for `state = 'pending'` and walked every pending row for each claim of 500, so a
 * burst's claims slowed with its backlog (ADR 0060).
 */
describe('a claim of webhook deliveries on sqlite', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('finds its rows by id, not by walking the pending ones', async () => {
    const db = database.db;
    await db.exec(
      "ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl = 'webhook_deliveries'; ANALYZE sqlite_schema;",
    );
    const seen: { sql: string; params: readonly SqlValue[] }[] = [];
    const spied: Database = {
      ...db,
      run: (sql, params) => {
        seen.push({ sql, params: params ?? [] });
        return db.run(sql, params);
      },
    };
    const ids = Array.from({ length: 500 }, (_, i) => `msg_plan${i}`);
    await createWebhookStore(spied).claimMany(ids, 'dsp_plan', 60_000, 0);
    const claim = seen.find((s) => s.sql.startsWith('UPDATE webhook_deliveries')) as (typeof seen)[number];
    expect(claim).toBeDefined();
    const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${claim.sql}`, claim.params))
      .map((p) => p.detail)
      .join('\n');
    expect(plan).toMatch(
      /SEARCH webhook_deliveries USING INDEX sqlite_autoindex_webhook_deliveries_1 \(id=\?\)/,
    );
  });
});
