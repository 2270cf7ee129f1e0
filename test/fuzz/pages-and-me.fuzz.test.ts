import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { confirmDeveloperEmail, PageAgent } from '../support/portal.js';
import {
  encodeAny,
  expectApiAnswer,
  expectPageAnswer,
  fuzz,
  hostileJson,
  hostileString,
  report,
  runs,
} from './fuzz-support.js';

/**
 * Issue 13: the end-user offer routes (API key + bearer token) and the portal and console
 * forms, with generated bodies, ids and fields, on every backend. Zero 5xx; API errors are
 * problem+json, page errors HTML; a refused `POST /v1/me/offers` writes nothing.
 */
const ME_RUNS = runs(400);
const FORM_RUNS = runs(400);

const OWN_OFFER = {
  title: 'Brass lamp',
  description: 'Warm light.',
  category: 'furniture',
  tags: ['vintage'],
  location: { city: 'Lyon', country: 'FR', lat: 45.76, lon: 4.83 },
  price: { amount: '10.00', currency: 'EUR' },
};
const OWN_FIELDS = [
  'title',
  'description',
  'category',
  'tags',
  'location',
  'price',
  'url',
  'attributes',
  'expiresAt',
  'extra',
];
const LOCATION_FIELDS = ['city', 'region', 'country', 'lat', 'lon'];

const hostileId = fc.oneof(hostileString, fc.constantFrom('off_x', 'svs_x', 'off_AAAAAAAAAAAAAAAAAAAA'));
const ownOfferBody = fc.oneof(
  fc.constant(JSON.stringify(OWN_OFFER)),
  fc
    .tuple(
      fc.constantFrom('title', 'description'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 50 }),
    )
    .map(([k, v]) => JSON.stringify({ ...OWN_OFFER, [k]: `x${v}` })),
  fc
    .tuple(fc.constantFrom(...OWN_FIELDS), hostileJson)
    .map(([k, v]) => JSON.stringify({ ...OWN_OFFER, [k]: v })),
  fc
    .tuple(fc.constantFrom(...LOCATION_FIELDS), hostileJson)
    .map(([k, v]) => JSON.stringify({ ...OWN_OFFER, location: { ...OWN_OFFER.location, [k]: v } })),
  fc.constantFrom(
    JSON.stringify(OWN_OFFER),
    '{',
    '',
    'null',
    '[]',
    '{"title":1e309}',
    JSON.stringify(OWN_OFFER).replace('45.76', '1e999'),
  ),
  hostileJson.map((v) => JSON.stringify(v) ?? 'null'),
);

type MeRequest = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: string };
const meRequest: fc.Arbitrary<MeRequest> = fc.oneof(
  ownOfferBody.map((body): MeRequest => ({ method: 'POST', url: '/v1/me/offers', body })),
  fc
    .tuple(hostileId, ownOfferBody)
    .map(([id, body]): MeRequest => ({ method: 'PATCH', url: `/v1/me/offers/${encodeAny(id)}`, body })),
  hostileId.map((id): MeRequest => ({ method: 'DELETE', url: `/v1/me/offers/${encodeAny(id)}` })),
  fc
    .tuple(fc.constantFrom<'PUT' | 'DELETE'>('PUT', 'DELETE'), hostileId)
    .map(([method, id]): MeRequest => ({ method, url: `/v1/me/favorites/${encodeAny(id)}` })),
  fc.tuple(hostileString, hostileJson).map(
    ([name, query]): MeRequest => ({
      method: 'POST',
      url: '/v1/me/saved-searches',
      body: JSON.stringify({ name, query }) ?? '',
    }),
  ),
  hostileId.map((id): MeRequest => ({ method: 'DELETE', url: `/v1/me/saved-searches/${encodeAny(id)}` })),
  // Issue 27: a hostile id never names the fuzzing user's own session, whose token must go on working.
  hostileId.map((id): MeRequest => ({ method: 'DELETE', url: `/v1/me/sessions/${encodeAny(id)}` })),
  fc
    .tuple(
      fc.constantFrom(
        '/v1/me',
        '/v1/me/offers',
        '/v1/me/favorites',
        '/v1/me/saved-searches',
        '/v1/me/sessions',
      ),
      hostileString,
      hostileString,
    )
    .map(([path, k, v]): MeRequest => ({ method: 'GET', url: `${path}?${encodeAny(k)}=${encodeAny(v)}` })),
);

type FormRequest = {
  agent: 'developer' | 'operator' | 'anonymous';
  url: string;
  fields: Record<string, string>;
  csrf: boolean;
};
const anyFields = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'name',
      'description',
      'website',
      'redirectUris',
      'email',
      'password',
      'environment',
      'wantsRefresh',
      'refreshReason',
      'reason',
      'plan',
      'rps',
      'area',
      'grantRefresh',
      // Issue 27: reset and verification links, second-factor codes, the console's access form.
      'token',
      'code',
      'action',
    ),
    hostileString,
  ),
  hostileString,
  { maxKeys: 6 },
);
/** Sign-in and sign-up forms get their own fields, hostile, most of the time. */
const credentials = fc.record({ email: hostileString, password: hostileString, name: hostileString });
const formFields = fc.oneof(
  anyFields,
  credentials.map((c): Record<string, string> => ({ ...c })),
);
function formRequest(
  ids: () => { project: string; application: string; key: string },
): fc.Arbitrary<FormRequest> {
  const path = fc
    .tuple(
      fc.constantFrom(
        '/portal/signup',
        '/portal/signin',
        '/portal/projects',
        '/portal/projects/:project',
        '/portal/projects/:project/applications',
        '/portal/applications/:application/reveal',
        '/portal/keys/:key/revoke',
        '/console/signin',
        '/console/applications/:application/approve',
        '/console/applications/:application/reject',
        '/console/keys/:key/plan',
        '/console/keys/:key/grant-refresh',
        '/console/unlock',
        // Issue 27: password reset, verification, two-factor sign-in, sessions, developer access.
        '/portal/forgot',
        '/portal/reset',
        '/console/forgot',
        '/console/reset',
        '/portal/email/resend',
        '/portal/two-factor',
        '/portal/two-factor/enrol',
        '/portal/two-factor/confirm',
        '/portal/two-factor/remove',
        '/portal/account/sessions/:key/end',
        '/console/two-factor/remove',
        '/console/developer-access',
      ),
      fc.option(hostileId, { nil: undefined }),
    )
    .map(([template, hostile]) =>
      template.replace(/:(project|application|key)/, (_, kind: 'project' | 'application' | 'key') =>
        hostile === undefined ? ids()[kind] : encodeAny(hostile),
      ),
    );
  // Mostly the area's own signed-in user (so forms get past CSRF and sign-in), sometimes anyone.
  return fc
    .record({
      url: path,
      fields: formFields,
      csrf: fc.nat({ max: 9 }).map((n) => n > 0),
      other: fc.nat({ max: 9 }),
    })
    .map(({ url, fields, csrf, other }) => ({
      url,
      fields,
      csrf,
      agent: /\/(signin|signup|forgot|reset)$/.test(url)
        ? 'anonymous'
        : other === 0
          ? 'anonymous'
          : other === 1
            ? 'operator'
            : url.startsWith('/console')
              ? 'operator'
              : 'developer',
    }));
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`end-user routes and page forms fuzz on ${dialect}`, () => {
    let t: TestContext;
    let jwt: string;
    let developer: PageAgent;
    let operator: PageAgent;
    let anonymous: PageAgent;
    const ids = { project: 'prj_x', application: 'app_x', key: 'key_x' };
    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 20, seed: 9 })]);
      await t.deps.users.add({
        environment: 'testing',
        email: 'fuzz@example.com',
        password: 'fuzz-password-1',
        name: 'F',
      });
      jwt = (
        await loginTokens(t.apps.testing, t.fixtures.keys.testing.key, {
          email: 'fuzz@example.com',
          password: 'fuzz-password-1',
        })
      ).jwt;
      await t.deps.operators.add({ email: 'ops@example.com', password: 'ops-password-1' });
      developer = new PageAgent(t.apps.production, '10.20.0.1');
      operator = new PageAgent(t.apps.production, '10.20.0.2');
      anonymous = new PageAgent(t.apps.production, '10.20.0.3');
      expect((await developer.signUp('dev@example.com', 'dev-password-12')).statusCode).toBe(303);
      expect((await operator.signIn('console', 'ops@example.com', 'ops-password-1')).statusCode).toBe(303);
      ids.project = await developer.createProject('Fuzz project', ['https://fuzz.example.com/cb']);
      await confirmDeveloperEmail(t.deps, 'dev@example.com');
      const page = await developer.apply(ids.project, 'production');
      ids.application = /app_\w+/.exec(page.body)?.[0] ?? ids.application;
      ids.key = t.fixtures.keys.production.id;
    });
    afterAll(async () => {
      await t.close();
    });

    it(`answers ${ME_RUNS} generated end-user requests without a 5xx; a refused offer is not written`, {
      timeout: 600_000,
    }, async () => {
      const statuses = new Map<number, number>();
      await fuzz('me', meRequest, ME_RUNS, async (r) => {
        const before =
          r.method === 'POST' && r.url === '/v1/me/offers' ? await t.deps.offers.count('testing') : 0;
        const res = await t.apps.testing.inject({
          method: r.method,
          url: r.url,
          headers: {
            'x-api-key': t.fixtures.keys.testing.key,
            authorization: `Bearer ${jwt}`,
            ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(r.body === undefined ? {} : { payload: r.body }),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expectApiAnswer(res, `${r.method} ${r.url} ${r.body ?? ''}`.slice(0, 500));
        if (r.method === 'POST' && r.url === '/v1/me/offers') {
          const after = await t.deps.offers.count('testing');
          expect(after - before, r.body).toBe(res.statusCode === 201 ? 1 : 0);
          // Stay under MAX_OWN_OFFERS however many are accepted.
          if (res.statusCode === 201)
            await t.apps.testing.inject({
              method: 'DELETE',
              url: `/v1/me/offers/${res.json().id}`,
              headers: { 'x-api-key': t.fixtures.keys.testing.key, authorization: `Bearer ${jwt}` },
            });
        }
      });
      report(
        `me on ${dialect}`,
        Object.fromEntries([['requests', ME_RUNS], ...[...statuses].map(([s, n]) => [`status${s}`, n])]),
      );
    });

    it(`answers ${FORM_RUNS} generated portal and console form posts without a 5xx, errors as HTML pages`, {
      timeout: 600_000,
    }, async () => {
      const statuses = new Map<number, number>();
      const agents = { developer: () => developer, operator: () => operator, anonymous: () => anonymous };
      await fuzz(
        'forms',
        formRequest(() => ids),
        FORM_RUNS,
        async (r) => {
          const agent = agents[r.agent]();
          // A fresh CSRF token from a page of the right area, when this post carries one.
          if (r.csrf) {
            const signin = /\/(signin|signup|forgot)$/.test(r.url);
            await agent.get(
              signin ? r.url : r.url.startsWith('/console') ? '/console/developers' : '/portal/',
            );
          }
          const res = await agent.post(r.url, r.fields, r.csrf ? {} : { csrf: null });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expectPageAnswer(res, `${r.agent} POST ${r.url} ${JSON.stringify(r.fields)}`.slice(0, 500));
        },
      );
      report(
        `forms on ${dialect}`,
        Object.fromEntries([['requests', FORM_RUNS], ...[...statuses].map(([s, n]) => [`status${s}`, n])]),
      );
      // The forms kept working for their users: the developer and the operator are still signed in.
      expect((await developer.get('/portal/')).statusCode).toBe(200);
    });
  });
}
