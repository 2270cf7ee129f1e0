import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { freePort } from '../support/processes.js';
import { REDIRECT } from './oauth-helpers.js';

/**
 * Issue 17's first "done when": an off-the-shelf client (openid-client 6, over real HTTP) drives
 * the whole standard flow — discovery, authorization URL with PKCE, the login form (posted with
 * its CSRF ticket and cookie, as a browser would), code exchange with ID-token validation,
 * userinfo, refresh, revoke — on both backends.
 */
const ALICE = { email: 'alice@example.com', password: 'alice-password-1', name: 'Alice Liddell' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`openid-client against the OAuth door on ${dialect}`, () => {
    let t: TestContext;
    let origin: string;
    let key: { id: string; key: string };
    let aliceId: string;

    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      t = await createTestContext(dialect, { TESTING_PUBLIC_ORIGIN: origin }, { environments: ['testing'] });
      // openid-client checks iat/exp against the real time: start the injected clock there.
      t.clock.set(Date.now());
      await t.apps.testing.listen({ host: '127.0.0.1', port });
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      key = { id: issued.record.id, key: issued.key };
      aliceId = (await t.deps.users.add({ environment: 'testing', ...ALICE })).id;
    });
    afterAll(async () => {
      await t?.close();
    });

    /** What a browser does on the login page: GET it, keep the cookie, post the form. */
    async function signInThroughLoginPage(authorizationUrl: URL): Promise<URL> {
      const page = await fetch(authorizationUrl, { redirect: 'manual' });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Sign in to continue to Test project');
      const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
      const posted = await fetch(new URL(action, authorizationUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          'sec-fetch-site': 'same-origin',
        },
        body: new URLSearchParams({ ticket, email: ALICE.email, password: ALICE.password }).toString(),
      });
      expect(posted.status).toBe(303);
      return new URL(posted.headers.get('location') ?? '');
    }

    for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
      it(`runs discovery → PKCE → login → code → ID token → userinfo → refresh → revoke (${method})`, async () => {
        const auth =
          method === 'client_secret_basic'
            ? client.ClientSecretBasic(key.key)
            : client.ClientSecretPost(key.key);
        const config = await client.discovery(new URL(`${origin}/auth`), key.id, undefined, auth, {
          execute: [client.allowInsecureRequests],
        });
        const metadata = config.serverMetadata();
        expect(metadata.issuer).toBe(`${origin}/auth`);
        expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
        expect(metadata.token_endpoint_auth_methods_supported).toContain(method);

        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        const nonce = client.randomNonce();
        const authorizationUrl = client.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: 'openid profile email offline_access',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        const callback = await signInThroughLoginPage(authorizationUrl);
        expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
        expect(callback.searchParams.get('iss')).toBe(`${origin}/auth`);
        expect(callback.searchParams.has('jwt')).toBe(false);

        // openid-client checks state, iss (RFC 9207), the token response and the ID token's
        // claims (iss, aud, exp, iat, nonce, alg among the advertised ones).
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        expect(tokens.token_type).toBe('bearer');
        expect(tokens.scope).toBe('openid profile email offline_access');
        expect(tokens.refresh_token).toMatch(/^vrt_/);
        const claims = tokens.claims();
        expect(claims?.sub).toBe(aliceId);
        expect(claims?.aud).toBe(key.id);
        expect(typeof claims?.auth_time).toBe('number');
        // …and its signature, against the published JWKS (openid-client trusts TLS for that).
        const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri ?? ''));
        const verified = await jwtVerify(tokens.id_token ?? '', jwks, {
          issuer: `${origin}/auth`,
          audience: key.id,
          algorithms: ['EdDSA'],
          currentDate: new Date(t.clock.now()),
        });
        expect(verified.payload.nonce).toBe(nonce);

        // The access token is the search API's own (SPEC §5.4): /v1/me takes it with the key.
        const me = await fetch(`${origin}/v1/me`, {
          headers: { 'x-api-key': key.key, authorization: `Bearer ${tokens.access_token}` },
        });
        expect(me.status).toBe(200);

        const info = await client.fetchUserInfo(config, tokens.access_token, aliceId);
        expect(info).toEqual({ sub: aliceId, name: ALICE.name, email: ALICE.email });

        const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
        expect(refreshed.access_token).not.toBe(tokens.access_token);
        expect(refreshed.scope).toBe('openid profile email offline_access');
        expect((await client.fetchUserInfo(config, refreshed.access_token, aliceId)).sub).toBe(aliceId);

        await client.tokenRevocation(config, tokens.refresh_token ?? '');
        await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
          error: 'invalid_grant',
        });
        // Revoking the family ends its access tokens at once (SPEC §5.4).
        await expect(client.fetchUserInfo(config, refreshed.access_token, aliceId)).rejects.toThrow();
        const after = await fetch(`${origin}/v1/me`, {
          headers: { 'x-api-key': key.key, authorization: `Bearer ${tokens.access_token}` },
        });
        expect(after.status).toBe(401);
      });
    }
  });
}
