import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredRoute, registeredRoutes } from '../../src/http/route-inventory.js';
import type { Environment } from '../../src/platform/environment.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Issue 14: the security matrix is derived from the routes the app really registers, not from a
 * hand-kept list. Every route declaring the API-key scheme gets no key, a malformed key, a
 * revoked key and a key of the other environment; every route declaring the bearer scheme gets
 * no token, a malformed token, another key's token and an expired token (injected clock). A
 * route under /v1/ that declares neither is itself a failure.
 */
const ENVIRONMENTS: Environment[] = ['testing', 'production'];
const OTHER: Record<Environment, Environment> = { testing: 'production', production: 'testing' };
const USER = { email: 'matrix@example.com', password: 'matrix-password-1' };
/** Routes under /v1/ answered without a key: the CORS preflight only (SPEC §3, issue 16). */
const PUBLIC_V1 = new Set(['OPTIONS /v1/*']);
/** Accepts an OAuth client's credentials instead of a key (RFC 7009), so "no key" is not a refusal. */
const KEY_OR_CLIENT = new Set(['POST /auth/revoke']);

/** OpenID Connect's userinfo: a bearer token alone, refused as RFC 6750 says (oauth tests), not problem+json. */
const OAUTH_BEARER = new Set(['GET /auth/userinfo', 'POST /auth/userinfo']);

const name = (r: RegisteredRoute) => `${r.method} ${r.url}`;
const isKeyRoute = (r: RegisteredRoute) => r.security.includes('ApiKeyHeader');
const isTokenRoute = (r: RegisteredRoute) => r.security.includes('BearerToken') && !OAUTH_BEARER.has(name(r));
/** Path parameters filled with ids nobody has: a passing request then answers 404, never 401. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'matrix_unknown');

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`security matrix on ${dialect}`, () => {
    let t: TestContext;
    const revoked = {} as Record<Environment, string>;
    const other = {} as Record<Environment, string>;
    const jwt = {} as Record<Environment, string>;

    beforeAll(async () => {
      t = await createTestContext(dialect);
      for (const environment of ENVIRONMENTS) {
        const gone = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment });
        await t.deps.keys.revoke(gone.record.id);
        revoked[environment] = gone.key;
        other[environment] = (await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment })).key;
        await t.deps.users.add({ environment, ...USER });
        jwt[environment] = (
          await loginTokens(t.apps[environment], t.fixtures.keys[environment].key, USER)
        ).jwt;
      }
    });
    afterAll(async () => {
      await t?.close();
    });

    const routes = (environment: Environment) => registeredRoutes(t.apps[environment]);
    const call = (app: FastifyInstance, route: RegisteredRoute, headers: Record<string, string>) =>
      app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: { 'content-type': 'application/json', ...headers },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: '{}' }),
      });

    it('finds the guarded routes, and every /v1/ route declares the API-key scheme', () => {
      for (const environment of ENVIRONMENTS) {
        const all = routes(environment);
        expect(all.filter(isKeyRoute).length).toBeGreaterThanOrEqual(20);
        expect(all.filter(isTokenRoute).length).toBeGreaterThanOrEqual(13);
        // Issue 27: an end user's sessions are among them.
        expect(all.filter(isTokenRoute).map(name)).toEqual(
          expect.arrayContaining(['GET /v1/me/sessions', 'DELETE /v1/me/sessions/:id']),
        );
        const unguarded = all
          .filter((r) => r.url.startsWith('/v1/') && !isKeyRoute(r) && !PUBLIC_V1.has(name(r)))
          .map(name);
        expect(unguarded).toEqual([]);
        expect(all.filter(isTokenRoute).filter((r) => !isKeyRoute(r))).toEqual([]);
      }
    });

    for (const environment of ENVIRONMENTS) {
      it(`${environment}: every key-protected route refuses no key, malformed, revoked and wrong-environment keys`, async () => {
        const app = t.apps[environment];
        const failures: string[] = [];
        const expectCode = async (
          route: RegisteredRoute,
          headers: Record<string, string>,
          status: number,
          code: string,
        ) => {
          const res = await call(app, route, headers);
          const got = res.headers['content-type']?.toString().startsWith('application/problem+json')
            ? res.json().code
            : res.statusCode;
          if (res.statusCode !== status || got !== code)
            failures.push(
              `${name(route)} ${JSON.stringify(headers)}: ${res.statusCode} ${got}, wanted ${status} ${code}`,
            );
        };
        for (const route of routes(environment).filter(isKeyRoute)) {
          if (!KEY_OR_CLIENT.has(name(route))) await expectCode(route, {}, 401, 'api_key_missing');
          await expectCode(route, { 'x-api-key': 'nonsense' }, 401, 'api_key_invalid');
          await expectCode(route, { 'x-api-key': revoked[environment] }, 401, 'api_key_revoked');
          await expectCode(
            route,
            { 'x-api-key': t.fixtures.keys[OTHER[environment]].key },
            403,
            'api_key_wrong_environment',
          );
        }
        expect(failures).toEqual([]);
      });

      it(`${environment}: every token-protected route refuses no token, malformed and another key's token`, async () => {
        const app = t.apps[environment];
        const key = t.fixtures.keys[environment].key;
        const failures: string[] = [];
        for (const route of routes(environment).filter(isTokenRoute)) {
          const cases: [Record<string, string>, string][] = [
            [{ 'x-api-key': key }, 'token_missing'],
            [{ 'x-api-key': key, authorization: 'Bearer not.a.token' }, 'token_invalid'],
            [
              { 'x-api-key': other[environment], authorization: `Bearer ${jwt[environment]}` },
              'token_invalid',
            ],
          ];
          for (const [headers, code] of cases) {
            const res = await call(app, route, headers);
            if (res.statusCode !== 401 || res.json().code !== code)
              failures.push(`${name(route)} ${code}: ${res.statusCode} ${res.body.slice(0, 80)}`);
          }
          // The inputs themselves are right: the same request with the token is not refused.
          const ok = await call(app, route, {
            'x-api-key': key,
            authorization: `Bearer ${jwt[environment]}`,
          });
          if (ok.statusCode === 401 || ok.statusCode === 403)
            failures.push(`${name(route)} with its token: ${ok.statusCode} ${ok.body.slice(0, 80)}`);
        }
        expect(failures).toEqual([]);
      });
    }

    // Last: it moves the injected clock past the access tokens' lifetime (and the 60 s skew).
    it('every token-protected route refuses an expired token', async () => {
      t.clock.advance(t.deps.config.accessTokenTtlMs + 61_000);
      const failures: string[] = [];
      for (const environment of ENVIRONMENTS) {
        for (const route of routes(environment).filter(isTokenRoute)) {
          const res = await call(t.apps[environment], route, {
            'x-api-key': t.fixtures.keys[environment].key,
            authorization: `Bearer ${jwt[environment]}`,
          });
          if (res.statusCode !== 401 || res.json().code !== 'token_expired')
            failures.push(`${environment} ${name(route)}: ${res.statusCode} ${res.body.slice(0, 80)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  });
}
