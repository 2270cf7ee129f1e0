import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRevokedFamilies } from '../../src/auth/revoked-families.js';
import type { Database } from '../../src/db/database.js';
import { openPostgres } from '../../src/db/postgres.js';
import { openSqlite } from '../../src/db/sqlite.js';
import { REVOKED_FAMILIES_CHECK_MS } from '../../src/deps.js';
import { FORM, loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * SPEC §5.4 last bullet (issue 13 item 8, issue 17): when a refresh-token family is revoked, the
 * access tokens issued from it stop working within 1 s — for every way a family ends, for tokens
 * of /connect and of /refresh, in this process at once and in another process by its poll.
 */
const ALICE = { email: 'alice@example.com', password: 'alice-password-1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`access tokens of a revoked family on ${dialect}`, () => {
    let t: TestContext;
    let refreshKey: { id: string; key: string };
    let aliceId: string;

    beforeAll(async () => {
      t = await createTestContext(
        dialect,
        { REFRESH_TOKEN_ROTATION: 'on', REFRESH_TOKEN_REUSE_GRACE: '0s' },
        { environments: ['testing'] },
      );
      refreshKey = await refreshingKey();
      aliceId = (await t.deps.users.add({ environment: 'testing', ...ALICE })).id;
    });
    afterAll(async () => {
      await t.close();
    });

    async function refreshingKey() {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      return { id: issued.record.id, key: issued.key };
    }
    const me = (jwt: string, apiKey = refreshKey.key) =>
      t.apps.testing.inject({
        url: '/v1/me',
        headers: { 'x-api-key': apiKey, authorization: `Bearer ${jwt}` },
      });
    const refresh = (token: string, apiKey = refreshKey.key) =>
      t.apps.testing.inject({
        method: 'POST',
        url: '/auth/refresh',
        headers: { ...FORM, 'x-api-key': apiKey },
        payload: new URLSearchParams({ refresh: token }).toString(),
      });
    const revoke = (token: string, apiKey = refreshKey.key) =>
      t.apps.testing.inject({
        method: 'POST',
        url: '/auth/revoke',
        headers: { ...FORM, 'x-api-key': apiKey },
        payload: new URLSearchParams({ token }).toString(),
      });
    const expectRefused = async (jwt: string, apiKey = refreshKey.key) => {
      const res = await me(jwt, apiKey);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_invalid');
    };

    it('revocation by the client (/revoke) ends the access tokens of /connect and of /refresh at once', async () => {
      const login = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      const refreshed = (await refresh(login.refresh ?? '')).json();
      const other = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      expect((await me(login.jwt)).statusCode).toBe(200);
      expect((await me(refreshed.access_token)).statusCode).toBe(200);
      expect((await revoke(refreshed.refresh_token)).statusCode).toBe(200);
      await expectRefused(login.jwt);
      await expectRefused(refreshed.access_token);
      // Another login of the same user and key is another family: untouched.
      expect((await me(other.jwt)).statusCode).toBe(200);
    });

    it('revocation with an access token (RFC 7009 §2.2): 200, and its whole login ends; another key’s token is left alone', async () => {
      const login = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      const other = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      const otherKey = await refreshingKey();
      const theirs = await loginTokens(t.apps.testing, otherKey.key, ALICE);
      // A token of another key, and a malformed JWT: 200, nothing revoked.
      expect((await revoke(theirs.jwt)).statusCode).toBe(200);
      expect((await revoke('a.b.c')).statusCode).toBe(200);
      expect((await me(theirs.jwt, otherKey.key)).statusCode).toBe(200);
      const res = await revoke(login.jwt);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      await expectRefused(login.jwt);
      expect((await refresh(login.refresh ?? '')).json().code).toBe('refresh_token_revoked');
      expect((await me(other.jwt)).statusCode).toBe(200);
      const discovery = await t.apps.testing.inject('/auth/.well-known/openid-configuration');
      expect(discovery.json().revocation_token_types_supported).toEqual(['refresh_token', 'access_token']);
    });

    it('reuse detection (a spent refresh token replayed) ends the family’s access tokens', async () => {
      const login = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      const first = (await refresh(login.refresh ?? '')).json();
      t.clock.advance(1000);
      const replay = await refresh(login.refresh ?? '');
      expect(replay.json().code).toBe('refresh_token_revoked');
      await expectRefused(login.jwt);
      await expectRefused(first.access_token);
    });

    it('withdrawing the refresh permission ends the access tokens of the families it revoked', async () => {
      const own = await refreshingKey();
      const login = await loginTokens(t.apps.testing, own.key, ALICE);
      expect((await me(login.jwt, own.key)).statusCode).toBe(200);
      await t.deps.keys.revokeRefresh(own.id);
      await expectRefused(login.jwt, own.key);
    });

    it('revoking the key, changing the password and disabling the user end access tokens too', async () => {
      const own = await refreshingKey();
      const byKey = await loginTokens(t.apps.testing, own.key, ALICE);
      await t.deps.keys.revoke(own.id);
      expect((await me(byKey.jwt, own.key)).json().code).toBe('api_key_revoked');
      const { rows } = await familyRows(own.id);
      expect(rows).toBe(1);

      const bob = { email: 'bob@example.com', password: 'bob-password-11' };
      const bobId = (await t.deps.users.add({ environment: 'testing', ...bob })).id;
      const beforeChange = await loginTokens(t.apps.testing, refreshKey.key, bob);
      await t.deps.users.setPassword(bobId, 'bob-password-22');
      await expectRefused(beforeChange.jwt);
      const beforeDisable = await loginTokens(t.apps.testing, refreshKey.key, {
        ...bob,
        password: 'bob-password-22',
      });
      expect((await me(beforeDisable.jwt)).statusCode).toBe(200);
      await t.deps.users.disable(bobId);
      await expectRefused(beforeDisable.jwt);
    });

    async function familyRows(keyId: string) {
      const row = await t.database.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM revoked_token_families WHERE family_id IN
           (SELECT family_id FROM refresh_tokens WHERE key_id = ?)`,
        [keyId],
      );
      return { rows: Number(row?.n ?? 0) };
    }

    it('another process, with no change bus, refuses the token after its next check (≤ 500 ms)', async () => {
      const second: Database =
        dialect === 'sqlite'
          ? openSqlite(t.database.location)
          : openPostgres(t.database.location, { poolMax: 2 });
      let monotonic = 0;
      const elsewhere = createRevokedFamilies({
        db: second,
        clock: t.clock,
        checkMs: REVOKED_FAMILIES_CHECK_MS,
        monotonic: () => monotonic,
      });
      try {
        const login = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        const familyId = claims(login.jwt).sid;
        expect(familyId).toMatch(/^rtf_/);
        expect(await elsewhere.isRevoked(familyId)).toBe(false);
        await revoke(login.refresh ?? '');
        // Within its check period the other process still answers from its copy…
        monotonic += REVOKED_FAMILIES_CHECK_MS - 1;
        expect(await elsewhere.isRevoked(familyId)).toBe(false);
        // …and once the period has passed it has read the counter and the new row.
        monotonic += 1;
        expect(await elsewhere.isRevoked(familyId)).toBe(true);
        expect(REVOKED_FAMILIES_CHECK_MS).toBeLessThanOrEqual(1000);
        // A change-bus message makes the next check reload at once.
        const next = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        await revoke(next.refresh ?? '');
        expect(await elsewhere.isRevoked(claims(next.jwt).sid)).toBe(false);
        elsewhere.markStale();
        expect(await elsewhere.isRevoked(claims(next.jwt).sid)).toBe(true);
      } finally {
        await second.close();
      }
    });

    it('forgets a family once its last access token has expired, in memory and in the table', async () => {
      const login = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      await revoke(login.refresh ?? '');
      const sid = claims(login.jwt).sid;
      expect(await t.deps.revokedFamilies.isRevoked(sid)).toBe(true);
      t.clock.advance(10 * 3_600_000 + 61_000);
      t.deps.revokedFamilies.markStale();
      expect(await t.deps.revokedFamilies.isRevoked(sid)).toBe(false);
      // The next revocation prunes the table.
      const later = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
      await revoke(later.refresh ?? '');
      const left = await t.database.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM revoked_token_families WHERE family_id = ?',
        [sid],
      );
      expect(Number(left?.n)).toBe(0);
      expect(aliceId).toMatch(/^usr_/);
    });
  });
}

function claims(jwt: string): { sid: string } {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
}
