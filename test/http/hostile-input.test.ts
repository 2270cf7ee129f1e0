import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Issue 13, defect 1: crafted query values answered 500 (NUL on PostgreSQL, non-finite
 * numbers on both) or passed validation (`radius=-Infinity`); a tampered cursor reached SQL.
 * Every one is now `400 invalid_parameter` naming the parameter, on both backends.
 */
const tamper = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');
const SIGNATURE_CHARS = 22;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`hostile query values on ${dialect}`, () => {
    let t: TestContext;
    let headers: Record<string, string>;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      headers = { 'x-api-key': t.fixtures.keys.testing.key };
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 30, seed: 3 })]);
    });
    afterAll(async () => {
      await t.close();
    });

    const expectInvalid = async (url: string, parameter: string) => {
      const res = await t.apps.testing.inject({ url, headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().code).toBe('invalid_parameter');
      expect(res.json().errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    };

    it.each([
      ['limit=Infinity', 'limit'],
      ['limit=-Infinity', 'limit'],
      ['limit=1e309', 'limit'],
      ['near=48.85,2.35&radius=-Infinity', 'radius'],
      ['near=48.85,2.35&radius=1e309', 'radius'],
      ['city=%00', 'city'],
      ['city=Paris%00', 'city'],
      ['q=lamp%00', 'q'],
      ['q=a%01b', 'q'],
      ['category=books&category=a%00', 'category'],
      ['publishedAfter=2026-12-31T23:59:60Z', 'publishedAfter'],
      ['publishedBefore=2026-02-30T00:00:00Z', 'publishedBefore'],
      ['updatedSince=0000-01-01T00:00:00Z', 'updatedSince'],
    ])('refuses %s', async (query, parameter) => {
      await expectInvalid(`/v1/offers/?${query}`, parameter);
    });

    it('refuses a NUL or control character in an offer id', async () => {
      await expectInvalid('/v1/offers/%00', 'id');
      await expectInvalid('/v1/offers/off_%01x', 'id');
    });

    it('refuses a cursor whose contents were changed, and still pages with a genuine one', async () => {
      const first = await t.apps.testing.inject({ url: '/v1/offers/?limit=2', headers });
      const cursor: string = first.json().nextCursor;
      expect(cursor).toEqual(expect.any(String));
      const genuine = await t.apps.testing.inject({ url: `/v1/offers/?limit=2&cursor=${cursor}`, headers });
      expect(genuine.statusCode).toBe(200);
      const signature = cursor.slice(0, SIGNATURE_CHARS);
      const payload = JSON.parse(Buffer.from(cursor.slice(SIGNATURE_CHARS), 'base64url').toString('utf8'));
      for (const k of [['x', 'y'], [1e300, 'off_x'], [-1e20, 'off_x'], [payload.k[0], 5], [payload.k[0]]]) {
        // With the original signature, and bare as cursors were before they were signed.
        await expectInvalid(`/v1/offers/?limit=2&cursor=${signature}${tamper({ ...payload, k })}`, 'cursor');
        await expectInvalid(`/v1/offers/?limit=2&cursor=${tamper({ ...payload, k })}`, 'cursor');
      }
    });

    it('refuses a forged distance cursor instead of walking hundreds of queries', async () => {
      const url = '/v1/offers/?limit=2&near=48.85,2.35&sort=distance';
      const first = await t.apps.testing.inject({ url, headers });
      const cursor: string = first.json().nextCursor;
      const payload = JSON.parse(Buffer.from(cursor.slice(SIGNATURE_CHARS), 'base64url').toString('utf8'));
      await expectInvalid(`${url}&cursor=${tamper({ ...payload, k: [1e308, payload.k[1]] })}`, 'cursor');
    });

    it('POST /v1/me/offers: 400 naming the field for what the database would refuse, nothing stored', async () => {
      const email = 'hostile@example.com';
      await t.deps.users.add({ environment: 'testing', email, password: 'correct horse battery', name: 'H' });
      const { jwt } = await loginTokens(t.apps.testing, t.fixtures.keys.testing.key, {
        email,
        password: 'correct horse battery',
      });
      const offer = {
        title: 'Brass lamp',
        description: 'Warm light.\nTwo bulbs.',
        category: 'furniture',
        location: { city: 'Lyon', country: 'FR', lat: 45.76, lon: 4.83 },
        price: { amount: '10.00', currency: 'EUR' },
      };
      const post = (body: string) =>
        t.apps.testing.inject({
          method: 'POST',
          url: '/v1/me/offers',
          headers: { ...headers, authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
          payload: body,
        });
      const before = await t.deps.offers.count('testing');
      for (const [body, field] of [
        [JSON.stringify({ ...offer, title: 'Lamp\u0000' }), 'title'],
        [JSON.stringify({ ...offer, description: 'a\u0000b' }), 'description'],
        [JSON.stringify({ ...offer, location: { ...offer.location, city: '\u0000' } }), 'location.city'],
        [JSON.stringify({ ...offer, expiresAt: '2026-12-31T23:59:60Z' }), 'expiresAt'],
        [JSON.stringify({ ...offer, attributes: { size: 'M\u0001' } }), 'attributes.size'],
        [JSON.stringify(offer).replace('"lat":45.76', '"lat":1e309'), 'location.lat'],
        [JSON.stringify(offer).replace('}}', '},"attributes":{"w":1e309}}'), 'attributes.w'],
      ] as const) {
        const res = await post(body);
        expect(res.statusCode, body).toBe(400);
        expect(res.json().code).toBe('invalid_parameter');
        expect(res.json().errors.map((e: { parameter: string }) => e.parameter)).toContain(field);
      }
      expect(await t.deps.offers.count('testing')).toBe(before);
      // Line breaks in a description are text, not control characters.
      expect((await post(JSON.stringify(offer))).statusCode).toBe(201);
    });

    it('refuses a cursor signed by another instance with another master secret', async () => {
      const other = await createTestContext('sqlite', {}, { environments: ['testing'] });
      try {
        const otherHeaders = { 'x-api-key': other.fixtures.keys.testing.key };
        await other.deps.offers.upsertMany('testing', [...generateOffers({ count: 5, seed: 3 })]);
        const page = await other.apps.testing.inject({ url: '/v1/offers/?limit=2', headers: otherHeaders });
        await expectInvalid(`/v1/offers/?limit=2&cursor=${page.json().nextCursor}`, 'cursor');
      } finally {
        await other.close();
      }
    });
  });
}
