import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRefreshTokenStore } from '../../src/auth/refresh-token-store.js';
import { migrate } from '../../src/db/migrate.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * Migration 95 (issue 27) on a database that already holds logins: each live refresh-token family
 * becomes a session (created at its first token, last used at its last refresh, alive until its
 * last token expires; no address nor browser, never recorded before); a revoked family does not.
 */
const T0 = Date.UTC(2026, 10, 1, 12);
const HOUR = 3_600_000;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`user sessions from the refresh tokens of version 94 on ${dialect}`, () => {
    let old: TestDatabase;
    beforeAll(async () => {
      old = await createTestDatabase(dialect, { upTo: 94 });
      const db = old.db;
      await db.run('INSERT INTO developers (id, email, name, created_at) VALUES (?, ?, ?, ?)', [
        'dev_1',
        'd@example.com',
        'D',
        T0,
      ]);
      await db.run('INSERT INTO projects (id, developer_id, name, created_at) VALUES (?, ?, ?, ?)', [
        'prj_1',
        'dev_1',
        'Old project',
        T0,
      ]);
      await db.run(
        `INSERT INTO api_keys (id, project_id, environment, key_hash, hint, state, created_at, change_seq)
         VALUES (?, ?, 'testing', ?, ?, 'active', ?, 0)`,
        ['key_1', 'prj_1', 'hash-1', 'vk_test_…1', T0],
      );
      await db.run(
        `INSERT INTO users (id, environment, email, password_hash, state, created_at, password_changed_at)
         VALUES (?, 'testing', ?, ?, 'active', ?, ?)`,
        ['usr_1', 'u@example.com', 'x', T0, T0],
      );
      const token = (
        id: string,
        family: string,
        createdAt: number,
        usedAt: number | null,
        revokedAt: number | null,
      ) =>
        db.run(
          `INSERT INTO refresh_tokens (id, token_hash, family_id, user_id, key_id, environment, created_at, expires_at, used_at, revoked_at)
           VALUES (?, ?, ?, 'usr_1', 'key_1', 'testing', ?, ?, ?, ?)`,
          [id, `hash-${id}`, family, createdAt, createdAt + 720 * HOUR, usedAt, revokedAt],
        );
      // A family rotated once (its first token spent), and a revoked one.
      await token('rtk_1', 'rtf_live', T0, T0 + HOUR, null);
      await token('rtk_2', 'rtf_live', T0 + HOUR, null, null);
      await token('rtk_3', 'rtf_gone', T0 + 2 * HOUR, null, T0 + 3 * HOUR);
      await migrate(db);
    });
    afterAll(async () => {
      await old?.drop();
    });

    it('lists each live family as a session, without address or browser', async () => {
      const store = createRefreshTokenStore(old.db, { denylistMs: HOUR });
      expect(await store.activeSessions('usr_1', 'testing', T0 + 4 * HOUR)).toEqual([
        {
          id: 'rtf_live',
          keyId: 'key_1',
          projectName: 'Old project',
          createdAt: T0,
          lastUsedAt: T0 + HOUR,
          ip: '',
          userAgent: '',
        },
      ]);
      // Alive until its last refresh token expires.
      expect(await store.activeSessions('usr_1', 'testing', T0 + 721 * HOUR)).toEqual([]);
    });
  });
}
