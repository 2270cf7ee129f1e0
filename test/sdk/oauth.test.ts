import { createHash } from 'node:crypto';
import { authorizationUrl, createPkce, exchangeCode, Vitrine, VitrineError } from '@vitrine/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The SDK's OAuth helpers (issue 17's SDK item) against a real listening Vitrine on both
 * backends: PKCE, the authorization URL, the login form, the code exchange, then the tokens used.
 */
const USER = { email: 'pkce-sdk@example.com', password: 'pkce sdk password 1' };
const REDIRECT = 'https://app.example.com/callback';

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`@vitrine/client OAuth helpers on ${dialect}`, () => {
    let t: TestContext;
    let origin: string;
    let client: { id: string; key: string };
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantRefresh(issued.record.id);
      client = { id: issued.record.id, key: issued.key };
      await t.deps.users.add({ environment: 'testing', ...USER });
      origin = await t.apps.testing.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await t?.close();
    });

    /** What a browser does: open the URL, sign in on the page, follow to the redirect. */
    async function signIn(url: string): Promise<URL> {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const login = await fetch(`${origin}/auth/connect`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ticket, ...USER }),
      });
      expect(login.status).toBe(303);
      return new URL(login.headers.get('location') ?? '');
    }

    it('creates a PKCE pair whose challenge is the S256 of its verifier', async () => {
      const pkce = await createPkce();
      expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(pkce.challenge).toBe(createHash('sha256').update(pkce.verifier).digest('base64url'));
      expect((await createPkce()).verifier).not.toBe(pkce.verifier);
    });

    it('signs a user in with code + PKCE, exchanges the code, and calls the API with the tokens', async () => {
      const pkce = await createPkce();
      const authUrl = `${origin}/auth`;
      const url = authorizationUrl({
        authUrl,
        clientId: client.id,
        redirectUri: REDIRECT,
        codeChallenge: pkce.challenge,
        state: 'state-1',
        nonce: 'nonce-1',
      });
      const back = await signIn(url);
      expect(back.searchParams.get('state')).toBe('state-1');
      expect(back.searchParams.get('iss')).toBe('http://localhost:8081/auth');
      const code = back.searchParams.get('code') ?? '';
      const tokens = await exchangeCode({
        authUrl,
        clientId: client.id,
        clientSecret: client.key,
        code,
        redirectUri: REDIRECT,
        codeVerifier: pkce.verifier,
      });
      expect(tokens.token_type).toBe('Bearer');
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(tokens.id_token).toEqual(expect.any(String));
      const user = new Vitrine({ baseUrl: `${origin}/v1`, apiKey: client.key }).asUser({
        authUrl,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token ?? null,
      });
      expect((await user.me.get()).email).toBe(USER.email);
      // A code is single-use: the second exchange is refused with the OAuth error code.
      const again = await exchangeCode({
        authUrl,
        clientId: client.id,
        clientSecret: client.key,
        code,
        redirectUri: REDIRECT,
        codeVerifier: pkce.verifier,
      }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(VitrineError);
      expect(again).toMatchObject({ status: 400, code: 'invalid_grant' });
    });

    it('reports a wrong verifier as invalid_grant and a wrong secret as invalid_client', async () => {
      const authUrl = `${origin}/auth`;
      const pkce = await createPkce();
      const base = {
        authUrl,
        clientId: client.id,
        redirectUri: REDIRECT,
        codeChallenge: pkce.challenge,
        state: 's',
      };
      const code = (await signIn(authorizationUrl(base))).searchParams.get('code') ?? '';
      const exchange = { authUrl, clientId: client.id, code, redirectUri: REDIRECT };
      await expect(
        exchangeCode({ ...exchange, clientSecret: client.key, codeVerifier: (await createPkce()).verifier }),
      ).rejects.toMatchObject({ code: 'invalid_grant' });
      const code2 = (await signIn(authorizationUrl(base))).searchParams.get('code') ?? '';
      await expect(
        exchangeCode({
          ...exchange,
          code: code2,
          clientSecret: t.fixtures.keys.testing.key,
          codeVerifier: pkce.verifier,
        }),
      ).rejects.toMatchObject({ status: 401, code: 'invalid_client' });
    });
  });
}
