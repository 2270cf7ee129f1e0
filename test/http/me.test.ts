import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import type { Environment } from '../../src/platform/environment.js';
import type { User } from '../../src/users/model.js';
import { loginTokens, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * The end-user API (SPEC §6) with API key + bearer token (SPEC §5, §5.3): /v1/me, favorites,
 * saved searches and the user's own offers, on both backends. Each user's data is private: another
 * user's ids answer as not found. A token is good only with its own key, in its own environment,
 * while its user is active and has not changed password since it was issued.
 */
const PASSWORD = 'correct horse battery staple';
const PROBLEM = 'application/problem+json; charset=utf-8';
const INVALID_TOKEN_CHALLENGE =
  'Bearer error="invalid_token", error_description="The access token is invalid"';
const iso = (ms: number) => new Date(ms).toISOString();

/** A valid body for `POST /v1/me/offers`; the title's odd word is found by nothing else. */
const ownOffer = (title = 'Vintage quokkaphone with case') => ({
  title,
  description: 'Plays records at three speeds, collected from the owner.',
  category: 'electronics',
  tags: ['vintage', 'audio'],
  location: { city: 'Lyon', country: 'FR', lat: 45.764, lon: 4.8357 },
  price: { amount: '120.50', currency: 'EUR' },
});

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

interface EndUser {
  user: User;
  jwt: string;
  call(method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

/** The problem+json of `code`, pinned on status, media type, type URL and code. */
function expectProblem(res: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toBe(PROBLEM);
  const body = res.json();
  expect(body).toMatchObject({
    type: expect.stringMatching(new RegExp(`^http://localhost:808[01]/docs/errors#${code}$`)),
    status,
    code,
  });
  expect(body.requestId).toBe(res.headers['x-request-id']);
  return body;
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`end-user API on ${dialect}`, () => {
    let t: TestContext;
    let users = 0;
    /** Seeded offers of the testing environment, and one of production (never visible in testing). */
    let offerIds: string[];
    let productionOfferId: string;

    /** A new end user of the testing environment, signed in through /auth/connect with the fixture key. */
    async function signIn(name: string, key = t.fixtures.keys.testing.key): Promise<EndUser> {
      users += 1;
      const email = `${name.toLowerCase()}${users}@example.com`;
      const user = await t.deps.users.add({ environment: 'testing', email, password: PASSWORD, name });
      const page = await openLogin(t.apps.testing, {
        apiKey: key,
        destination: 'https://app.example.com/callback?from=me',
        state: 's1',
      });
      expect(page.response.statusCode).toBe(200);
      const posted = await submitLogin(t.apps.testing, page, { email, password: PASSWORD });
      expect(posted.statusCode, posted.body).toBe(303);
      const location = new URL(String(posted.headers.location));
      // The fixture key has no refresh permission: the redirect carries the access token only.
      expect([...location.searchParams.keys()].sort()).toEqual(['from', 'jwt', 'state']);
      expect(location.searchParams.get('state')).toBe('s1');
      const jwt = location.searchParams.get('jwt') as string;
      return {
        user,
        jwt,
        call: (method, url, payload) =>
          t.apps.testing.inject({
            method,
            url,
            headers: { 'x-api-key': key, authorization: `Bearer ${jwt}` },
            ...(payload === undefined ? {} : { payload: payload as object }),
          }),
      };
    }

    const search = (q: string, env: Environment = 'testing', extra = '') =>
      t.apps[env].inject({
        method: 'GET',
        url: `/v1/offers/?q=${encodeURIComponent(q)}${extra}`,
        headers: { 'x-api-key': t.fixtures.keys[env].key },
      });
    const ids = (res: LightMyRequestResponse): string[] => res.json().data.map((o: { id: string }) => o.id);
    const publicOffer = async (id: string) =>
      t.apps.testing.inject({
        method: 'GET',
        url: `/v1/offers/${id}`,
        headers: { 'x-api-key': t.fixtures.keys.testing.key },
      });

    beforeAll(async () => {
      t = await createTestContext(dialect);
      const seeded = [...generateOffers({ count: 4, seed: 11 })];
      await t.deps.offers.upsertMany('testing', seeded);
      offerIds = seeded.map((o) => offerIdFor('testing', o.externalId));
      const [prod] = [...generateOffers({ count: 1, seed: 12, startIndex: 100 })];
      if (!prod) throw new Error('the seed generator made no offer');
      await t.deps.offers.upsertMany('production', [prod]);
      productionOfferId = offerIdFor('production', prod.externalId);
    });
    afterAll(async () => {
      await t?.close();
    });

    describe('GET /v1/me', () => {
      it('returns the signed-in user', async () => {
        const alice = await signIn('Alice');
        const res = await alice.call('GET', '/v1/me');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          id: alice.user.id,
          email: alice.user.email,
          name: 'Alice',
          environment: 'testing',
          createdAt: iso(alice.user.createdAt),
        });
        expect(alice.user.id).toMatch(/^usr_/);
      });

      it('without Authorization: 401 token_missing with a Bearer challenge', async () => {
        const res = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { 'x-api-key': t.fixtures.keys.testing.key },
        });
        expect(res.statusCode).toBe(401);
        expect(res.headers['content-type']).toBe(PROBLEM);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="vitrine"');
        expect(res.json()).toEqual({
          type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#token_missing$/),
          title: 'Access token missing',
          status: 401,
          detail: 'Send the access token as Authorization: Bearer <token>.',
          instance: '/v1/me',
          code: 'token_missing',
          requestId: res.headers['x-request-id'],
        });
      });

      it('with a garbage or tampered token: 401 token_invalid with an invalid_token challenge', async () => {
        const alice = await signIn('Alice');
        const [header, payload, signature] = alice.jwt.split('.') as [string, string, string];
        const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
        const forged = {
          ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
          sub: 'usr_someoneelse',
        };
        const garbage = [
          'Bearer not-a-jwt',
          'Bearer aaa.bbb.ccc',
          `Bearer ${header}.${payload}.${flipped}`,
          `Bearer ${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`,
          `Basic ${alice.jwt}`,
        ];
        for (const authorization of garbage) {
          const res = await t.apps.testing.inject({
            method: 'GET',
            url: '/v1/me',
            headers: { 'x-api-key': t.fixtures.keys.testing.key, authorization },
          });
          expect(res.statusCode, authorization).toBe(401);
          expect(res.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
          expect(res.json()).toEqual({
            type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#token_invalid$/),
            title: 'Access token invalid',
            status: 401,
            detail: 'The access token is not valid for this API key and environment.',
            instance: '/v1/me',
            code: 'token_invalid',
            requestId: res.headers['x-request-id'],
          });
        }
      });

      it('checks the API key before the token: a bearer alone is 401 api_key_missing', async () => {
        const alice = await signIn('Alice');
        const res = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { authorization: `Bearer ${alice.jwt}` },
        });
        expectProblem(res, 401, 'api_key_missing');
      });
    });

    describe('favorites', () => {
      it('PUT adds (204, idempotent), GET lists newest first, DELETE removes (204, idempotent)', async () => {
        const alice = await signIn('Alice');
        const [first, second] = offerIds as [string, string];
        expect((await alice.call('GET', '/v1/me/favorites')).json()).toEqual({ data: [] });

        const put = await alice.call('PUT', `/v1/me/favorites/${first}`);
        expect(put.statusCode).toBe(204);
        expect(put.body).toBe('');
        expect((await alice.call('PUT', `/v1/me/favorites/${first}`)).statusCode).toBe(204);
        t.clock.advance(1000);
        expect((await alice.call('PUT', `/v1/me/favorites/${second}`)).statusCode).toBe(204);
        // Adding an old favorite again does not move it up.
        t.clock.advance(1000);
        expect((await alice.call('PUT', `/v1/me/favorites/${first}`)).statusCode).toBe(204);

        const list = await alice.call('GET', '/v1/me/favorites');
        expect(list.statusCode).toBe(200);
        expect(list.json()).toEqual({
          data: [(await publicOffer(second)).json(), (await publicOffer(first)).json()],
        });

        const del = await alice.call('DELETE', `/v1/me/favorites/${second}`);
        expect(del.statusCode).toBe(204);
        expect(del.body).toBe('');
        expect((await alice.call('DELETE', `/v1/me/favorites/${second}`)).statusCode).toBe(204);
        expect((await alice.call('DELETE', '/v1/me/favorites/off_nevereverfavorite')).statusCode).toBe(204);
        expect(ids(await alice.call('GET', '/v1/me/favorites'))).toEqual([first]);
      });

      it('PUT of an unknown offer, or of an offer of the other environment: 404 offer_not_found', async () => {
        const alice = await signIn('Alice');
        for (const id of ['off_doesnotexist', productionOfferId]) {
          const res = await alice.call('PUT', `/v1/me/favorites/${id}`);
          const body = expectProblem(res, 404, 'offer_not_found');
          expect(body.detail).toBe(`No offer ${id} in the testing environment.`);
        }
        expect((await alice.call('GET', '/v1/me/favorites')).json()).toEqual({ data: [] });
      });
    });

    describe('saved searches', () => {
      it('POST saves (201, Location, body echo), GET lists newest first, DELETE removes (204)', async () => {
        const alice = await signIn('Alice');
        const query = { q: 'bike', category: ['vehicles'], country: 'FR', priceMax: '200', sort: 'price' };
        const created = await alice.call('POST', '/v1/me/saved-searches', { name: '  Cheap bikes  ', query });
        expect(created.statusCode, created.body).toBe(201);
        const saved = created.json();
        expect(saved).toEqual({
          id: expect.stringMatching(/^svs_[0-9A-Za-z]+$/),
          name: 'Cheap bikes',
          query,
          alerts: false,
          createdAt: iso(t.clock.now()),
        });
        expect(created.headers.location).toBe(`/v1/me/saved-searches/${saved.id}`);

        t.clock.advance(1000);
        const later = await alice.call('POST', '/v1/me/saved-searches', {
          name: 'Flats',
          query: { category: ['real-estate'], country: 'FR' },
        });
        expect(later.statusCode, later.body).toBe(201);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({
          data: [later.json(), saved],
        });

        const del = await alice.call('DELETE', `/v1/me/saved-searches/${saved.id}`);
        expect(del.statusCode).toBe(204);
        expect(del.body).toBe('');
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [later.json()] });
        const again = expectProblem(
          await alice.call('DELETE', `/v1/me/saved-searches/${saved.id}`),
          404,
          'saved_search_not_found',
        );
        expect(again.detail).toBe(`You have no saved search ${saved.id}.`);
      });

      it('DELETE of an unknown saved search: 404 saved_search_not_found', async () => {
        const alice = await signIn('Alice');
        const body = expectProblem(
          await alice.call('DELETE', '/v1/me/saved-searches/svs_doesnotexist'),
          404,
          'saved_search_not_found',
        );
        expect(body).toEqual({
          type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#saved_search_not_found$/),
          title: 'Saved search not found',
          status: 404,
          detail: 'You have no saved search svs_doesnotexist.',
          instance: '/v1/me/saved-searches/svs_doesnotexist',
          code: 'saved_search_not_found',
          requestId: body.requestId,
        });
      });

      it('refuses priceMin > priceMax like a live search: 400 naming query.priceMin', async () => {
        const alice = await signIn('Alice');
        const res = await alice.call('POST', '/v1/me/saved-searches', {
          name: 'x',
          query: { priceMin: '10', priceMax: '5' },
        });
        const body = expectProblem(res, 400, 'invalid_parameter');
        expect(body.errors).toEqual([
          { parameter: 'query.priceMin', message: 'must not be greater than priceMax' },
        ]);
        expect(body.detail).toBe('query.priceMin must not be greater than priceMax');
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [] });
      });

      it('refuses a bad value in the query: 400 naming query.priceMin', async () => {
        const alice = await signIn('Alice');
        const res = await alice.call('POST', '/v1/me/saved-searches', {
          name: 'x',
          query: { priceMin: 'abc' },
        });
        const body = expectProblem(res, 400, 'invalid_parameter');
        expect(body.errors).toEqual([{ parameter: 'query.priceMin', message: expect.any(String) }]);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [] });
      });

      it('refuses an unknown parameter in the query: 400 naming query.foo', async () => {
        const alice = await signIn('Alice');
        const res = await alice.call('POST', '/v1/me/saved-searches', { name: 'x', query: { foo: 1 } });
        const body = expectProblem(res, 400, 'invalid_parameter');
        expect(body.errors).toEqual([{ parameter: 'query.foo', message: expect.any(String) }]);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [] });
      });

      it('refuses a blank name: 400 naming name, nothing stored', async () => {
        const alice = await signIn('Alice');
        const res = await alice.call('POST', '/v1/me/saved-searches', { name: '   ', query: { q: 'lamp' } });
        expect(expectProblem(res, 400, 'invalid_parameter').errors).toEqual([
          { parameter: 'name', message: expect.any(String) },
        ]);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [] });
      });

      it('refuses a missing name and the search-only parameters cursor and limit', async () => {
        const alice = await signIn('Alice');
        const missing = expectProblem(
          await alice.call('POST', '/v1/me/saved-searches', { query: {} }),
          400,
          'invalid_parameter',
        );
        expect(missing.errors).toEqual([{ parameter: 'name', message: 'is required' }]);
        for (const query of [{ limit: 5 }, { cursor: 'abc' }]) {
          const res = await alice.call('POST', '/v1/me/saved-searches', { name: 'x', query });
          expect(res.statusCode, JSON.stringify(query)).toBe(400);
          expect(res.json().code).toBe('invalid_parameter');
        }
      });
    });

    describe('own offers', () => {
      it('POST publishes (201) into the search of this environment only', async () => {
        const alice = await signIn('Alice');
        const created = await alice.call('POST', '/v1/me/offers', ownOffer());
        expect(created.statusCode, created.body).toBe(201);
        const offer = created.json();
        const now = iso(t.clock.now());
        expect(offer).toEqual({
          id: expect.stringMatching(/^off_/),
          ...ownOffer(),
          location: { ...ownOffer().location, region: null },
          publisher: { id: alice.user.id, name: 'Alice' },
          url: null,
          attributes: {},
          status: 'active',
          publishedAt: now,
          updatedAt: now,
          expiresAt: null,
        });
        expect(created.headers.location).toBe(`/v1/offers/${offer.id}`);
        expect((await publicOffer(offer.id)).json()).toEqual(offer);
        expect((await alice.call('GET', '/v1/me/offers')).json()).toEqual({ data: [offer] });

        const found = await search('quokkaphone');
        expect(found.statusCode).toBe(200);
        expect(found.json()).toMatchObject({ data: [offer], total: { value: 1, relation: 'eq' } });

        const elsewhere = await search('quokkaphone', 'production');
        expect(elsewhere.statusCode).toBe(200);
        expect(elsewhere.json()).toMatchObject({ data: [], total: { value: 0, relation: 'eq' } });
        const byId = await t.apps.production.inject({
          method: 'GET',
          url: `/v1/offers/${offer.id}`,
          headers: { 'x-api-key': t.fixtures.keys.production.key },
        });
        expectProblem(byId, 404, 'offer_not_found');
        // Withdraw it so the other tests' searches start from a clean slate.
        expect((await alice.call('DELETE', `/v1/me/offers/${offer.id}`)).statusCode).toBe(204);
      });

      it('PATCH changes the title: search finds the new title, not the old one', async () => {
        const alice = await signIn('Alice');
        const created = (await alice.call('POST', '/v1/me/offers', ownOffer('Antique zithermobile'))).json();
        expect(ids(await search('zithermobile'))).toEqual([created.id]);
        t.clock.advance(5000);

        const patched = await alice.call('PATCH', `/v1/me/offers/${created.id}`, {
          title: 'Restored gramophonium',
        });
        expect(patched.statusCode, patched.body).toBe(200);
        expect(patched.json()).toEqual({
          ...created,
          title: 'Restored gramophonium',
          updatedAt: iso(t.clock.now()),
        });
        expect(ids(await search('gramophonium'))).toEqual([created.id]);
        expect(ids(await search('zithermobile'))).toEqual([]);
        await alice.call('DELETE', `/v1/me/offers/${created.id}`);
      });

      it('DELETE withdraws: status withdrawn by id, gone from the default search (idempotent)', async () => {
        const alice = await signIn('Alice');
        const created = (await alice.call('POST', '/v1/me/offers', ownOffer('Pristine xylobanjo'))).json();
        expect(ids(await search('xylobanjo'))).toEqual([created.id]);

        const del = await alice.call('DELETE', `/v1/me/offers/${created.id}`);
        expect(del.statusCode).toBe(204);
        expect(del.body).toBe('');
        const byId = await publicOffer(created.id);
        expect(byId.statusCode).toBe(200);
        expect(byId.json()).toMatchObject({
          id: created.id,
          title: 'Pristine xylobanjo',
          status: 'withdrawn',
        });
        expect((await search('xylobanjo')).json()).toMatchObject({ data: [], total: { value: 0 } });
        expect(ids(await search('xylobanjo', 'testing', '&status=withdrawn'))).toEqual([created.id]);
        expect((await alice.call('DELETE', `/v1/me/offers/${created.id}`)).statusCode).toBe(204);

        // Still the user's, listed with its status; editing it does not bring it back.
        expect((await alice.call('GET', '/v1/me/offers')).json().data).toMatchObject([
          { id: created.id, status: 'withdrawn' },
        ]);
        const patched = await alice.call('PATCH', `/v1/me/offers/${created.id}`, {
          title: 'Pristine xylobanjo II',
        });
        expect(patched.statusCode).toBe(200);
        expect(patched.json().status).toBe('withdrawn');
        expect(ids(await search('xylobanjo'))).toEqual([]);
      });

      it('refuses a missing title, an unknown field and a past expiry: 400 invalid_parameter', async () => {
        const alice = await signIn('Alice');
        const { title: _title, ...untitled } = ownOffer();
        const cases: [unknown, { parameter: string; message: string }[]][] = [
          [untitled, [{ parameter: 'title', message: 'is required' }]],
          [{ ...ownOffer(), extra: 1 }, [{ parameter: 'extra', message: 'is not a known field' }]],
          [
            { ...ownOffer(), expiresAt: iso(t.clock.now() - 1000) },
            [{ parameter: 'expiresAt', message: 'must be in the future' }],
          ],
        ];
        for (const [payload, errors] of cases) {
          const body = expectProblem(
            await alice.call('POST', '/v1/me/offers', payload),
            400,
            'invalid_parameter',
          );
          expect(body.errors).toEqual(errors);
        }
        expect((await alice.call('GET', '/v1/me/offers')).json()).toEqual({ data: [] });
      });

      it('refuses a blank title on POST and PATCH: 400 naming title, nothing stored', async () => {
        const alice = await signIn('Alice');
        const blank = await alice.call('POST', '/v1/me/offers', { ...ownOffer(), title: '   ' });
        const body = expectProblem(blank, 400, 'invalid_parameter');
        expect(body.errors).toEqual([{ parameter: 'title', message: expect.any(String) }]);
        expect((await alice.call('GET', '/v1/me/offers')).json()).toEqual({ data: [] });

        const created = (await alice.call('POST', '/v1/me/offers', ownOffer('Sturdy lutecase'))).json();
        const patched = await alice.call('PATCH', `/v1/me/offers/${created.id}`, { title: '   ' });
        expect(expectProblem(patched, 400, 'invalid_parameter').errors).toEqual([
          { parameter: 'title', message: expect.any(String) },
        ]);
        expect((await publicOffer(created.id)).json().title).toBe('Sturdy lutecase');
        await alice.call('DELETE', `/v1/me/offers/${created.id}`);
      });

      it('validates JSON bodies as sent: no coercion of null, numbers or strings', async () => {
        const alice = await signIn('Alice');
        const offer = ownOffer();
        for (const [field, body, parameter] of [
          ['title', { ...offer, title: 123 }, 'title'],
          ['title', { ...offer, title: null }, 'title'],
          ['lat', { ...offer, location: { ...offer.location, lat: '48.8' } }, 'location.lat'],
          ['tags', { ...offer, tags: 'bikes' }, 'tags'],
        ] as const) {
          const res = await alice.call('POST', '/v1/me/offers', body);
          const problem = expectProblem(res, 400, 'invalid_parameter');
          const errors = problem.errors as { parameter: string }[];
          expect(
            errors.map((e) => e.parameter),
            field,
          ).toEqual([parameter]);
        }
        expect((await alice.call('GET', '/v1/me/offers')).json()).toEqual({ data: [] });
      });

      it('refuses a bad country: 400 naming location.country', async () => {
        const alice = await signIn('Alice');
        const offer = ownOffer();
        const res = await alice.call('POST', '/v1/me/offers', {
          ...offer,
          location: { ...offer.location, country: 'France' },
        });
        const body = expectProblem(res, 400, 'invalid_parameter');
        expect(body.errors).toEqual([{ parameter: 'location.country', message: expect.any(String) }]);
        expect((await alice.call('GET', '/v1/me/offers')).json()).toEqual({ data: [] });
      });

      it('refuses broken JSON: 400 malformed_body', async () => {
        const alice = await signIn('Alice');
        const res = await t.apps.testing.inject({
          method: 'POST',
          url: '/v1/me/offers',
          headers: {
            'x-api-key': t.fixtures.keys.testing.key,
            authorization: `Bearer ${alice.jwt}`,
            'content-type': 'application/json',
          },
          payload: '{"title": "half',
        });
        const body = expectProblem(res, 400, 'malformed_body');
        expect(body.detail).toBe('The body is not valid JSON.');
      });
    });

    describe('isolation between users, keys and environments', () => {
      let alice: EndUser;
      let bob: EndUser;
      let aliceOffer: { id: string; title: string };
      let aliceSearch: { id: string };

      beforeAll(async () => {
        alice = await signIn('Alice');
        bob = await signIn('Bob');
        expect((await alice.call('PUT', `/v1/me/favorites/${offerIds[0]}`)).statusCode).toBe(204);
        aliceSearch = (
          await alice.call('POST', '/v1/me/saved-searches', { name: 'Mine', query: { q: 'lamp' } })
        ).json();
        aliceOffer = (await alice.call('POST', '/v1/me/offers', ownOffer('Private harmonicello'))).json();
      });

      it("another user sees none of the user's favorites, saved searches or offers", async () => {
        expect((await bob.call('GET', '/v1/me/favorites')).json()).toEqual({ data: [] });
        expect((await bob.call('GET', '/v1/me/saved-searches')).json()).toEqual({ data: [] });
        expect((await bob.call('GET', '/v1/me/offers')).json()).toEqual({ data: [] });
        expect(ids(await alice.call('GET', '/v1/me/favorites'))).toEqual([offerIds[0]]);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json().data).toEqual([aliceSearch]);
        expect(ids(await alice.call('GET', '/v1/me/offers'))).toEqual([aliceOffer.id]);
      });

      it("another user's PATCH and DELETE of the offer: 404 offer_not_found, nothing changes", async () => {
        const patch = await bob.call('PATCH', `/v1/me/offers/${aliceOffer.id}`, { title: 'Stolen' });
        expect(expectProblem(patch, 404, 'offer_not_found').detail).toBe(
          `No offer ${aliceOffer.id} in the testing environment.`,
        );
        expectProblem(await bob.call('DELETE', `/v1/me/offers/${aliceOffer.id}`), 404, 'offer_not_found');
        expect((await publicOffer(aliceOffer.id)).json()).toMatchObject({
          title: 'Private harmonicello',
          status: 'active',
          publisher: { id: alice.user.id },
        });
      });

      it("another user's DELETE of the saved search or favorite leaves the user's alone", async () => {
        expectProblem(
          await bob.call('DELETE', `/v1/me/saved-searches/${aliceSearch.id}`),
          404,
          'saved_search_not_found',
        );
        expect((await bob.call('DELETE', `/v1/me/favorites/${offerIds[0]}`)).statusCode).toBe(204);
        expect((await alice.call('GET', '/v1/me/saved-searches')).json().data).toEqual([aliceSearch]);
        expect(ids(await alice.call('GET', '/v1/me/favorites'))).toEqual([offerIds[0]]);
      });

      it('a token is refused with another key of the same project: 401 token_invalid', async () => {
        const other = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
        const search = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/offers/',
          headers: { 'x-api-key': other.key },
        });
        expect(search.statusCode).toBe(200);
        const res = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { 'x-api-key': other.key, authorization: `Bearer ${alice.jwt}` },
        });
        expectProblem(res, 401, 'token_invalid');
        expect(res.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
      });

      it('a testing token is refused on production: token_invalid with the production key', async () => {
        const withProductionKey = await t.apps.production.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { 'x-api-key': t.fixtures.keys.production.key, authorization: `Bearer ${alice.jwt}` },
        });
        expectProblem(withProductionKey, 401, 'token_invalid');
        const withTestingKey = await t.apps.production.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { 'x-api-key': t.fixtures.keys.testing.key, authorization: `Bearer ${alice.jwt}` },
        });
        expectProblem(withTestingKey, 403, 'api_key_wrong_environment');
      });
    });

    describe('sessions end at once', () => {
      it('when the user is disabled: 401 token_invalid', async () => {
        const carol = await signIn('Carol');
        expect((await carol.call('GET', '/v1/me')).statusCode).toBe(200);
        await t.deps.users.disable(carol.user.id);
        const res = await carol.call('GET', '/v1/me');
        expectProblem(res, 401, 'token_invalid');
        expect(res.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE);
        expectProblem(await carol.call('GET', '/v1/me/favorites'), 401, 'token_invalid');
      });

      it('when the password changes: 401 token_invalid; a new login works', async () => {
        const dave = await signIn('Dave');
        expect((await dave.call('GET', '/v1/me')).statusCode).toBe(200);
        t.clock.advance(2000);
        await t.deps.users.setPassword(dave.user.id, 'a brand new passphrase');
        expectProblem(await dave.call('GET', '/v1/me'), 401, 'token_invalid');

        const again = await loginTokens(t.apps.testing, t.fixtures.keys.testing.key, {
          email: dave.user.email,
          password: 'a brand new passphrase',
        });
        const res = await t.apps.testing.inject({
          method: 'GET',
          url: '/v1/me',
          headers: { 'x-api-key': t.fixtures.keys.testing.key, authorization: `Bearer ${again.jwt}` },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().id).toBe(dave.user.id);
      });
    });
  });

  describe.skipIf(!available)(`end-user API body limit on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, { BODY_LIMIT_BYTES: '2048' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('refuses a body over BODY_LIMIT_BYTES: 413 payload_too_large, nothing stored', async () => {
      const key = t.fixtures.keys.testing.key;
      await t.deps.users.add({ environment: 'testing', email: 'erin@example.com', password: PASSWORD });
      const { jwt } = await loginTokens(t.apps.testing, key, {
        email: 'erin@example.com',
        password: PASSWORD,
      });
      const headers = { 'x-api-key': key, authorization: `Bearer ${jwt}` };
      const small = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/me/offers',
        headers,
        payload: ownOffer(),
      });
      expect(small.statusCode, small.body).toBe(201);

      const payload = { ...ownOffer('Oversized listing'), description: 'x'.repeat(2100) };
      expect(JSON.stringify(payload).length).toBeGreaterThan(2048);
      const res = await t.apps.testing.inject({ method: 'POST', url: '/v1/me/offers', headers, payload });
      expect(res.statusCode).toBe(413);
      expect(res.headers['content-type']).toBe(PROBLEM);
      expect(res.json()).toEqual({
        type: expect.stringMatching(/^http:\/\/localhost:808[01]\/docs\/errors#payload_too_large$/),
        title: 'Request body too large',
        status: 413,
        detail: 'The request body is larger than allowed.',
        instance: '/v1/me/offers',
        code: 'payload_too_large',
        requestId: res.headers['x-request-id'],
      });
      const mine = await t.apps.testing.inject({ method: 'GET', url: '/v1/me/offers', headers });
      expect(mine.json().data.map((o: { title: string }) => o.title)).toEqual([ownOffer().title]);
    });
  });
}
