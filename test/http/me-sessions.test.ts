import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { authorizeAndLogin, pkce, REDIRECT, tokenRequest } from './oauth-helpers.js';

/**
 * Issue 27: an end user lists their sessions (one per login: a token family) and ends any of
 * them through `/v1/me/sessions`, on both backends. Ending one revokes its refresh token and
 * refuses its access tokens at once in this process (the revocation path of `/revoke`).
 */
const PASSWORD = 'correct horse battery staple';
const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1';
const iso = (ms: number) => new Date(ms).toISOString();

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`end-user sessions on ${dialect}`, () => {
    let t: TestContext;
    let refreshKey: { id: string; key: string };
    let users = 0;

    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      refreshKey = { id: issued.record.id, key: issued.key };
    });
    afterAll(async () => {
      await t?.close();
    });

    async function newUser() {
      users += 1;
      const email = `sessions${users}@example.com`;
      const user = await t.deps.users.add({ environment: 'testing', email, password: PASSWORD, name: 'S' });
      return { id: user.id, email, password: PASSWORD };
    }
    /** A /connect login from a browser with this user agent and address. */
    async function login(
      credentials: { email: string; password: string },
      browser: { userAgent: string; ip: string },
      key = refreshKey.key,
    ) {
      // The clock stands still in tests: a second between logins orders them as in life.
      t.clock.advance(1000);
      const at = t.clock.now();
      const headers = { 'user-agent': browser.userAgent };
      const page = await openLogin(
        t.apps.testing,
        { apiKey: key, destination: 'https://app.example.com/callback' },
        headers,
      );
      const res = await submitLogin(t.apps.testing, page, credentials, headers, browser.ip);
      expect(res.statusCode, res.body).toBe(303);
      const location = new URL(String(res.headers.location));
      return {
        at,
        jwt: location.searchParams.get('jwt') ?? '',
        refresh: location.searchParams.get('refresh'),
      };
    }
    const call = (method: 'GET' | 'DELETE', url: string, jwt: string, apiKey = refreshKey.key) =>
      t.apps.testing.inject({
        method,
        url,
        headers: { 'x-api-key': apiKey, authorization: `Bearer ${jwt}` },
      });
    const list = async (jwt: string, apiKey = refreshKey.key) => {
      const res = await call('GET', '/v1/me/sessions', jwt, apiKey);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as {
        id: string;
        createdAt: string;
        lastUsedAt: string;
        client: { keyId: string; projectName: string };
        ip: string;
        userAgent: string;
        current: boolean;
      }[];
    };
    const refresh = (token: string) =>
      t.apps.testing.inject({
        method: 'POST',
        url: '/auth/refresh',
        headers: { ...FORM, 'x-api-key': refreshKey.key },
        payload: new URLSearchParams({ refresh: token }).toString(),
      });

    it('two logins list two sessions, newest first, each with its client, address and browser; current marks the caller', async () => {
      const alice = await newUser();
      const laptop = await login(alice, { userAgent: LAPTOP, ip: '198.51.100.7' });
      t.clock.advance(60_000);
      const phone = await login(alice, { userAgent: PHONE, ip: '203.0.113.9' });
      const fromPhone = await list(phone.jwt);
      expect(fromPhone).toEqual([
        {
          id: expect.stringMatching(/^rtf_/),
          createdAt: iso(phone.at),
          lastUsedAt: iso(phone.at),
          client: { keyId: refreshKey.id, projectName: 'Test project' },
          ip: '203.0.113.9',
          userAgent: PHONE,
          current: true,
        },
        {
          id: expect.stringMatching(/^rtf_/),
          createdAt: iso(laptop.at),
          lastUsedAt: iso(laptop.at),
          client: { keyId: refreshKey.id, projectName: 'Test project' },
          ip: '198.51.100.7',
          userAgent: LAPTOP,
          current: false,
        },
      ]);
      // The laptop sees the same two, itself as current.
      const fromLaptop = await list(laptop.jwt);
      expect(fromLaptop.map((s) => [s.id, s.current])).toEqual([
        [fromPhone[0]?.id, false],
        [fromPhone[1]?.id, true],
      ]);
      // Nothing secret is listed: no token, no hash.
      const body = JSON.stringify(fromLaptop);
      for (const secret of [laptop.jwt, laptop.refresh, phone.jwt, phone.refresh]) {
        expect(body).not.toContain(String(secret));
      }
      expect(body).not.toMatch(/[0-9a-f]{64}/);

      // A refresh is a use: last used moves, created stays; the new access token is still current.
      t.clock.advance(5 * 60_000);
      const refreshed = await refresh(laptop.refresh ?? '');
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const after = await list(refreshed.json().access_token);
      expect(after[1]).toMatchObject({
        id: fromPhone[1]?.id,
        createdAt: iso(laptop.at),
        lastUsedAt: iso(t.clock.now()),
        current: true,
      });
    });

    it('ending the other session: its refresh token fails, its access token answers 401 at once, and it leaves the list', async () => {
      const bob = await newUser();
      const laptop = await login(bob, { userAgent: LAPTOP, ip: '198.51.100.8' });
      const phone = await login(bob, { userAgent: PHONE, ip: '203.0.113.10' });
      const [phoneSession, laptopSession] = await list(laptop.jwt);
      expect(phoneSession?.current).toBe(false);
      const ended = await call('DELETE', `/v1/me/sessions/${phoneSession?.id}`, laptop.jwt);
      expect(ended.statusCode, ended.body).toBe(204);
      expect(ended.body).toBe('');

      const refused = await call('GET', '/v1/me', phone.jwt);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('token_invalid');
      const refreshed = await refresh(phone.refresh ?? '');
      expect(refreshed.statusCode).toBe(401);
      expect(refreshed.json().code).toBe('refresh_token_revoked');

      // The caller's own session goes on; the list holds it alone.
      expect((await call('GET', '/v1/me', laptop.jwt)).statusCode).toBe(200);
      expect((await list(laptop.jwt)).map((s) => s.id)).toEqual([laptopSession?.id]);
      // An ended session is gone: ending it again is not found.
      const again = await call('DELETE', `/v1/me/sessions/${phoneSession?.id}`, laptop.jwt);
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('session_not_found');

      // Ending the current one signs this client out.
      expect((await call('DELETE', `/v1/me/sessions/${laptopSession?.id}`, laptop.jwt)).statusCode).toBe(204);
      expect((await call('GET', '/v1/me', laptop.jwt)).statusCode).toBe(401);
    });

    it("another user's session id answers 404 and that session goes on", async () => {
      const carol = await newUser();
      const dave = await newUser();
      const carols = await login(carol, { userAgent: LAPTOP, ip: '198.51.100.9' });
      const daves = await login(dave, { userAgent: PHONE, ip: '198.51.100.10' });
      const [daveSession] = await list(daves.jwt);
      const res = await call('DELETE', `/v1/me/sessions/${daveSession?.id}`, carols.jwt);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json().code).toBe('session_not_found');
      expect((await list(carols.jwt)).map((s) => s.id)).not.toContain(daveSession?.id);
      expect((await call('GET', '/v1/me', daves.jwt)).statusCode).toBe(200);
      expect((await refresh(daves.refresh ?? '')).statusCode).toBe(200);
      const unknown = await call('DELETE', '/v1/me/sessions/rtf_doesnotexist', carols.jwt);
      expect(unknown.json().code).toBe('session_not_found');
    });

    it('a login without refresh token is a session until its access token expires', async () => {
      const erin = await newUser();
      const noRefresh = await login(
        erin,
        { userAgent: LAPTOP, ip: '198.51.100.11' },
        t.fixtures.keys.testing.key,
      );
      expect(noRefresh.refresh).toBeNull();
      const listed = await list(noRefresh.jwt, t.fixtures.keys.testing.key);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ client: { keyId: t.fixtures.keys.testing.id }, current: true });
      const withRefresh = await login(erin, { userAgent: PHONE, ip: '198.51.100.12' });
      expect((await list(withRefresh.jwt)).map((s) => s.current)).toEqual([true, false]);
      // Past the access token's lifetime (10 h) only the session with a refresh token is left.
      t.clock.advance(10 * 3_600_000 + 1);
      const refreshed = (await refresh(withRefresh.refresh ?? '')).json();
      const remaining = await list(refreshed.access_token);
      expect(remaining).toHaveLength(1);
      expect(remaining[0]?.id).not.toBe(listed[0]?.id);
    });

    it('ending a login without refresh token refuses its access token at once', async () => {
      const ivan = await newUser();
      const key = t.fixtures.keys.testing.key;
      const first = await login(ivan, { userAgent: LAPTOP, ip: '198.51.100.16' }, key);
      const second = await login(ivan, { userAgent: PHONE, ip: '198.51.100.17' }, key);
      const [, firstSession] = await list(second.jwt, key);
      expect((await call('DELETE', `/v1/me/sessions/${firstSession?.id}`, second.jwt, key)).statusCode).toBe(
        204,
      );
      expect((await call('GET', '/v1/me', first.jwt, key)).json().code).toBe('token_invalid');
      expect((await call('GET', '/v1/me', second.jwt, key)).statusCode).toBe(200);
    });

    it('a new password ends every session of the user', async () => {
      const frank = await newUser();
      await login(frank, { userAgent: LAPTOP, ip: '198.51.100.13' });
      await login(frank, { userAgent: PHONE, ip: '198.51.100.14' });
      await t.deps.users.setPassword(frank.id, 'another long password 2');
      const fresh = await login(
        { ...frank, password: 'another long password 2' },
        { userAgent: PHONE, ip: '1.2.3.4' },
      );
      expect((await list(fresh.jwt)).map((s) => s.current)).toEqual([true]);
    });

    it('an /authorize login is a session of the browser that signed in, not of the client exchanging the code', async () => {
      const grace = await newUser();
      const { verifier, challenge } = pkce();
      const { location } = await authorizeAndLogin(
        t.apps.testing,
        {
          response_type: 'code',
          client_id: refreshKey.id,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          scope: 'openid offline_access',
          state: 'st-1',
        },
        grace,
        { 'user-agent': PHONE },
      );
      const exchanged = await tokenRequest(t.apps.testing, refreshKey, {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') ?? '',
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      const [session] = await list(exchanged.json().access_token);
      expect(session).toMatchObject({ userAgent: PHONE, ip: '127.0.0.1', current: true });
      // Ended through the API, the grant's refresh token fails at /token too.
      await call('DELETE', `/v1/me/sessions/${session?.id}`, exchanged.json().access_token);
      const refreshed = await tokenRequest(t.apps.testing, refreshKey, {
        grant_type: 'refresh_token',
        refresh_token: exchanged.json().refresh_token,
      });
      expect(refreshed.json().error).toBe('invalid_grant');
    });

    it('withdrawing the refresh permission ends the sessions with refresh tokens, not a grant without offline_access', async () => {
      const judy = await newUser();
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      const own = { id: issued.record.id, key: issued.key };
      const withRefresh = await login(judy, { userAgent: LAPTOP, ip: '198.51.100.18' }, own.key);
      const { verifier, challenge } = pkce();
      const { location } = await authorizeAndLogin(
        t.apps.testing,
        {
          response_type: 'code',
          client_id: own.id,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          scope: 'openid',
        },
        judy,
      );
      const grant = await tokenRequest(t.apps.testing, own, {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') ?? '',
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      const accessOnly = grant.json().access_token as string;
      expect(grant.json().refresh_token).toBeUndefined();
      expect(await list(accessOnly, own.key)).toHaveLength(2);
      await t.deps.keys.revokeRefresh(own.id);
      expect((await call('GET', '/v1/me', withRefresh.jwt, own.key)).statusCode).toBe(401);
      // The grant's access token still works, and its session is still listed.
      expect((await list(accessOnly, own.key)).map((s) => s.current)).toEqual([true]);
    });

    it('keeps at most 300 characters of a user agent', async () => {
      const henry = await newUser();
      const long = await login(henry, { userAgent: `Agent/${'x'.repeat(600)}`, ip: '198.51.100.15' });
      const [session] = await list(long.jwt);
      expect(session?.userAgent).toHaveLength(300);
    });
  });
}
