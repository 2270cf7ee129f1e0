import { createHash } from 'node:crypto';
import { base64url, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, loginTokens, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The auth server as a security reviewer reads it (SPEC §5, issue 4): every refusal of /connect,
 * the CSRF ticket, throttling, every refresh-token rule, every bearer-token rule. Run on both
 * backends.
 */
const DEST = 'https://app.example.com/callback';
const ALICE = { email: 'alice@example.com', password: 'alice-password-1' };
const HOUR = 3_600_000;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`auth server on ${dialect}`, () => {
    let t: TestContext;
    let key: string;
    let refreshKey: { id: string; key: string };
    let aliceId: string;

    beforeAll(async () => {
      t = await createTestContext(dialect);
      key = t.fixtures.keys.testing.key;
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      refreshKey = { id: issued.record.id, key: issued.key };
      aliceId = (await t.deps.users.add({ environment: 'testing', ...ALICE })).id;
      await t.deps.users.add({ environment: 'production', ...ALICE });
    });
    afterAll(async () => {
      await t.close();
    });

    const me = (jwt: string, apiKey = key, env: 'testing' | 'production' = 'testing') =>
      t.apps[env].inject({ url: '/v1/me', headers: { 'x-api-key': apiKey, authorization: `Bearer ${jwt}` } });
    const refresh = (token: string, apiKey = refreshKey.key) =>
      t.apps.testing.inject({
        url: `/auth/refresh?${new URLSearchParams({ refresh: token }).toString()}`,
        headers: { 'x-api-key': apiKey },
      });

    describe('GET /connect', () => {
      it('serves a login page naming the project, with the protective headers and a CSRF cookie', async () => {
        const { response, ticket } = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('Sign in to continue to Test project');
        expect(ticket).not.toBe('');
        expect(response.body).not.toContain(key);
        expect(response.headers).toMatchObject({
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
        const csp = String(response.headers['content-security-policy']);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("form-action 'self' https://app.example.com");
        expect(String(response.headers['set-cookie'])).toMatch(
          /^vitrine_login=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Strict$/,
        );
        // No third-party assets: every src/href is a path on this origin.
        for (const [, url] of response.body.matchAll(/(?:src|href)="([^"]*)"/g)) expect(url).toMatch(/^\//);
      });

      it('escapes the project name', async () => {
        const project = await t.deps.projects.add({
          name: '<script>alert(1)</script>',
          ownerEmail: 'integrator@example.com',
          redirectUris: [DEST],
        });
        const issued = await t.deps.keys.issue({ projectId: project.id, environment: 'testing' });
        const { response } = await openLogin(t.apps.testing, { apiKey: issued.key, destination: DEST });
        expect(response.body).not.toContain('<script>');
        expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      });

      it.each([
        ['no key', null, 'api_key_missing'],
        ['a malformed key', 'vk_test_nonsense', 'api_key_invalid'],
        ['a key of the other environment', 'PRODUCTION', 'api_key_wrong_environment'],
      ])('refuses %s with an HTML page, status 400 and no redirect', async (_name, given, code) => {
        const apiKey = given === 'PRODUCTION' ? t.fixtures.keys.production.key : given;
        const { response } = await openLogin(t.apps.testing, {
          ...(apiKey ? { apiKey } : {}),
          destination: DEST,
        });
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers.location).toBeUndefined();
        expect(response.body).toContain(`<code>${code}</code>`);
      });

      it('refuses two different keys (header and query) with api_key_conflict, no redirect', async () => {
        const { response } = await openLogin(
          t.apps.testing,
          { apiKey: key, destination: DEST },
          { 'x-api-key': t.fixtures.keys.production.key },
        );
        expect(response.statusCode).toBe(400);
        expect(response.headers.location).toBeUndefined();
        expect(response.body).toContain('<code>api_key_conflict</code>');
        // The same key twice is no conflict.
        const same = await openLogin(
          t.apps.testing,
          { apiKey: key, destination: DEST },
          { 'x-api-key': key },
        );
        expect(same.response.statusCode).toBe(200);
      });

      it('refuses a revoked key', async () => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.revoke(issued.record.id);
        const { response } = await openLogin(t.apps.testing, { apiKey: issued.key, destination: DEST });
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain('<code>api_key_revoked</code>');
      });

      it.each([
        'https://evil.example/callback',
        '//evil.example/callback',
        'https://app.example.com@evil.example/callback',
        'javascript:alert(document.cookie)',
        'https://app.example.com/callback/../admin',
        'https://app.example.com/callback/%2e%2e/admin',
        'https:%2F%2Fevil.example/callback',
        'https://app.example.com/callback#frag',
        'http://app.example.com/callback',
      ])('never redirects to an unregistered destination: %s', async (destination) => {
        const { response } = await openLogin(t.apps.testing, { apiKey: key, destination });
        expect(response.statusCode).toBe(400);
        expect(response.headers.location).toBeUndefined();
        expect(response.headers['set-cookie']).toBeUndefined();
        expect(response.body).toContain('<code>destination_not_allowed</code>');
      });

      it('refuses a repeated destination and an over-long state', async () => {
        const twice = await t.apps.testing.inject({
          url: `/auth/connect?apiKey=${key}&destination=${encodeURIComponent(DEST)}&destination=${encodeURIComponent('https://evil.example/')}`,
        });
        expect(twice.statusCode).toBe(400);
        const { response } = await openLogin(t.apps.testing, {
          apiKey: key,
          destination: DEST,
          state: 'x'.repeat(513),
        });
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain('<code>invalid_state</code>');
      });
    });

    describe('POST /connect', () => {
      it('redirects 303 to the destination with jwt and state, keeping its query; no refresh without the permission', async () => {
        const page = await openLogin(t.apps.testing, {
          apiKey: key,
          destination: `${DEST}?tab=2`,
          state: 'st-1',
        });
        const res = await submitLogin(t.apps.testing, page, ALICE);
        expect(res.statusCode).toBe(303);
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cache-control']).toBe('no-store');
        const location = new URL(String(res.headers.location));
        expect(location.origin + location.pathname).toBe(DEST);
        expect([...location.searchParams.keys()]).toEqual(['tab', 'jwt', 'state']);
        expect(location.searchParams.get('state')).toBe('st-1');
        expect((await me(location.searchParams.get('jwt') ?? '')).statusCode).toBe(200);
      });

      it('adds a refresh token when the key has the refresh permission', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        expect(tokens.refresh).toMatch(/^vrt_[0-9A-Za-z]{43}$/);
      });

      it('answers wrong credentials with one generic message, whether the email exists or not', async () => {
        const strip = (body: string) => body.replace(/value="[^"]*"/g, '');
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        const wrong = await submitLogin(
          t.apps.testing,
          page,
          { email: 'generic@example.com', password: 'x' },
          {},
          '10.0.0.1',
        );
        await t.deps.users.add({
          environment: 'testing',
          email: 'generic@example.com',
          password: 'generic-password-1',
        });
        const known = await submitLogin(
          t.apps.testing,
          page,
          { email: 'generic@example.com', password: 'wrong-password' },
          {},
          '10.0.0.1',
        );
        const unknown = await submitLogin(
          t.apps.testing,
          page,
          { email: 'nobody-here@example.com', password: 'wrong-password' },
          {},
          '10.0.0.1',
        );
        for (const res of [wrong, known, unknown]) {
          expect(res.statusCode).toBe(401);
          expect(res.headers.location).toBeUndefined();
          expect(res.body).toContain('The email or password is incorrect.');
        }
        expect(strip(known.body)).toBe(strip(unknown.body));
      });

      it('refuses a form without the CSRF cookie, with another browser’s cookie, or a tampered ticket', async () => {
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        const other = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        const tampered = `${page.ticket.slice(0, -4)}${page.ticket.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
        for (const attempt of [
          { ticket: page.ticket, cookie: '' },
          { ticket: page.ticket, cookie: other.cookie },
          { ticket: tampered, cookie: page.cookie },
          { ticket: '', cookie: page.cookie },
        ]) {
          const res = await submitLogin(t.apps.testing, attempt, ALICE);
          expect(res.statusCode).toBe(403);
          expect(res.headers.location).toBeUndefined();
          expect(res.body).toContain('<code>csrf_rejected</code>');
        }
      });

      it('refuses a form posted from another site (fetch metadata)', async () => {
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        const res = await submitLogin(t.apps.testing, page, ALICE, { 'sec-fetch-site': 'cross-site' });
        expect(res.statusCode).toBe(403);
      });

      it('refuses a login page older than ten minutes', async () => {
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        t.clock.advance(10 * 60_000 + 1_000);
        const res = await submitLogin(t.apps.testing, page, ALICE);
        expect(res.statusCode).toBe(400);
        expect(res.body).toContain('<code>login_expired</code>');
      });

      it('refuses to finish a login whose key was revoked while the page was open', async () => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        const page = await openLogin(t.apps.testing, { apiKey: issued.key, destination: DEST });
        await t.deps.keys.revoke(issued.record.id);
        const res = await submitLogin(t.apps.testing, page, ALICE);
        expect(res.statusCode).toBe(400);
        expect(res.headers.location).toBeUndefined();
      });

      it('throttles repeated failures per account and address, with Retry-After, even for the right password', async () => {
        const victim = { email: 'victim@example.com', password: 'victim-password-1' };
        await t.deps.users.add({ environment: 'testing', ...victim });
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        for (let i = 0; i < 5; i += 1) {
          const res = await submitLogin(
            t.apps.testing,
            page,
            { email: victim.email, password: `guess-${i}` },
            {},
            '10.1.0.1',
          );
          expect(res.statusCode).toBe(401);
        }
        const blocked = await submitLogin(t.apps.testing, page, victim, {}, '10.1.0.1');
        expect(blocked.statusCode).toBe(429);
        expect(blocked.headers['retry-after']).toBe('2');
        expect(blocked.body).toContain('Too many attempts');
        // Issue 13: the lockout is the guessing address's, not the account's (lockout.test.ts).
        t.clock.advance(2_000);
        expect((await submitLogin(t.apps.testing, page, victim, {}, '10.1.0.1')).statusCode).toBe(303);
        // A success clears the pair's count.
        expect(
          (await submitLogin(t.apps.testing, page, { ...victim, password: 'nope' }, {}, '10.1.0.1'))
            .statusCode,
        ).toBe(401);
      });

      it('throttles one client address guessing across many accounts, and only that address', async () => {
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST });
        for (let i = 0; i < 20; i += 1) {
          const res = await submitLogin(
            t.apps.testing,
            page,
            { email: `spray-${i}@example.com`, password: 'x' },
            {},
            '10.2.0.1',
          );
          expect(res.statusCode).toBe(401);
        }
        expect((await submitLogin(t.apps.testing, page, ALICE, {}, '10.2.0.1')).statusCode).toBe(429);
        expect((await submitLogin(t.apps.testing, page, ALICE, {}, '10.2.0.2')).statusCode).toBe(303);
      });

      it('keeps passwords and tokens out of the logs', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        await refresh(tokens.refresh ?? '');
        const logs = t.logs.join('\n');
        expect(logs).not.toContain(ALICE.password);
        expect(logs).not.toContain(tokens.jwt);
        expect(logs).not.toContain(tokens.refresh);
        expect(logs).not.toContain(refreshKey.key);
      });
    });

    describe('sign-up', () => {
      it('creates an account from the login page where allowed, then finishes the login', async () => {
        const page = await openLogin(t.apps.testing, { apiKey: key, destination: DEST, state: 's' });
        const form = await t.apps.testing.inject({
          url: `/auth/signup?ticket=${page.ticket}`,
          headers: { cookie: page.cookie, 'sec-fetch-site': 'same-origin' },
        });
        expect(form.statusCode).toBe(200);
        expect(form.body).toContain('Create your account');
        const post = (email: string, password: string) =>
          t.apps.testing.inject({
            method: 'POST',
            url: '/auth/signup',
            remoteAddress: '10.3.0.1',
            headers: { ...FORM, cookie: page.cookie },
            payload: new URLSearchParams({ ticket: page.ticket, email, password, name: 'Carol' }).toString(),
          });
        const weak = await post('carol@example.com', 'short');
        expect(weak.statusCode).toBe(400);
        expect(weak.body).toContain('at least 12 characters');
        const created = await post('carol@example.com', 'carol-password-1');
        expect(created.statusCode).toBe(303);
        const location = new URL(String(created.headers.location));
        expect(location.searchParams.get('state')).toBe('s');
        const profile = await me(location.searchParams.get('jwt') ?? '');
        expect(profile.json()).toMatchObject({ email: 'carol@example.com', name: 'Carol' });
        const again = await post('carol@example.com', 'carol-password-1');
        expect(again.statusCode).toBe(409);
        expect(again.body).toContain('already exists');
      });

      it('is closed where SIGNUP_ENVIRONMENTS does not list the environment', async () => {
        const page = await openLogin(t.apps.production, {
          apiKey: t.fixtures.keys.production.key,
          destination: DEST,
        });
        expect(page.response.body).not.toContain('/auth/signup');
        const res = await t.apps.production.inject({
          url: `/auth/signup?ticket=${page.ticket}`,
          headers: { cookie: page.cookie },
        });
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain('<code>signup_disabled</code>');
      });

      it('answers an oversized login form with an HTML error page, not JSON', async () => {
        const res = await t.apps.testing.inject({
          method: 'POST',
          url: '/auth/connect',
          headers: FORM,
          payload: `ticket=${'x'.repeat(70_000)}`,
        });
        expect(res.statusCode).toBe(413);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('<code>payload_too_large</code>');
      });
    });

    describe('/refresh', () => {
      it('gives a new working access token for a valid refresh token (GET and POST)', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        const res = await refresh(tokens.refresh ?? '');
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'token_type']);
        expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 36_000 });
        expect(body.expires_at).toBe(
          new Date(Math.floor(t.clock.now() / 1000) * 1000 + 10 * HOUR).toISOString(),
        );
        expect((await me(body.access_token, refreshKey.key)).statusCode).toBe(200);
        const posted = await t.apps.testing.inject({
          method: 'POST',
          url: '/auth/refresh',
          headers: { ...FORM, 'x-api-key': refreshKey.key },
          payload: new URLSearchParams({ refresh: tokens.refresh ?? '' }).toString(),
        });
        expect(posted.statusCode).toBe(200);
      });

      it('refuses a key without the refresh permission: 403 refresh_not_permitted', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        const res = await refresh(tokens.refresh ?? '', key);
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('refresh_not_permitted');
      });

      it('refuses unknown, malformed and other keys’ tokens: 401 refresh_token_invalid', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        const other = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.grantRefresh(other.record.id);
        for (const [token, apiKey] of [
          [`vrt_${'A'.repeat(43)}`, refreshKey.key],
          ['not-a-token', refreshKey.key],
          [tokens.refresh ?? '', other.key],
        ] as const) {
          const res = await refresh(token, apiKey);
          expect(res.statusCode).toBe(401);
          expect(res.json().code).toBe('refresh_token_invalid');
        }
      });

      it('refuses a token past REFRESH_TOKEN_TTL: 401 refresh_token_expired', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        t.clock.advance(30 * 24 * HOUR);
        const res = await refresh(tokens.refresh ?? '');
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('refresh_token_expired');
      });

      it('revokes with POST /revoke (RFC 7009: 200 also for unknown tokens; another key cannot revoke)', async () => {
        const tokens = await loginTokens(t.apps.testing, refreshKey.key, ALICE);
        const revoke = (token: string, apiKey: string) =>
          t.apps.testing.inject({
            method: 'POST',
            url: '/auth/revoke',
            headers: { ...FORM, 'x-api-key': apiKey },
            payload: new URLSearchParams({ token }).toString(),
          });
        expect((await revoke(`vrt_${'B'.repeat(43)}`, refreshKey.key)).statusCode).toBe(200);
        expect((await revoke(tokens.refresh ?? '', key)).statusCode).toBe(200);
        expect((await refresh(tokens.refresh ?? '')).statusCode).toBe(200);
        const res = await revoke(tokens.refresh ?? '', refreshKey.key);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({});
        const after = await refresh(tokens.refresh ?? '');
        expect(after.statusCode).toBe(401);
        expect(after.json().code).toBe('refresh_token_revoked');
      });

      it('withdrawing the refresh permission revokes the key’s refresh tokens for good', async () => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.grantRefresh(issued.record.id);
        const tokens = await loginTokens(t.apps.testing, issued.key, ALICE);
        const withdrawn = await t.deps.keys.revokeRefresh(issued.record.id);
        expect(withdrawn.revokedRefreshTokens).toBe(1);
        expect((await refresh(tokens.refresh ?? '', issued.key)).json().code).toBe('refresh_not_permitted');
        await t.deps.keys.grantRefresh(issued.record.id);
        expect((await refresh(tokens.refresh ?? '', issued.key)).json().code).toBe('refresh_token_revoked');
      });

      it('a password change and disabling the user revoke their refresh tokens', async () => {
        const bob = { email: 'bob@example.com', password: 'bob-password-11' };
        const bobId = (await t.deps.users.add({ environment: 'testing', ...bob })).id;
        const first = await loginTokens(t.apps.testing, refreshKey.key, bob);
        await t.deps.users.setPassword(bobId, 'bob-password-22');
        expect((await refresh(first.refresh ?? '')).json().code).toBe('refresh_token_revoked');
        const second = await loginTokens(t.apps.testing, refreshKey.key, {
          ...bob,
          password: 'bob-password-22',
        });
        await t.deps.users.disable(bobId);
        expect((await refresh(second.refresh ?? '')).json().code).toBe('refresh_token_revoked');
      });

      it('revoking the key ends its refresh tokens', async () => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.grantRefresh(issued.record.id);
        const tokens = await loginTokens(t.apps.testing, issued.key, ALICE);
        await t.deps.keys.revoke(issued.record.id);
        expect((await refresh(tokens.refresh ?? '', issued.key)).json().code).toBe('api_key_revoked');
        const row = await t.database.db.get<{ revoked_reason: string }>(
          'SELECT revoked_reason FROM refresh_tokens WHERE token_hash = ?',
          [
            createHash('sha256')
              .update(tokens.refresh ?? '')
              .digest('hex'),
          ],
        );
        expect(row?.revoked_reason).toBe('key_revoked');
      });

      it('names a missing or repeated refresh parameter', async () => {
        const res = await t.apps.testing.inject({
          url: '/auth/refresh',
          headers: { 'x-api-key': refreshKey.key },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual([{ parameter: 'refresh', message: 'is required' }]);
      });
    });

    describe('bearer tokens', () => {
      let jwt: string;
      beforeAll(async () => {
        jwt = (await loginTokens(t.apps.testing, key, ALICE)).jwt;
      });

      async function forged(
        claims: Record<string, unknown>,
        header: Record<string, unknown> = {},
        signWith?: Parameters<SignJWT['sign']>[0],
      ): Promise<string> {
        const signer = await t.deps.signingKeys.signer('testing');
        const now = Math.floor(t.clock.now() / 1000);
        const alice = await t.deps.users.get(aliceId);
        return new SignJWT({
          iss: 'http://localhost:8081/auth',
          sub: aliceId,
          aud: 'http://localhost:8081/v1',
          client_id: t.fixtures.keys.testing.id,
          env: 'testing',
          iat: now,
          exp: now + 3600,
          jti: 'j',
          sv: alice?.passwordChangedAt,
          ...claims,
        })
          .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: 'at+jwt', ...header })
          .sign(signWith ?? signer.privateKey);
      }
      const expectInvalid = async (token: string, apiKey = key) => {
        const res = await me(token, apiKey);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('token_invalid');
        expect(res.headers['www-authenticate']).toBe(
          'Bearer error="invalid_token", error_description="The access token is invalid"',
        );
      };

      it('accepts a well-formed token of this key (the forging helper itself is right)', async () => {
        expect((await me(jwt)).statusCode).toBe(200);
        expect((await me(await forged({}))).statusCode).toBe(200);
      });

      it('answers an expired token with token_expired and the exact WWW-Authenticate header; 60 s skew tolerated', async () => {
        const token = await forged({ exp: Math.floor(t.clock.now() / 1000) - 30 });
        expect((await me(token)).statusCode).toBe(200);
        const old = await forged({ exp: Math.floor(t.clock.now() / 1000) - 61 });
        const res = await me(old);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('token_expired');
        expect(res.headers['www-authenticate']).toBe(
          'Bearer error="invalid_token", error_description="The access token expired"',
        );
      });

      it('refuses alg none, HMAC confusion and a foreign key', async () => {
        const [h, p] = jwt.split('.');
        const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${p}.`;
        await expectInvalid(none);
        const jwk = (await t.apps.testing.inject('/auth/.well-known/jwks.json')).json().keys[0];
        const hmac = await new SignJWT(JSON.parse(Buffer.from(p ?? '', 'base64url').toString()))
          .setProtectedHeader({ alg: 'HS256', kid: jwk.kid, typ: 'at+jwt' })
          .sign(new TextEncoder().encode(jwk.x));
        await expectInvalid(hmac);
        const foreign = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
        await expectInvalid(await forged({}, {}, foreign.privateKey));
        await expectInvalid(`${h}.${p}.${'A'.repeat(86)}`);
      });

      it.each([
        ['another audience', { aud: 'https://elsewhere.example/v1' }, {}],
        ['another issuer', { iss: 'https://elsewhere.example/auth' }, {}],
        ['the production environment claim', { env: 'production' }, {}],
        ['an unknown user', { sub: 'usr_nobody' }, {}],
        ['no jti', { jti: undefined }, {}],
        ['no session version', { sv: undefined }, {}],
        ['an old session version', { sv: 1 }, {}],
        ['another token type', {}, { typ: 'JWT' }],
        ['an unknown kid', {}, { kid: 'sig_unknown' }],
      ])('refuses %s', async (_name, claims, header) => {
        await expectInvalid(await forged(claims, header));
      });

      it('refuses a token presented with another key, and on the other environment', async () => {
        const other = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await expectInvalid(jwt, other.key);
        const res = await me(jwt, t.fixtures.keys.production.key, 'production');
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('token_invalid');
      });

      it('refuses malformed Authorization headers and asks for a token when there is none', async () => {
        for (const authorization of ['Bearer', 'Basic Zm9vOmJhcg==', `Bearer ${jwt} x`, `Bearer${jwt}`]) {
          const res = await t.apps.testing.inject({
            url: '/v1/me',
            headers: { 'x-api-key': key, authorization },
          });
          expect(res.json().code).toBe('token_invalid');
        }
        const none = await t.apps.testing.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
        expect(none.statusCode).toBe(401);
        expect(none.json().code).toBe('token_missing');
        expect(none.headers['www-authenticate']).toBe('Bearer realm="vitrine"');
      });

      it('accepts the scheme name in any case (RFC 9110)', async () => {
        const res = await t.apps.testing.inject({
          url: '/v1/me',
          headers: { 'x-api-key': key, authorization: `bearer ${jwt}` },
        });
        expect(res.statusCode).toBe(200);
      });

      it('refuses a token issued before a password change, even in the same second', async () => {
        const dora = { email: 'dora@example.com', password: 'dora-password-11' };
        const doraId = (await t.deps.users.add({ environment: 'testing', ...dora })).id;
        const old = (await loginTokens(t.apps.testing, key, dora)).jwt;
        t.clock.advance(500);
        await t.deps.users.setPassword(doraId, 'dora-password-22');
        expect((await me(old)).json().code).toBe('token_invalid');
        const fresh = (await loginTokens(t.apps.testing, key, { ...dora, password: 'dora-password-22' })).jwt;
        expect((await me(fresh)).statusCode).toBe(200);
      });

      it('checks the API key before the token', async () => {
        const res = await t.apps.testing.inject({
          url: '/v1/me',
          headers: { authorization: `Bearer ${jwt}` },
        });
        expect(res.json().code).toBe('api_key_missing');
      });
    });

    describe('signing keys', () => {
      it('rotation keeps old tokens valid and the old key published until they expire', async () => {
        const before = (await loginTokens(t.apps.testing, key, ALICE)).jwt;
        const rotated = await t.deps.signingKeys.rotate('testing');
        expect(rotated.retired?.kid).toBeDefined();
        const after = (await loginTokens(t.apps.testing, key, ALICE)).jwt;
        const kid = (token: string) =>
          JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).kid;
        expect(kid(after)).toBe(rotated.active.kid);
        expect(kid(before)).toBe(rotated.retired?.kid);
        const jwks = (await t.apps.testing.inject('/auth/.well-known/jwks.json')).json();
        expect(jwks.keys.map((k: { kid: string }) => k.kid).sort()).toEqual(
          [rotated.active.kid, rotated.retired?.kid].sort(),
        );
        expect((await me(before)).statusCode).toBe(200);
        t.clock.advance(10 * HOUR + 61_000);
        const later = (await t.apps.testing.inject('/auth/.well-known/jwks.json')).json();
        expect(later.keys.map((k: { kid: string }) => k.kid)).toEqual([rotated.active.kid]);
      });

      it('keeps private keys encrypted at rest and erases the retired one', async () => {
        const rows = await t.database.db.all<{
          private_key_sealed: string | null;
          retired_at: number | null;
        }>("SELECT private_key_sealed, retired_at FROM signing_keys WHERE environment = 'testing'");
        for (const row of rows) {
          if (row.retired_at === null) expect(row.private_key_sealed).toMatch(/^v1\./);
          else expect(row.private_key_sealed).toBeNull();
          expect(row.private_key_sealed ?? '').not.toContain('PRIVATE KEY');
        }
      });
    });
  });
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`refresh-token rotation on ${dialect}`, () => {
    let t: TestContext;
    let refreshKey: string;
    beforeAll(async () => {
      t = await createTestContext(dialect, {
        REFRESH_TOKEN_ROTATION: 'on',
        REFRESH_TOKEN_REUSE_GRACE: '30s',
      });
      await t.deps.keys.grantRefresh(t.fixtures.keys.testing.id);
      refreshKey = t.fixtures.keys.testing.key;
      await t.deps.users.add({ environment: 'testing', ...ALICE });
    });
    afterAll(async () => {
      await t.close();
    });
    const refresh = (token: string) =>
      t.apps.testing.inject({ url: `/auth/refresh?refresh=${token}`, headers: { 'x-api-key': refreshKey } });

    it('returns a new refresh token each time; a spent one replayed after the grace period revokes the family', async () => {
      const { refresh: first } = await loginTokens(t.apps.testing, refreshKey, ALICE);
      const one = await refresh(first ?? '');
      expect(one.statusCode).toBe(200);
      const second = one.json().refresh_token;
      expect(second).toMatch(/^vrt_/);
      expect(second).not.toBe(first);
      const two = await refresh(second);
      expect(two.statusCode).toBe(200);
      const third = two.json().refresh_token;
      t.clock.advance(31_000);
      const replay = await refresh(first ?? '');
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('refresh_token_revoked');
      // The thief's replay ended the whole login, including the newest token.
      expect((await refresh(third)).json().code).toBe('refresh_token_revoked');
    });

    it('accepts a spent token up to the grace period’s last millisecond and revokes one past it (issue 26)', async () => {
      const { refresh: token } = await loginTokens(t.apps.testing, refreshKey, ALICE);
      expect((await refresh(token ?? '')).statusCode).toBe(200); // spent now
      t.clock.advance(30_000 - 1);
      expect((await refresh(token ?? '')).statusCode).toBe(200);
      t.clock.advance(1); // exactly the grace period
      expect((await refresh(token ?? '')).statusCode).toBe(200);
      t.clock.advance(1);
      const replay = await refresh(token ?? '');
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('refresh_token_revoked');
    });

    it('lets two concurrent refreshes with the same token both succeed (grace period)', async () => {
      const { refresh: token } = await loginTokens(t.apps.testing, refreshKey, ALICE);
      const [a, b] = await Promise.all([refresh(token ?? ''), refresh(token ?? '')]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json().refresh_token).not.toBe(b.json().refresh_token);
      t.clock.advance(5_000);
      expect((await refresh(token ?? '')).statusCode).toBe(200);
    });
  });
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`key guessing through /connect on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, { RATE_LIMITING: 'true', RATE_LIMIT_AUTH_FAILURES: '3' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('spends the per-address budget of bad keys, then answers 429 with an HTML page', async () => {
      const guess = (n: number, remoteAddress = '10.9.0.1') =>
        t.apps.testing.inject({
          url: `/auth/connect?apiKey=vk_test_guess${n}&destination=${encodeURIComponent(DEST)}`,
          remoteAddress,
        });
      for (let i = 0; i < 3; i += 1) expect((await guess(i)).statusCode).toBe(400);
      const blocked = await guess(3);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(blocked.headers['retry-after']).toBe('60');
      // The budget is the address's, shared with the search API, and only that address's.
      const api = await t.apps.testing.inject({
        url: '/v1/offers/',
        headers: { 'x-api-key': t.fixtures.keys.testing.key },
        remoteAddress: '10.9.0.1',
      });
      expect(api.statusCode).toBe(429);
      expect((await guess(4, '10.9.0.2')).statusCode).toBe(400);
    });
  });
}
