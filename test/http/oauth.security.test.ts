import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { authorizeAndLogin, authorizeUrl, codeFor, pkce, REDIRECT, tokenRequest } from './oauth-helpers.js';

/**
 * The OAuth 2.0 / OpenID Connect door as a security reviewer reads it (SPEC §5.4, issue 17): what
 * /authorize refuses and how (HTML page or redirect), every binding of a code, client
 * authentication, scopes, and the errors of RFC 6749 §4.1.2.1 and §5.2. Both backends.
 */
const ALICE = { email: 'alice@example.com', password: 'alice-password-1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`OAuth door on ${dialect}`, () => {
    let t: TestContext;
    let client: { id: string; key: string };
    let noRefresh: { id: string; key: string };
    let other: { id: string; key: string };
    const ISS = 'http://localhost:8081/auth';

    beforeAll(async () => {
      t = await createTestContext(dialect);
      const issue = async (refresh: boolean) => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        if (refresh) await t.deps.keys.grantRefresh(issued.record.id);
        return { id: issued.record.id, key: issued.key };
      };
      client = await issue(true);
      other = await issue(true);
      noRefresh = t.fixtures.keys.testing;
      await t.deps.users.add({ environment: 'testing', ...ALICE });
    });
    afterAll(async () => {
      await t.close();
    });

    const app = () => t.apps.testing;
    const me = (jwt: string, apiKey = client.key) =>
      app().inject({ url: '/v1/me', headers: { 'x-api-key': apiKey, authorization: `Bearer ${jwt}` } });
    const exchange = (code: string, verifier: string, who = client, redirectUri = REDIRECT) =>
      tokenRequest(app(), who, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
    const valid = (extra: Record<string, string> = {}) => ({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      ...extra,
    });

    describe('discovery', () => {
      it('publishes the OIDC and RFC 8414 documents with issuer = {auth_url} of each environment', async () => {
        for (const path of [
          '/auth/.well-known/openid-configuration',
          '/auth/.well-known/oauth-authorization-server',
          '/.well-known/oauth-authorization-server/auth',
        ]) {
          const res = await app().inject({ url: path });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toMatchObject({
            issuer: ISS,
            authorization_endpoint: `${ISS}/authorize`,
            token_endpoint: `${ISS}/token`,
            userinfo_endpoint: `${ISS}/userinfo`,
            revocation_endpoint: `${ISS}/revoke`,
            jwks_uri: `${ISS}/.well-known/jwks.json`,
            code_challenge_methods_supported: ['S256'],
            response_types_supported: ['code'],
            scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
            id_token_signing_alg_values_supported: ['EdDSA'],
            authorization_response_iss_parameter_supported: true,
          });
        }
        const production = await t.apps.production.inject({ url: '/auth/.well-known/openid-configuration' });
        expect(production.json().issuer).toBe('http://localhost:8080/auth');
      });
    });

    describe('/authorize', () => {
      it('serves the /connect login page, with its CSRF cookie, CSP form-action and headers', async () => {
        const res = await app().inject({ url: authorizeUrl(valid()) });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('Sign in to continue to Test project');
        expect(res.body).toContain('<form method="post" action="/auth/connect"');
        expect(res.headers).toMatchObject({
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        });
        expect(String(res.headers['content-security-policy'])).toContain(
          "form-action 'self' https://app.example.com",
        );
        expect(String(res.headers['set-cookie'])).toMatch(
          /^vitrine_login=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Strict$/,
        );
      });

      it('ends the login with a 303 carrying code, state and iss (RFC 9207), never tokens', async () => {
        const { location, login } = await authorizeAndLogin(app(), valid(), ALICE);
        expect(login.statusCode).toBe(303);
        expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
        expect([...location.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
        expect(location.searchParams.get('state')).toBe('xyz');
        expect(location.searchParams.get('iss')).toBe(ISS);
        expect(location.searchParams.get('code')).toMatch(/^vac_[0-9A-Za-z]{43}$/);
      });

      it.each([
        [
          'an unregistered redirect_uri',
          { redirect_uri: 'https://evil.example/callback' },
          'invalid_redirect_uri',
        ],
        [
          'a redirect_uri on another path',
          { redirect_uri: 'https://app.example.com/other' },
          'invalid_redirect_uri',
        ],
        ['no redirect_uri', { redirect_uri: '' }, 'invalid_redirect_uri'],
        ['an unknown client_id', { client_id: 'key_doesnotexist' }, 'invalid_client'],
        ['a malformed client_id', { client_id: '<x>' }, 'invalid_client'],
      ])('answers %s with an HTML error page, status 400 and no redirect', async (_name, change, code) => {
        const res = await app().inject({ url: authorizeUrl(valid(change)) });
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toContain(`<code>${code}</code>`);
      });

      it('refuses a publishable key as an OAuth client: a page at /authorize, invalid_client at /token', async () => {
        const pub = await t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'testing',
          kind: 'publishable',
          allowedOrigins: ['https://shop.example'],
        });
        const page = await app().inject({ url: authorizeUrl(valid({ client_id: pub.record.id })) });
        expect(page.statusCode).toBe(400);
        expect(page.headers.location).toBeUndefined();
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        const token = await tokenRequest(
          app(),
          { id: pub.record.id, key: pub.key },
          {
            grant_type: 'authorization_code',
            code: 'whatever',
            redirect_uri: REDIRECT,
            code_verifier: pkce().verifier,
          },
        );
        expect(token.statusCode).toBe(401);
        expect(token.json().error).toBe('invalid_client');
        // And at /connect, the seed's door, with the same rule.
        const connect = await app().inject({
          url: `/auth/connect?apiKey=${pub.key}&destination=${encodeURIComponent(REDIRECT)}`,
        });
        expect(connect.statusCode).toBe(400);
        expect(connect.body).toContain('<code>api_key_scope</code>');
      });

      it('refuses a revoked key, a key of the other environment and a repeated redirect_uri with a page', async () => {
        const revoked = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.revoke(revoked.record.id);
        for (const url of [
          authorizeUrl(valid({ client_id: revoked.record.id })),
          authorizeUrl(valid({ client_id: t.fixtures.keys.production.id })),
          `${authorizeUrl(valid())}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
        ]) {
          const res = await app().inject({ url });
          expect(res.statusCode).toBe(400);
          expect(res.headers.location).toBeUndefined();
        }
      });

      it.each([
        ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
        ['no PKCE', { code_challenge: '', code_challenge_method: '' }, 'invalid_request'],
        ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
        ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
        ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope'],
        ['prompt=none', { prompt: 'none' }, 'login_required'],
        ['a request object', { request: 'eyJ' }, 'request_not_supported'],
      ])(
        'redirects %s back with error=%s, state and iss (RFC 6749 §4.1.2.1)',
        async (_name, change, error) => {
          const params = Object.fromEntries(
            Object.entries(valid(change as Record<string, string>)).filter(([, v]) => v !== ''),
          );
          const res = await app().inject({ url: authorizeUrl(params) });
          expect(res.statusCode).toBe(303);
          const location = new URL(String(res.headers.location));
          expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
          expect(location.searchParams.get('error')).toBe(error);
          expect(location.searchParams.get('state')).toBe('xyz');
          expect(location.searchParams.get('iss')).toBe(ISS);
          expect(location.searchParams.has('code')).toBe(false);
        },
      );

      it('finishes a sign-up started from /authorize with a code, not tokens', async () => {
        const { verifier, challenge } = pkce();
        const page = await app().inject({
          url: authorizeUrl(valid({ code_challenge: challenge, scope: 'openid email' })),
        });
        const ticket = /name="ticket" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
        const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
        expect(page.body).toContain(`/auth/signup?ticket=${ticket}`);
        const created = await app().inject({
          method: 'POST',
          url: '/auth/signup',
          remoteAddress: '10.9.0.1',
          headers: { ...FORM, cookie },
          payload: new URLSearchParams({
            ticket,
            email: 'dora@example.com',
            password: 'dora-password-1',
            name: 'Dora',
          }).toString(),
        });
        expect(created.statusCode).toBe(303);
        const location = new URL(String(created.headers.location));
        expect([...location.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
        const body = (await exchange(location.searchParams.get('code') ?? '', verifier)).json();
        const info = await app().inject({
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${body.access_token}` },
        });
        expect(info.json()).toMatchObject({ email: 'dora@example.com' });
      });

      it('refuses an OAuth login form without its CSRF cookie, as /connect does', async () => {
        const page = await app().inject({ url: authorizeUrl(valid()) });
        const ticket = /name="ticket" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
        const res = await app().inject({
          method: 'POST',
          url: '/auth/connect',
          headers: FORM,
          payload: new URLSearchParams({ ticket, ...ALICE }).toString(),
        });
        expect(res.statusCode).toBe(403);
        expect(res.headers.location).toBeUndefined();
      });
    });

    describe('/token with a code', () => {
      it('exchanges a code once, with no-store, an ID token and a refresh token (client_secret_basic too)', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const res = await tokenRequest(
          app(),
          client,
          { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
          'basic',
        );
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['content-type']).toContain('application/json');
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual([
          'access_token',
          'expires_in',
          'id_token',
          'refresh_token',
          'scope',
          'token_type',
        ]);
        expect(body).toMatchObject({
          token_type: 'Bearer',
          expires_in: 36_000,
          scope: 'openid profile email offline_access',
        });
        expect((await me(body.access_token)).statusCode).toBe(200);
        // An ID token is not an access token (RFC 9068 typ).
        expect((await me(body.id_token)).statusCode).toBe(401);
      });

      it('refuses a wrong verifier (and the code then still works with the right one)', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const wrong = await exchange(code, pkce().verifier);
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toEqual({
          error: 'invalid_grant',
          error_description: 'The code_verifier does not match the code_challenge.',
        });
        expect((await exchange(code, 'too-short')).json().error).toBe('invalid_grant');
        expect((await exchange(code, verifier)).statusCode).toBe(200);
      });

      it('refuses a replayed code and revokes the tokens it issued', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const first = (await exchange(code, verifier)).json();
        expect((await me(first.access_token)).statusCode).toBe(200);
        const replay = await exchange(code, verifier);
        expect(replay.statusCode).toBe(400);
        expect(replay.json().error).toBe('invalid_grant');
        expect((await me(first.access_token)).json().code).toBe('token_invalid');
        const refresh = await tokenRequest(app(), client, {
          grant_type: 'refresh_token',
          refresh_token: first.refresh_token,
        });
        expect(refresh.json().error).toBe('invalid_grant');
      });

      it('refuses another client’s code, and a code for another redirect URI', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const stolen = await exchange(code, verifier, other);
        expect(stolen.statusCode).toBe(400);
        expect(stolen.json().error).toBe('invalid_grant');
        const elsewhere = await exchange(code, verifier, client, 'https://app.example.com/callback?x=1');
        expect(elsewhere.json().error).toBe('invalid_grant');
        // Neither burnt the code for its rightful client.
        expect((await exchange(code, verifier)).statusCode).toBe(200);
      });

      it('refuses a code older than 60 s (moved clock)', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        t.clock.advance(60_000);
        const res = await exchange(code, verifier);
        expect(res.json()).toEqual({
          error: 'invalid_grant',
          error_description: 'The authorization code has expired.',
        });
      });

      it('gives no ID token without the openid scope', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE, {
          scope: 'profile offline_access',
        });
        const body = (await exchange(code, verifier)).json();
        expect(body.id_token).toBeUndefined();
        expect(body.scope).toBe('profile offline_access');
        expect(body.refresh_token).toMatch(/^vrt_/);
      });

      it('gives no refresh token to a key without the refresh permission, even with offline_access', async () => {
        const { code, verifier } = await codeFor(app(), noRefresh.id, ALICE);
        const body = (await exchange(code, verifier, noRefresh)).json();
        expect(body.refresh_token).toBeUndefined();
        expect(body.scope).toBe('openid profile email');
        expect(body.id_token).toBeDefined();
        // A refresh token of this key obtained by /connect earlier is of no use either.
        const res = await tokenRequest(app(), noRefresh, {
          grant_type: 'refresh_token',
          refresh_token: `vrt_${'A'.repeat(43)}`,
        });
        expect(res.json().error).toBe('unauthorized_client');
      });
      it('grants no refresh token when the permission was withdrawn between /authorize and /token', async () => {
        const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        await t.deps.keys.grantRefresh(issued.record.id);
        const own = { id: issued.record.id, key: issued.key };
        const { code, verifier } = await codeFor(app(), own.id, ALICE);
        await t.deps.keys.revokeRefresh(own.id);
        const body = (await exchange(code, verifier, own)).json();
        expect(body.refresh_token).toBeUndefined();
        expect(body.scope).toBe('openid profile email');
      });
    });

    describe('/token client authentication and errors (RFC 6749 §5.2)', () => {
      const raw = (headers: Record<string, string>, payload: string) =>
        app().inject({ method: 'POST', url: '/auth/token', headers: { ...FORM, ...headers }, payload });

      it('answers invalid_client 401 with WWW-Authenticate for a wrong, missing or foreign secret', async () => {
        for (const res of [
          await tokenRequest(
            app(),
            { id: client.id, key: other.key },
            { grant_type: 'refresh_token', refresh_token: 'x' },
          ),
          await tokenRequest(
            app(),
            { id: client.id, key: 'vk_test_nonsense' },
            { grant_type: 'refresh_token', refresh_token: 'x' },
            'basic',
          ),
          await tokenRequest(app(), t.fixtures.keys.production, {
            grant_type: 'refresh_token',
            refresh_token: 'x',
          }),
          await raw({}, 'grant_type=refresh_token&refresh_token=x'),
        ]) {
          expect(res.statusCode).toBe(401);
          expect(res.headers['www-authenticate']).toBe('Basic realm="vitrine"');
          expect(res.headers['cache-control']).toBe('no-store');
          expect(res.json().error).toBe('invalid_client');
        }
      });

      it('names bad requests: two auth methods, repeated or missing parameters, unknown grant, JSON body', async () => {
        const basic = `Basic ${Buffer.from(`${client.id}:${client.key}`).toString('base64')}`;
        const cases: [Awaited<ReturnType<typeof raw>>, number, string][] = [
          [
            await raw({ authorization: basic }, `client_secret=${client.key}&grant_type=refresh_token`),
            400,
            'invalid_request',
          ],
          [await tokenRequest(app(), client, { grant_type: 'password' }), 400, 'unsupported_grant_type'],
          [await tokenRequest(app(), client, {}), 400, 'invalid_request'],
          [
            await tokenRequest(app(), client, { grant_type: 'authorization_code', code: 'x' }),
            400,
            'invalid_request',
          ],
          [
            await raw({ authorization: basic }, 'grant_type=refresh_token&grant_type=authorization_code'),
            400,
            'invalid_request',
          ],
          [
            await app().inject({
              method: 'POST',
              url: '/auth/token',
              headers: { 'content-type': 'application/json', authorization: basic },
              payload: JSON.stringify({ grant_type: 'refresh_token' }),
            }),
            400,
            'invalid_request',
          ],
        ];
        for (const [res, status, error] of cases) {
          expect(res.statusCode).toBe(status);
          expect(res.json().error).toBe(error);
          expect(res.headers['cache-control']).toBe('no-store');
        }
      });

      it('refreshes with the refresh_token grant and keeps the scope', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE, { scope: 'openid offline_access' });
        const first = (await exchange(code, verifier)).json();
        const res = await tokenRequest(
          app(),
          client,
          { grant_type: 'refresh_token', refresh_token: first.refresh_token },
          'basic',
        );
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ token_type: 'Bearer', scope: 'openid offline_access' });
        expect(res.json().id_token).toBeUndefined();
        const stolen = await tokenRequest(app(), other, {
          grant_type: 'refresh_token',
          refresh_token: first.refresh_token,
        });
        expect(stolen.json().error).toBe('invalid_grant');
      });
    });

    describe('/userinfo and /revoke', () => {
      it('answers the claims of the granted scope, with or without the key; refuses a token of another key', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE, { scope: 'openid email' });
        const { access_token: token } = (await exchange(code, verifier)).json();
        const alone = await app().inject({
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(alone.statusCode).toBe(200);
        expect(alone.headers['cache-control']).toBe('no-store');
        expect(Object.keys(alone.json()).sort()).toEqual(['email', 'sub']);
        const withKey = await app().inject({
          method: 'POST',
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${token}`, 'x-api-key': client.key },
        });
        expect(withKey.statusCode).toBe(200);
        const otherKey = await app().inject({
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${token}`, 'x-api-key': other.key },
        });
        expect(otherKey.statusCode).toBe(401);
        expect(otherKey.headers['www-authenticate']).toContain('error="invalid_token"');
        const none = await app().inject({ url: '/auth/userinfo' });
        expect(none.statusCode).toBe(401);
        expect(none.headers['www-authenticate']).toBe('Bearer realm="vitrine"');
        // A /connect token has no scope: the subject only.
        const connect = await loginTokens(app(), client.key, ALICE);
        const plain = await app().inject({
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${connect.jwt}` },
        });
        expect(Object.keys(plain.json())).toEqual(['sub']);
        // The key revoked: the token is refused without the key too.
        const revocable = await t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'testing',
        });
        const own = await codeFor(app(), revocable.record.id, ALICE, { scope: 'openid' });
        const ownToken = (
          await exchange(own.code, own.verifier, { id: revocable.record.id, key: revocable.key })
        ).json().access_token;
        await t.deps.keys.revoke(revocable.record.id);
        const gone = await app().inject({
          url: '/auth/userinfo',
          headers: { authorization: `Bearer ${ownToken}` },
        });
        expect(gone.statusCode).toBe(401);
      });

      it('revokes with OAuth client authentication (RFC 7009) as with the API key; a wrong secret is invalid_client', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const body = (await exchange(code, verifier)).json();
        const wrong = await app().inject({
          method: 'POST',
          url: '/auth/revoke',
          headers: {
            ...FORM,
            authorization: `Basic ${Buffer.from(`${client.id}:${other.key}`).toString('base64')}`,
          },
          payload: new URLSearchParams({ token: body.refresh_token }).toString(),
        });
        expect(wrong.statusCode).toBe(401);
        expect(wrong.json().error).toBe('invalid_client');
        const res = await app().inject({
          method: 'POST',
          url: '/auth/revoke',
          headers: FORM,
          payload: new URLSearchParams({
            token: body.refresh_token,
            client_id: client.id,
            client_secret: client.key,
          }).toString(),
        });
        expect(res.statusCode).toBe(200);
        expect((await me(body.access_token)).json().code).toBe('token_invalid');
        const missing = await app().inject({
          method: 'POST',
          url: '/auth/revoke',
          headers: FORM,
          payload: new URLSearchParams({ token: body.refresh_token }).toString(),
        });
        expect(missing.statusCode).toBe(401);
        expect(missing.json().code).toBe('api_key_missing');
      });

      it('keeps codes, secrets and tokens out of the logs', async () => {
        const { code, verifier } = await codeFor(app(), client.id, ALICE);
        const body = (await exchange(code, verifier)).json();
        const logs = t.logs.join('');
        for (const secret of [
          code,
          verifier,
          client.key,
          body.access_token,
          body.refresh_token,
          ALICE.password,
        ]) {
          expect(logs).not.toContain(secret);
        }
      });
    });
  });
}
