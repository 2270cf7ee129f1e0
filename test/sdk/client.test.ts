import { type AsUserOptions, Vitrine, VitrineError } from '@vitrine/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The client SDK (SPEC §11) against a real Vitrine listening on a port, on both backends: the
 * same fetch a user's program makes. Token expiry moves the server's injected clock.
 */
const PASSWORD = 'correct horse battery staple';
const OFFERS = 230;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`@vitrine/client on ${dialect}`, () => {
    let t: TestContext;
    let baseUrl: string;
    let authUrl: string;
    let vitrine: Vitrine;
    /** The active offers among the seeded ones (the default `status`). */
    let active = 0;
    /** Calls made through the client, by path, to count refreshes and retries. */
    const calls: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      calls.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };

    beforeAll(async () => {
      t = await createTestContext(dialect, { REFRESH_TOKEN_ROTATION: 'on' }, { environments: ['testing'] });
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: OFFERS })]);
      const origin = await t.apps.testing.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `${origin}/v1`;
      authUrl = `${origin}/auth`;
      vitrine = new Vitrine({ baseUrl, apiKey: t.fixtures.keys.testing.key, fetch: countingFetch });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('searches one page, typed as the served document declares it', async () => {
      const page = await vitrine.offers.search({ limit: 5, facets: 'category', sort: 'price' });
      expect(page.data).toHaveLength(5);
      // Some seeded offers are expired or withdrawn: the active ones are the default result.
      expect(page.total.relation).toBe('eq');
      expect(page.total.value).toBeGreaterThan(OFFERS / 2);
      expect(page.total.value).toBeLessThan(OFFERS);
      active = page.total.value;
      const prices = page.data.map((o) => Number(o.price.amount));
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      expect(page.nextCursor).toEqual(expect.any(String));
    });

    it('searchAll follows every cursor: each offer once, in the order of the pages', async () => {
      const seen: string[] = [];
      const before = calls.length;
      for await (const offer of vitrine.offers.searchAll({ sort: 'publishedAt', limit: 40 }))
        seen.push(offer.id);
      expect(seen).toHaveLength(active);
      expect(new Set(seen).size).toBe(active);
      expect(calls.length - before).toBe(Math.ceil(active / 40));
      // The same order as paging by hand.
      const first = await vitrine.offers.search({ sort: 'publishedAt', limit: 40 });
      expect(seen.slice(0, 40)).toEqual(first.data.map((o) => o.id));
    });

    it('searchAll stops when the loop breaks, without reading further pages', async () => {
      const before = calls.length;
      let n = 0;
      for await (const _offer of vitrine.offers.searchAll({ limit: 10 })) if (++n === 15) break;
      expect(calls.length - before).toBe(2);
    });

    it('gets one offer, and throws VitrineError with the problem for an unknown one', async () => {
      const [hit] = (await vitrine.offers.search({ limit: 1 })).data;
      const offer = await vitrine.offers.get(hit?.id ?? '');
      expect(offer.id).toBe(hit?.id);
      const error = await vitrine.offers.get('off_doesnotexist').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VitrineError);
      expect(error).toMatchObject({ status: 404, code: 'offer_not_found', requestId: expect.any(String) });
      expect((error as VitrineError).problem?.type).toMatch(/^http:\/\/[^/]+\/docs\/errors#offer_not_found$/);
    });

    it('reports invalid parameters with the names the API gives', async () => {
      const error = (await vitrine.offers.search({ limit: 500 }).catch((e: unknown) => e)) as VitrineError;
      expect(error.code).toBe('invalid_parameter');
      expect(error.status).toBe(400);
      expect(error.problem?.errors?.map((e) => e.parameter)).toEqual(['limit']);
    });

    it('runs several searches in one request, in order, and names a bad one', async () => {
      const { results } = await vitrine.multiSearch([
        { limit: 2 },
        { limit: 1, sort: 'price', facets: 'category' },
      ]);
      expect(results).toHaveLength(2);
      expect(results[0]?.data).toHaveLength(2);
      expect(results[1]?.data).toHaveLength(1);
      expect(results[1]?.facets.category?.length).toBeGreaterThan(0);
      const error = (await vitrine
        .multiSearch([{ limit: 1 }, { limit: 500 }])
        .catch((e: unknown) => e)) as VitrineError;
      expect(error.code).toBe('invalid_parameter');
      expect(error.problem?.errors?.map((e) => e.parameter)).toEqual(['queries[1].limit']);
    });

    it('answers the calling key', async () => {
      const key = await vitrine.key();
      expect(key.id).toBe(t.fixtures.keys.testing.id);
      expect(key.environment).toBe('testing');
    });

    it('an aborted call rejects with code aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(vitrine.offers.search({}, { signal: controller.signal })).rejects.toMatchObject({
        code: 'aborted',
        status: 0,
      });
    });

    it('retries a GET after a network error, then reports network_error', async () => {
      let attempts = 0;
      const closed = new Vitrine({
        baseUrl: 'http://127.0.0.1:9/v1', // the discard port: nothing listens there
        apiKey: t.fixtures.keys.testing.key,
        maxRetries: 2,
        fetch: (input, init) => {
          attempts += 1;
          return fetch(input, init);
        },
      });
      await expect(closed.offers.search()).rejects.toMatchObject({ code: 'network_error', status: 0 });
      expect(attempts).toBe(3);
    });

    describe('as an end user', () => {
      let tokens: { jwt: string; refresh: string };
      let userNumber = 0;

      async function signIn(): Promise<{ jwt: string; refresh: string }> {
        userNumber += 1;
        const email = `sdk${userNumber}@example.com`;
        await t.deps.users.add({ environment: 'testing', email, password: PASSWORD });
        const got = await loginTokens(t.apps.testing, t.fixtures.keys.testing.key, {
          email,
          password: PASSWORD,
        });
        return { jwt: got.jwt, refresh: got.refresh ?? '' };
      }

      beforeAll(async () => {
        await t.deps.keys.grantRefresh(t.fixtures.keys.testing.id);
        tokens = await signIn();
        expect(tokens.refresh).not.toBe('');
      });

      const user = (options: Partial<AsUserOptions> = {}) =>
        vitrine.asUser({ authUrl, accessToken: tokens.jwt, refreshToken: tokens.refresh, ...options });

      it('calls the end-user API with the token', async () => {
        const me = await user().me.get();
        expect(me.email).toBe(`sdk${userNumber}@example.com`);
        const [offer] = (await vitrine.offers.search({ limit: 1 })).data;
        await user().favorites.add(offer?.id ?? '');
        expect((await user().favorites.list()).data.map((o) => o.id)).toEqual([offer?.id]);
      });

      it('five concurrent calls with an expired token make exactly one refresh, then all succeed', async () => {
        tokens = await signIn();
        const received: string[] = [];
        const client = user({ onTokens: (next) => void received.push(next.accessToken) });
        t.clock.advance(11 * 3600 * 1000); // past ACCESS_TOKEN_TTL (10 h)
        const before = calls.length;
        const answers = await Promise.all(Array.from({ length: 5 }, () => client.me.get()));
        expect(answers.every((me) => me.email === `sdk${userNumber}@example.com`)).toBe(true);
        const made = calls.slice(before);
        expect(made.filter((path) => path === '/auth/refresh')).toHaveLength(1);
        // Five first tries (expired), one refresh, five retries.
        expect(made).toHaveLength(11);
        expect(received).toHaveLength(1);
        expect(client.tokens.accessToken).toBe(received[0]);
        // Rotation is on: the client now holds the new refresh token, not the spent one.
        expect(client.tokens.refreshToken).not.toBe(tokens.refresh);
      });

      it('me.sessions lists the logins of the user, current marked, and ends the other one', async () => {
        tokens = await signIn();
        const email = `sdk${userNumber}@example.com`;
        t.clock.advance(1000);
        const second = await loginTokens(t.apps.testing, t.fixtures.keys.testing.key, {
          email,
          password: PASSWORD,
        });
        const client = user();
        const { data } = await client.me.sessions.list();
        expect(data.map((s) => s.current)).toEqual([false, true]);
        const [other] = data;
        expect(other?.client).toEqual({ keyId: t.fixtures.keys.testing.id, projectName: 'Test project' });
        await client.me.sessions.end(other?.id ?? '');
        const ended = await user({ accessToken: second.jwt, refreshToken: second.refresh })
          .me.get()
          .catch((e: unknown) => e);
        expect(ended).toMatchObject({ status: 401, code: 'token_invalid' });
        const again = await client.me.sessions.end(other?.id ?? '').catch((e: unknown) => e);
        expect(again).toBeInstanceOf(VitrineError);
        expect(again).toMatchObject({ status: 404, code: 'session_not_found' });
        expect((await client.me.sessions.list()).data.map((s) => s.current)).toEqual([true]);
      });

      it('without a refresh token, an expired token is thrown as token_expired', async () => {
        tokens = await signIn();
        t.clock.advance(11 * 3600 * 1000);
        const error = await user({ refreshToken: null })
          .me.get()
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 401, code: 'token_expired' });
      });

      it('when the refresh fails, every waiting call gets the refresh error', async () => {
        tokens = await signIn();
        const client = user();
        await fetch(`${authUrl}/revoke`, {
          method: 'POST',
          headers: { 'x-api-key': t.fixtures.keys.testing.key },
          body: new URLSearchParams({ token: tokens.refresh }),
        });
        t.clock.advance(11 * 3600 * 1000);
        const results = await Promise.allSettled([client.me.get(), client.favorites.list()]);
        for (const result of results) {
          expect(result.status).toBe('rejected');
          expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'refresh_token_revoked' });
        }
      });
    });
  });
}

describe('@vitrine/client rate limits', () => {
  const [sqlite] = backends();
  let t: TestContext;
  afterAll(async () => {
    await t?.close();
  });

  it.skipIf(!sqlite?.available)(
    'waits Retry-After on 429 and retries, at most maxRetries times',
    async () => {
      t = await createTestContext(
        'sqlite',
        { RATE_LIMITING: 'true', RATE_LIMIT_TESTING: '1' },
        { environments: ['testing'] },
      );
      const origin = await t.apps.testing.listen({ port: 0, host: '127.0.0.1' });
      let attempts = 0;
      const statuses: number[] = [];
      // The server's clock stands still; moving it when a 429 arrives lets the retry through,
      // while the client still waits the Retry-After it was given (1 s).
      const client = new Vitrine({
        baseUrl: `${origin}/v1`,
        apiKey: t.fixtures.keys.testing.key,
        fetch: async (input, init) => {
          attempts += 1;
          const response = await fetch(input, init);
          statuses.push(response.status);
          if (response.status === 429) t.clock.advance(Number(response.headers.get('retry-after')) * 1000);
          return response;
        },
      });
      await client.key(); // spends the plan's one request
      const started = Date.now();
      await client.key();
      expect(statuses).toEqual([200, 429, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);

      // A Retry-After above the bound is not waited for: the 429 is thrown at once.
      const impatient = new Vitrine({
        baseUrl: `${origin}/v1`,
        apiKey: t.fixtures.keys.testing.key,
        maxRetryDelayMs: 100,
        fetch: (input, init) => {
          attempts += 1;
          return fetch(input, init);
        },
      });
      attempts = 0;
      await expect(impatient.key()).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      expect(attempts).toBe(1);
    },
  );
});
