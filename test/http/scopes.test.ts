import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../src/keys/store.js';
import { createKeyVerifier } from '../../src/keys/verifier.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { type OpenApiDocument, operations } from '../support/openapi.js';

/**
 * Issue 16, SPEC §3: publishable keys (search only, exact origins, fixed filters), the
 * `offers:write` scope, and CORS. The refused routes come from the served OpenAPI document
 * (every operation declaring API-key security), not from a hand-kept list, so a route added
 * later is covered without editing this file.
 */
const SHOP = 'https://shop.example';
const OTHER = 'https://evil.example';
/** The routes a publishable key may call (SPEC §3). */
const SEARCH_ROUTES = new Set([
  'GET /v1/offers/',
  'GET /v1/offers/{id}',
  'GET /v1/offers/facet-values',
  'POST /v1/multi-search',
  'GET /v1/attributes',
]);

interface Operation {
  method: string;
  path: string;
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`key scopes, origins and CORS on ${dialect}`, () => {
    let t: TestContext;
    let pub: { id: string; key: string };
    let filtered: { id: string; key: string };
    let keyProtected: Operation[];
    beforeAll(async () => {
      t = await createTestContext(dialect);
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: [SHOP, 'http://localhost:5173'],
      });
      pub = { id: issued.record.id, key: issued.key };
      const books = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://books.example'],
        fixedFilters: { category: ['books', 'music'], country: 'FR' },
      });
      filtered = { id: books.record.id, key: books.key };
      const offers = [...generateOffers({ count: 200, seed: 16 })].map((o, i) => ({
        ...o,
        category: ['books', 'music', 'garden'][i % 3] as string,
        location: { ...o.location, country: i % 2 === 0 ? 'FR' : 'DE' },
        status: 'active' as const,
        expiresAt: null,
      }));
      await t.deps.offers.upsertMany('testing', offers);
      const doc = (
        await t.apps.testing.inject({ method: 'GET', url: '/openapi.json' })
      ).json() as OpenApiDocument;
      // The browser doors (`/connect`: an HTML page) are not API routes; the rest with a key are.
      keyProtected = operations(doc)
        .filter(({ op }) => JSON.stringify(op.security ?? []).includes('ApiKey'))
        .filter(({ op }) => !JSON.stringify(op.responses ?? {}).includes('text/html'))
        .map(({ method, path }) => ({ method, path }));
    });
    afterAll(async () => {
      await t.close();
    });

    const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');
    const call = (method: string, url: string, headers: Record<string, string> = {}, payload?: string) =>
      t.apps.testing.inject({
        method: method as 'GET',
        url,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });

    it('finds the key-protected routes in the served OpenAPI document', () => {
      const names = keyProtected.map((o) => `${o.method} ${o.path}`);
      for (const expected of [
        'GET /v1/offers/',
        'GET /v1/offers/{id}',
        'GET /v1/key',
        'GET /v1/me',
        'POST /v1/offers/import',
        'DELETE /v1/offers/by-external-id/{externalId}',
        'GET /auth/refresh',
      ]) {
        expect(names).toContain(expected);
      }
    });

    it('refuses a publishable key on every key-protected route but search: 403 api_key_scope', async () => {
      const refused: string[] = [];
      for (const op of keyProtected) {
        if (SEARCH_ROUTES.has(`${op.method} ${op.path}`)) continue;
        const res = await call(op.method, concrete(op.path), { 'x-api-key': pub.key });
        expect(res.statusCode, `${op.method} ${op.path}`).toBe(403);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(res.json()).toMatchObject({
          type: 'http://localhost:8081/docs/errors#api_key_scope',
          status: 403,
          code: 'api_key_scope',
          detail:
            'This is a publishable key: it can only search (GET /offers/, GET /offers/{id}, GET /offers/facet-values, POST /multi-search, GET /attributes). Use a secret key, from your server, for anything else.',
        });
        refused.push(`${op.method} ${op.path}`);
      }
      expect(refused.length).toBeGreaterThanOrEqual(5);
    });

    it('lets a publishable key search and read one offer, without an Origin or from an allowed one', async () => {
      const list = await call('GET', '/v1/offers/?limit=1', { 'x-api-key': pub.key });
      expect(list.statusCode).toBe(200);
      const id = list.json().data[0].id as string;
      const withOrigin: Record<string, string>[] = [
        { 'x-api-key': pub.key },
        { 'x-api-key': pub.key, origin: SHOP },
      ];
      for (const headers of withOrigin) {
        expect((await call('GET', `/v1/offers/${id}`, headers)).statusCode).toBe(200);
        expect((await call('GET', '/v1/offers/?q=chair', headers)).statusCode).toBe(200);
      }
      expect(
        (await call('GET', `/v1/offers/?apiKey=${pub.key}`, { origin: 'http://localhost:5173' })).statusCode,
      ).toBe(200);
    });

    it('shows a publishable key active offers only: another status is 400, a withdrawn or expired offer 404', async () => {
      const [withdrawn, expired] = [...generateOffers({ count: 2, seed: 2626 })];
      if (!withdrawn || !expired) throw new Error('no offers');
      await t.deps.offers.upsertMany('testing', [
        { ...withdrawn, status: 'withdrawn', expiresAt: null },
        { ...expired, status: 'active', expiresAt: t.clock.now() - 1000 },
      ]);
      for (const status of ['withdrawn', 'expired']) {
        const res = await call('GET', `/v1/offers/?status=${status}`, { 'x-api-key': pub.key });
        expect(res.statusCode, status).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_parameter', errors: [{ parameter: 'status' }] });
        // A secret key may still ask for them.
        expect(
          (await call('GET', `/v1/offers/?status=${status}`, { 'x-api-key': t.fixtures.keys.testing.key }))
            .statusCode,
        ).toBe(200);
      }
      const multi = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/multi-search',
        headers: { 'x-api-key': pub.key },
        payload: { queries: [{ q: 'a' }, { status: 'withdrawn' }] },
      });
      expect(multi.statusCode).toBe(400);
      expect(multi.json().errors).toEqual([expect.objectContaining({ parameter: 'queries[1].status' })]);
      expect((await call('GET', '/v1/offers/?status=active', { 'x-api-key': pub.key })).statusCode).toBe(200);
      const secret = { 'x-api-key': t.fixtures.keys.testing.key };
      for (const offer of [withdrawn, expired]) {
        const id = (
          await call(
            'GET',
            `/v1/offers/?status=${offer === withdrawn ? 'withdrawn' : 'expired'}&limit=100`,
            secret,
          )
        )
          .json()
          .data.find((o: { title: string }) => o.title === offer.title)?.id as string;
        expect(id).toBeDefined();
        expect((await call('GET', `/v1/offers/${id}`, secret)).statusCode).toBe(200);
        expect((await call('GET', `/v1/offers/${id}`, { 'x-api-key': pub.key })).statusCode).toBe(404);
      }
    });

    it('refuses a publishable key from another origin: 403 origin_not_allowed, exact match only', async () => {
      for (const origin of [
        OTHER,
        'http://shop.example',
        'https://shop.example:8443',
        'https://www.shop.example',
        'null',
      ]) {
        const res = await call('GET', '/v1/offers/', { 'x-api-key': pub.key, origin });
        expect(res.statusCode, origin).toBe(403);
        expect(res.json()).toMatchObject({ code: 'origin_not_allowed', status: 403 });
        expect(res.json().detail).toBe(
          `This publishable key may not be used from ${origin}; it allows ${SHOP}, http://localhost:5173.`,
        );
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('a secret key is not bound to origins, and gets no CORS headers for a browser', async () => {
      const res = await call('GET', '/v1/offers/', {
        'x-api-key': t.fixtures.keys.testing.key,
        origin: SHOP,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers.vary).toContain('Origin');
    });

    it('answers a preflight for an allowed origin from memory, and none for another origin', async () => {
      const preflight = (origin: string) =>
        t.apps.testing.inject({
          method: 'OPTIONS',
          url: '/v1/offers/',
          headers: {
            origin,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'x-api-key',
          },
        });
      const ok = await preflight(SHOP);
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
      expect(ok.headers['access-control-allow-methods']).toBe('GET, POST');
      expect(ok.headers['access-control-allow-headers']).toBe('X-Api-Key, Authorization, Content-Type');
      expect(ok.headers['access-control-max-age']).toBe('600');
      expect(ok.headers.vary).toContain('Origin');
      const other = await preflight(OTHER);
      expect(other.statusCode).toBe(204);
      for (const name of Object.keys(other.headers)) expect(name).not.toMatch(/^access-control-/);
      // The production listener knows only production keys' origins.
      const prod = await t.apps.production.inject({
        method: 'OPTIONS',
        url: '/v1/offers/',
        headers: { origin: SHOP, 'access-control-request-method': 'GET' },
      });
      expect(prod.headers['access-control-allow-origin']).toBeUndefined();
      // No database call: the preflight works with the database gone quiet (a read would throw).
      const all = t.database.db.all.bind(t.database.db);
      const get = t.database.db.get.bind(t.database.db);
      t.database.db.all = () => Promise.reject(new Error('no database call expected'));
      t.database.db.get = () => Promise.reject(new Error('no database call expected'));
      try {
        expect((await preflight(SHOP)).headers['access-control-allow-origin']).toBe(SHOP);
      } finally {
        t.database.db.all = all;
        t.database.db.get = get;
      }
    });

    it('exposes the rate-limit, Link and request-id headers to an allowed origin', async () => {
      const res = await call('GET', '/v1/offers/?limit=1', { 'x-api-key': pub.key, origin: SHOP });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(SHOP);
      expect(res.headers['access-control-expose-headers']).toBe(
        'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Link, X-Request-Id',
      );
      // A refusal before any key is known is readable by a listed origin (a clear error in the console).
      const missing = await call('GET', '/v1/offers/', { origin: SHOP });
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['access-control-allow-origin']).toBe(SHOP);
    });

    it('learns a new key’s origins at once and forgets a revoked key’s', async () => {
      const preflight = () =>
        t.apps.testing.inject({
          method: 'OPTIONS',
          url: '/v1/offers/',
          headers: { origin: 'https://new.example', 'access-control-request-method': 'GET' },
        });
      expect((await preflight()).headers['access-control-allow-origin']).toBeUndefined();
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://new.example'],
      });
      expect((await preflight()).headers['access-control-allow-origin']).toBe('https://new.example');
      await t.deps.keys.revoke(issued.record.id);
      expect((await preflight()).headers['access-control-allow-origin']).toBeUndefined();
    });

    it('another instance learns a new key’s origins from its change-counter poll (no broadcast needed)', async () => {
      const other = createKeyVerifier({
        store: createKeyStore(t.deps.db),
        clock: t.clock,
        refreshMs: 60_000,
      });
      await other.start();
      try {
        expect(other.allowsOrigin('testing', 'https://elsewhere.example')).toBe(false);
        const issued = await t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'testing',
          kind: 'publishable',
          allowedOrigins: ['https://elsewhere.example'],
        });
        expect(other.allowsOrigin('testing', 'https://elsewhere.example')).toBe(false);
        await other.refresh(); // what its timer does every KEY_CACHE_REFRESH_MS
        expect(other.allowsOrigin('testing', 'https://elsewhere.example')).toBe(true);
        expect(other.allowsOrigin('production', 'https://elsewhere.example')).toBe(false);
        await t.deps.keys.revoke(issued.record.id);
        await other.refresh();
        expect(other.allowsOrigin('testing', 'https://elsewhere.example')).toBe(false);
      } finally {
        await other.stop();
      }
    });

    it('applies fixed filters to every search, and a request cannot widen them', async () => {
      const headers = { 'x-api-key': filtered.key };
      const all = await call('GET', '/v1/offers/?limit=100&facets=category,country', headers);
      expect(all.statusCode).toBe(200);
      const body = all.json();
      expect(body.total.value).toBeGreaterThan(0);
      for (const offer of body.data) {
        expect(['books', 'music']).toContain(offer.category);
        expect(offer.location.country).toBe('FR');
      }
      expect(body.facets.category.map((f: { value: string }) => f.value).sort()).toEqual(['books', 'music']);
      expect(body.facets.country).toEqual([{ value: 'FR', count: body.total.value }]);
      // The same search with a secret key finds more: the filters are the key's, not the data's.
      const wide = await call('GET', '/v1/offers/?limit=1', { 'x-api-key': t.fixtures.keys.testing.key });
      expect(wide.json().total.value).toBeGreaterThan(body.total.value);
      // Narrowing further is fine.
      const narrower = await call('GET', '/v1/offers/?category=books&country=fr', headers);
      expect(narrower.statusCode).toBe(200);
      expect(narrower.json().total.value).toBeLessThan(body.total.value);
      for (const offer of narrower.json().data) expect(offer.category).toBe('books');
      // Widening is refused, naming each parameter.
      const widened = await call('GET', '/v1/offers/?category=garden&category=books&country=DE', headers);
      expect(widened.statusCode).toBe(400);
      expect(widened.json()).toMatchObject({
        code: 'invalid_parameter',
        errors: [
          { parameter: 'category', message: 'this key searches only category books, music' },
          { parameter: 'country', message: 'this key searches only country FR' },
        ],
      });
      // One offer outside the filters is not there for this key.
      const garden = await call('GET', '/v1/offers/?category=garden&limit=1', {
        'x-api-key': t.fixtures.keys.testing.key,
      });
      const gardenId = garden.json().data[0].id as string;
      const one = await call('GET', `/v1/offers/${gardenId}`, headers);
      expect(one.statusCode).toBe(404);
      expect(one.json().code).toBe('offer_not_found');
    });

    it('keeps one offer per publisher within the fixed filters (distinct=publisher)', async () => {
      const headers = { 'x-api-key': filtered.key };
      const every: Array<{ id: string; category: string; publisher: { id: string } }> = [];
      for (let cursor: string | null = null, page = 0; page < 50; page += 1) {
        const more = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const res = await call('GET', `/v1/offers/?limit=100${more}`, headers);
        every.push(...res.json().data);
        cursor = res.json().nextCursor;
        if (!cursor) break;
      }
      const publishers = new Set<string>();
      const kept = every.filter((o) => !publishers.has(o.publisher.id) && publishers.add(o.publisher.id));
      expect(kept.length).toBeLessThan(every.length);
      const res = await call('GET', '/v1/offers/?limit=100&distinct=publisher', headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().total.value).toBe(kept.length);
      expect(res.json().data.map((o: { id: string }) => o.id)).toEqual(kept.map((o) => o.id));
    });

    it('keeps the fixed filters across pages (the cursor cannot carry a wider query)', async () => {
      const headers = { 'x-api-key': filtered.key };
      const first = await call('GET', '/v1/offers/?limit=5', headers);
      const cursor = first.json().nextCursor as string;
      expect(cursor).toBeTruthy();
      const next = await call('GET', `/v1/offers/?limit=5&cursor=${encodeURIComponent(cursor)}`, headers);
      expect(next.statusCode).toBe(200);
      for (const offer of next.json().data) expect(['books', 'music']).toContain(offer.category);
      // A cursor made by a wider search does not fit this key's narrowed query.
      const wide = await call('GET', '/v1/offers/?limit=5', { 'x-api-key': t.fixtures.keys.testing.key });
      const foreign = await call(
        'GET',
        `/v1/offers/?limit=5&cursor=${encodeURIComponent(wide.json().nextCursor as string)}`,
        headers,
      );
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors[0].parameter).toBe('cursor');
    });

    it('refuses a publishable key at /connect (an HTML page, no redirect)', async () => {
      const res = await call(
        'GET',
        `/auth/connect?apiKey=${pub.key}&destination=${encodeURIComponent('https://app.example.com/callback')}`,
      );
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('publishable key');
    });

    it('refuses a secret key without offers:write on the write routes, until the operator grants it', async () => {
      const { id, key } = t.fixtures.keys.testing;
      const refused = await call('POST', '/v1/offers/import', {
        'x-api-key': key,
        'content-type': 'application/x-ndjson',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'api_key_scope',
        detail:
          'This key does not have the offers:write scope. Ask the operator to grant it (vitrine keys grant-write KEY_ID).',
      });
      const del = await call('DELETE', '/v1/offers/by-external-id/sku-1', { 'x-api-key': key });
      expect(del.json().code).toBe('api_key_scope');
      await t.deps.keys.grantWrite(id);
      const granted = await call('GET', '/v1/key', { 'x-api-key': key });
      expect(granted.json().scopes).toEqual(['search', 'auth', 'api', 'offers:write']);
      const empty = await call(
        'POST',
        '/v1/offers/import',
        { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
        '',
      );
      expect(empty.statusCode).toBe(200);
      await t.deps.keys.revokeWrite(id);
      const withdrawn = await call('POST', '/v1/offers/import', {
        'x-api-key': key,
        'content-type': 'application/x-ndjson',
      });
      expect(withdrawn.json().code).toBe('api_key_scope');
    });

    it('a publishable key cannot be granted offers:write', async () => {
      await expect(t.deps.keys.grantWrite(pub.id)).rejects.toThrow(/publishable/);
    });

    it('refuses bad origins and unknown filters when a publishable key is issued', async () => {
      const issue = (allowedOrigins: string[], fixedFilters = {}) =>
        t.deps.keys.issue({
          projectId: t.fixtures.projectId,
          environment: 'testing',
          kind: 'publishable',
          allowedOrigins,
          fixedFilters,
        });
      for (const bad of [
        [],
        ['https://shop.example/path'],
        ['https://*.shop.example'],
        ['http://shop.example'],
        ['shop.example'],
        ['https://user@shop.example'],
      ]) {
        await expect(issue(bad), JSON.stringify(bad)).rejects.toThrow();
      }
      const ok = await issue(['HTTPS://Shop.Example:443/', 'http://127.0.0.1:3000']);
      expect(ok.record.allowedOrigins).toEqual(['https://shop.example', 'http://127.0.0.1:3000']);
      expect(ok.key).toMatch(/^vk_pub_test_/);
    });
  });
}
