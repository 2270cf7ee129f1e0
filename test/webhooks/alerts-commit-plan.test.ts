import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, SqlValue } from '../../src/db/database.js';
import { createPercolatorStore } from '../../src/webhooks/percolator-store.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * A round's commit asks, for each (saved search, offer) matched, whether the search's user already
 * had the offer from another of their saved searches. That read must find the offer's earlier
 * matches through the offer's index whatever SQLite's statistics say: with statistics taken while
 * `saved_search_matches` was nearly empty (a new deployment, a fresh data set), the planner walked
 * every match recorded for each pair, so an alerts burst slowed as its matches accumulated (ADR 0055).
 */
describe('the commit of a round of alerts on sqlite', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('looks up earlier matches by offer even when the statistics say the table is empty', async () => {
    const db = database.db;
    await db.run(
      "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES ('usr_plan', 'testing', 'plan@example.com', '', 'x', 'active', 0, 0)",
    );
    await db.run(
      "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES ('svs_plan', 'usr_plan', 'plan', '{}', 0, 1, 'prj_plan', 'testing', 0)",
    );
    await db.run(
      "INSERT INTO webhook_cursors (name, value) VALUES ('percolate:plan', 0) ON CONFLICT DO NOTHING",
    );
    // Statistics as a first `ANALYZE` leaves them on a new database: one match, one row per key.
    await db.exec(`ANALYZE;
      DELETE FROM sqlite_stat1 WHERE tbl IN ('saved_search_matches', 'saved_searches');
      INSERT INTO sqlite_stat1 VALUES ('saved_search_matches', 'saved_search_matches_offer', '1 1'),
        ('saved_search_matches', 'sqlite_autoindex_saved_search_matches_1', '1 1 1'),
        ('saved_searches', 'sqlite_autoindex_saved_searches_1', '1 1'),
        ('saved_searches', 'saved_searches_user', '1 1 1');
      ANALYZE sqlite_schema;`);

    const seen: { sql: string; params: readonly SqlValue[] }[] = [];
    const spy = (q: Queryable): Queryable => ({
      ...q,
      dialect: q.dialect,
      all: (sql, params) => {
        seen.push({ sql, params: params ?? [] });
        return q.all(sql, params);
      },
    });
    const spied: Database = { ...db, transaction: (fn) => db.transaction((tx) => fn(spy(tx))) };
    await createPercolatorStore(spied).commit(
      'plan' as never,
      'prc_plan',
      { from: 0, to: 0 },
      [{ searchId: 'svs_plan', offerId: 'off_plan' }],
      0,
      async () => undefined,
    );
    const read = seen.find((s) => s.sql.includes('EXISTS')) as (typeof seen)[number];
    expect(read).toBeDefined();
    const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${read.sql}`, read.params))
      .map((p) => p.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH m USING INDEX saved_search_matches_offer \(offer_id=\?\)/);
  });
});
