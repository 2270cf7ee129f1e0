import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { confirmDeveloperEmail, PageAgent } from '../support/portal.js';

/**
 * The portal and console as a security reviewer reads them (issue 5): one developer can never
 * see or change another's projects, applications or keys, by URL or by tampered form; a
 * developer never reaches the console; every state-changing form refuses a missing or wrong
 * CSRF token; sessions end by the injected clock. Both backends.
 */
const ALICE = { email: 'alice@example.com', password: 'alice-portal-pw-1' };
const BOB = { email: 'bob@example.com', password: 'bob-portal-pw-12' };
const OPERATOR = { email: 'ops@example.com', password: 'operator-pw-123' };
const DEST = 'https://alice.example.com/callback';
const MINUTE = 60_000;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`portal and console security on ${dialect}`, () => {
    let t: TestContext;
    let alice: PageAgent;
    let bob: PageAgent;
    let ops: PageAgent;
    let aliceProject: string;
    let aliceKeyId: string;
    let aliceSecret: string;
    let pendingApplication: string;

    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.operators.add(OPERATOR);
      alice = new PageAgent(t.apps.production, '10.0.0.1');
      bob = new PageAgent(t.apps.production, '10.0.0.2');
      ops = new PageAgent(t.apps.production, '10.0.0.3');
      expect((await alice.signUp(ALICE.email, ALICE.password, 'Alice')).statusCode).toBe(303);
      expect((await bob.signUp(BOB.email, BOB.password)).statusCode).toBe(303);
      expect((await ops.signIn('console', OPERATOR.email, OPERATOR.password)).statusCode).toBe(303);
      aliceProject = await alice.createProject('Alice app', [DEST]);
      await alice.apply(aliceProject, 'testing');
      aliceSecret = await alice.reveal(aliceProject);
      aliceKeyId = (await t.deps.keys.list({ projectId: aliceProject }))[0]?.id ?? '';
      await confirmDeveloperEmail(t.deps, ALICE.email);
      await alice.apply(aliceProject, 'production', true, 'offline sync');
      pendingApplication = (await t.deps.applications.list({ state: 'pending' }))[0]?.id ?? '';
      expect(pendingApplication).toMatch(/^app_/);
    });
    afterAll(async () => {
      await t.close();
    });

    describe('sessions', () => {
      it('sets an HttpOnly, SameSite=Strict session cookie and stores only its hash', async () => {
        const agent = new PageAgent(t.apps.production);
        const res = await agent.signIn('portal', ALICE.email, ALICE.password);
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/portal/');
        const cookie = [res.headers['set-cookie']]
          .flat()
          .find((c) => String(c).startsWith('vitrine_portal='));
        expect(cookie).toMatch(/^vitrine_portal=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
        const token = agent.cookies.get('vitrine_portal') ?? '';
        const rows = await t.database.db.all<Record<string, unknown>>('SELECT * FROM web_sessions');
        expect(JSON.stringify(rows)).not.toContain(token);
        expect(t.logs.join('')).not.toContain(token);
        expect(t.logs.join('')).not.toContain(ALICE.password);
      });

      it('uses Secure __Host- cookies when the origin is https', async () => {
        const secure = await createTestContext(dialect, { PUBLIC_ORIGIN: 'https://vitrine.example.com' });
        try {
          const res = await secure.apps.production.inject({ url: '/portal/signin' });
          expect(String(res.headers['set-cookie'])).toMatch(
            /^__Host-vitrine_portal_pre=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=3600$/,
          );
        } finally {
          await secure.close();
        }
      });

      it('ends a session after the idle time and after the absolute lifetime, by the clock', async () => {
        const agent = new PageAgent(t.apps.production);
        await agent.signIn('portal', ALICE.email, ALICE.password);
        expect((await agent.get('/portal/')).statusCode).toBe(200);
        t.clock.advance(29 * MINUTE);
        expect((await agent.get('/portal/')).statusCode).toBe(200);
        t.clock.advance(30 * MINUTE);
        const idle = await agent.get('/portal/');
        expect(idle.statusCode).toBe(303);
        expect(idle.headers.location).toBe('/portal/signin');

        const busy = new PageAgent(t.apps.production);
        await busy.signIn('portal', ALICE.email, ALICE.password);
        for (let i = 0; i < 24; i += 1) {
          t.clock.advance(29 * MINUTE);
          expect((await busy.get('/portal/')).statusCode).toBe(200);
        }
        t.clock.advance(29 * MINUTE);
        expect((await busy.get('/portal/')).statusCode).toBe(303);
        // Re-sign-in the shared agents, whose sessions the clock has also ended.
        for (const [agent, who, area] of [
          [alice, ALICE, 'portal'],
          [bob, BOB, 'portal'],
          [ops, OPERATOR, 'console'],
        ] as const) {
          expect((await agent.signIn(area, who.email, who.password)).statusCode).toBe(303);
        }
      });

      it('sends a signed-in visitor of the sign-in and sign-up pages home', async () => {
        await alice.get('/portal/');
        for (const path of ['/portal/signin', '/portal/signup']) {
          const res = await alice.get(path);
          expect(res.statusCode).toBe(303);
          expect(res.headers.location).toBe('/portal/');
        }
        expect((await ops.get('/console/signin')).headers.location).toBe('/console/');
      });

      it('signing in again ends the session the browser had', async () => {
        // A sign-in form opened in one tab, submitted after signing in in another.
        const agent = new PageAgent(t.apps.production);
        await agent.get('/portal/signin');
        const other = new PageAgent(t.apps.production);
        await other.signIn('portal', BOB.email, BOB.password);
        const first = other.cookies.get('vitrine_portal') ?? '';
        agent.cookies.set('vitrine_portal', first);
        expect((await agent.post('/portal/signin', ALICE)).statusCode).toBe(303);
        expect(agent.cookies.get('vitrine_portal')).not.toBe(first);
        const old = await t.apps.production.inject({
          url: '/portal/',
          headers: { cookie: `vitrine_portal=${first}` },
        });
        expect(old.statusCode).toBe(303);
      });

      it('signing out ends the session on the server', async () => {
        const agent = new PageAgent(t.apps.production);
        await agent.signIn('portal', BOB.email, BOB.password);
        const token = agent.cookies.get('vitrine_portal') ?? '';
        await agent.get('/portal/');
        expect((await agent.post('/portal/signout')).statusCode).toBe(303);
        const replay = await t.apps.production.inject({
          url: '/portal/',
          headers: { cookie: `vitrine_portal=${token}` },
        });
        expect(replay.statusCode).toBe(303);
      });

      it('throttles repeated wrong passwords with the same message whether the account exists or not', async () => {
        const agent = new PageAgent(t.apps.production, '10.9.9.9');
        const unknown = await agent.signIn('portal', 'nobody@example.com', 'wrong-password-1');
        const wrong = await agent.signIn('portal', 'carol@example.com', 'wrong-password-1');
        expect(unknown.statusCode).toBe(401);
        expect(wrong.statusCode).toBe(401);
        expect(unknown.body).toContain('The email or password is incorrect.');
        let last = wrong;
        for (let i = 0; i < 6; i += 1)
          last = await agent.signIn('portal', 'carol@example.com', 'wrong-password-1');
        expect(last.statusCode).toBe(429);
        expect(last.headers['retry-after']).toBeDefined();
        expect(last.headers['content-type']).toBe('text/html; charset=utf-8');
        const failures = await t.deps.audit.list({
          action: 'developer.signin_failed',
          actor: 'carol@example.com',
        });
        expect(failures).toHaveLength(5); // the throttled attempts never reach a password check
        expect(failures[0]).toMatchObject({ actorKind: 'developer', actorId: null, clientIp: '10.9.9.9' });
        expect(JSON.stringify(failures)).not.toContain('wrong-password-1');
      });
    });

    describe("one developer cannot reach another developer's things", () => {
      const notFound = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('Page not found');
      };

      it('by direct URL', async () => {
        await bob.get('/portal/');
        expect(bob.lastBody).not.toContain('Alice app');
        notFound(await bob.get(`/portal/projects/${aliceProject}`));
        notFound(await bob.get(`/portal/projects/${aliceProject}/edit`));
        notFound(await bob.get(`/portal/keys/${aliceKeyId}`));
      });

      it('by tampered forms (with a valid CSRF token of their own)', async () => {
        await bob.get('/portal/');
        const bobCsrf = bob.csrf();
        expect(bobCsrf).not.toBe('');
        notFound(
          await bob.post(
            `/portal/projects/${aliceProject}`,
            { name: 'Taken over', redirectUris: 'https://evil.example/cb' },
            { csrf: bobCsrf },
          ),
        );
        notFound(
          await bob.post(
            `/portal/projects/${aliceProject}/applications`,
            { environment: 'testing' },
            { csrf: bobCsrf },
          ),
        );
        notFound(await bob.post(`/portal/applications/${pendingApplication}/reveal`, {}, { csrf: bobCsrf }));
        notFound(await bob.post(`/portal/keys/${aliceKeyId}/revoke`, {}, { csrf: bobCsrf }));
        const project = await t.deps.projects.get(aliceProject);
        expect(project?.name).toBe('Alice app');
        expect(project?.redirectUris).toEqual([DEST]);
        expect((await t.deps.keys.get(aliceKeyId))?.state).toBe('active');
        expect(await t.deps.applications.list({ projectIds: [aliceProject] })).toHaveLength(2);
      });

      it('the owner still can', async () => {
        expect((await alice.get(`/portal/projects/${aliceProject}`)).statusCode).toBe(200);
        expect((await alice.get(`/portal/keys/${aliceKeyId}`)).body).toContain('Usage, last 30 days');
      });
    });

    describe('the console is for operators only', () => {
      it('a developer session does not open it', async () => {
        for (const path of ['/console/', '/console/applications', '/console/keys', '/console/audit']) {
          const res = await alice.get(path);
          expect(res.statusCode).toBe(303);
          expect(res.headers.location).toBe('/console/signin');
        }
        // Even with the developer's session token under the console's cookie name.
        const token = alice.cookies.get('vitrine_portal') ?? '';
        const res = await t.apps.production.inject({
          url: '/console/applications',
          headers: { cookie: `vitrine_console=${token}` },
        });
        expect(res.statusCode).toBe(303);
        const post = await t.apps.production.inject({
          method: 'POST',
          url: `/console/applications/${pendingApplication}/approve`,
          headers: {
            cookie: `vitrine_console=${token}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: `csrf=${alice.csrf()}`,
        });
        expect(post.statusCode).toBe(403);
        expect((await t.deps.applications.get(pendingApplication))?.state).toBe('pending');
      });

      it("a developer's credentials do not sign in to it", async () => {
        const agent = new PageAgent(t.apps.production, '10.7.7.7');
        expect((await agent.signIn('console', ALICE.email, ALICE.password)).statusCode).toBe(401);
      });

      it('is not served on the testing listener', async () => {
        expect((await t.apps.testing.inject({ url: '/console/signin' })).statusCode).toBe(404);
        expect((await t.apps.testing.inject({ url: '/portal/signin' })).statusCode).toBe(404);
      });
    });

    describe('every state-changing form refuses a missing or wrong CSRF token', () => {
      const portalForms = () =>
        [
          ['/portal/projects', { name: 'Sneaky' }],
          [`/portal/projects/${aliceProject}`, { name: 'Sneaky' }],
          [`/portal/projects/${aliceProject}/applications`, { environment: 'testing' }],
          [`/portal/keys/${aliceKeyId}/revoke`, {}],
          ['/portal/signout', {}],
        ] as const;
      const consoleForms = () =>
        [
          [`/console/applications/${pendingApplication}/approve`, { grantRefresh: 'yes' }],
          [`/console/applications/${pendingApplication}/reject`, { reason: 'no' }],
          [`/console/keys/${aliceKeyId}/grant-refresh`, {}],
          [`/console/keys/${aliceKeyId}/revoke-refresh`, {}],
          [`/console/keys/${aliceKeyId}/revoke`, {}],
          [`/console/keys/${aliceKeyId}/plan`, { rate: '5' }],
          ['/console/signout', {}],
        ] as const;

      it('in the portal', async () => {
        const before = await t.deps.audit.list({ limit: 1000 });
        for (const [url, fields] of portalForms()) {
          await alice.get('/portal/');
          for (const csrf of [null, 'wrong-token', `${alice.csrf()}x`, bob.csrf()]) {
            const res = await alice.post(url, fields, { csrf });
            expect(res.statusCode, `${url} with ${csrf}`).toBe(403);
            expect(res.body).toContain('csrf_rejected');
          }
          // A cross-site form is refused even with the right token (Fetch Metadata).
          await alice.get('/portal/');
          const cross = await alice.post(url, fields, { headers: { 'sec-fetch-site': 'cross-site' } });
          expect(cross.statusCode).toBe(403);
        }
        // A reveal with a wrong token leaves the key waiting.
        await alice.get('/portal/');
        expect(
          (await alice.post(`/portal/applications/${pendingApplication}/reveal`, {}, { csrf: null }))
            .statusCode,
        ).toBe(403);
        expect((await t.deps.projects.list({ ownerEmail: ALICE.email })).map((p) => p.name)).toEqual([
          'Alice app',
        ]);
        expect((await t.deps.keys.get(aliceKeyId))?.state).toBe('active');
        expect(await t.deps.audit.list({ limit: 1000 })).toHaveLength(before.length);
        expect((await alice.get('/portal/')).statusCode).toBe(200);
      });

      it('in the console', async () => {
        for (const [url, fields] of consoleForms()) {
          await ops.get('/console/applications');
          for (const csrf of [null, 'wrong-token', alice.csrf()]) {
            const res = await ops.post(url, fields, { csrf });
            expect(res.statusCode, `${url} with ${csrf}`).toBe(403);
          }
        }
        expect((await t.deps.applications.get(pendingApplication))?.state).toBe('pending');
        const key = await t.deps.keys.get(aliceKeyId);
        expect(key).toMatchObject({ state: 'active', refreshAllowed: false, rateLimitRps: null });
        expect((await ops.get('/console/applications')).statusCode).toBe(200);
      });

      it('on the sign-in and sign-up forms (pre-session token)', async () => {
        const agent = new PageAgent(t.apps.production, '10.8.8.8');
        await agent.get('/portal/signin');
        expect((await agent.post('/portal/signin', ALICE, { csrf: null })).statusCode).toBe(403);
        expect((await agent.post('/portal/signin', ALICE, { csrf: 'forged' })).statusCode).toBe(403);
        await agent.get('/portal/signup');
        const signup = await agent.post(
          '/portal/signup',
          { email: 'mallory@example.com', password: 'mallory-pass-1' },
          { csrf: null },
        );
        expect(signup.statusCode).toBe(403);
        expect(await t.deps.developers.findByEmail('mallory@example.com')).toBeUndefined();
        await agent.get('/console/signin');
        expect((await agent.post('/console/signin', OPERATOR, { csrf: 'forged' })).statusCode).toBe(403);
      });

      it('and with the right token the same forms work', async () => {
        await ops.get(`/console/keys/${aliceKeyId}`);
        const res = await ops.post(`/console/keys/${aliceKeyId}/plan`, { rate: '7' });
        expect(res.statusCode).toBe(303);
        expect((await t.deps.keys.get(aliceKeyId))?.rateLimitRps).toBe(7);
      });
    });

    describe('pages', () => {
      it('are HTML with the strict headers, escape what users typed, and show HTML errors', async () => {
        await alice.get('/portal/projects/new');
        await alice.post('/portal/projects', { name: '<script>alert(1)</script>' });
        const page = await alice.get('/portal/');
        expect(page.body).not.toContain('<script>alert');
        expect(page.body).toContain('&lt;script&gt;');
        expect(page.headers).toMatchObject({
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        });
        expect(String(page.headers['content-security-policy'])).toContain("default-src 'none'");
        for (const [, url] of page.body.matchAll(/(?:src|href|action)="([^"]*)"/g))
          expect(url).toMatch(/^[/#]/);
        const bad = await alice.post('/portal/projects', {
          name: 'Bad',
          redirectUris: 'http://example.com/cb',
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.body).toContain('Redirect URI must use https unless its host is localhost');
        const missing = await alice.get('/portal/no-such-page');
        expect(missing.statusCode).toBe(404);
        expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      });

      it('reveal a key exactly once', async () => {
        const project = await alice.createProject('Once', [DEST]);
        await alice.apply(project, 'testing');
        const page = await alice.get(`/portal/projects/${project}`);
        const action = /action="(\/portal\/applications\/app_\w+\/reveal)"/.exec(page.body)?.[1] ?? '';
        const first = await alice.post(action);
        expect(first.statusCode).toBe(200);
        const secret = /id="secret">(vk_test_\w+)</.exec(first.body)?.[1] ?? '';
        expect(secret).not.toBe('');
        await alice.get(`/portal/projects/${project}`);
        const second = await alice.post(action);
        expect(second.statusCode).toBe(410);
        expect(second.body).not.toContain(secret);
        const rows = await t.database.db.all<Record<string, unknown>>('SELECT * FROM key_applications');
        expect(JSON.stringify(rows)).not.toContain(secret);
        expect(t.logs.join('')).not.toContain(secret);
        expect(t.logs.join('')).not.toContain(aliceSecret);
      });
    });

    describe('the audit log', () => {
      it('cannot be edited or deleted', async () => {
        await expect(t.database.db.run("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
        await expect(t.database.db.run('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      });

      it('records who, what, when and from where', async () => {
        const entries = await t.deps.audit.list({ actor: ALICE.email });
        const create = entries.find((e) => e.action === 'project.create' && e.targetId === aliceProject);
        expect(create).toMatchObject({
          actorKind: 'developer',
          actorEmail: ALICE.email,
          clientIp: '10.0.0.1',
        });
        const page = await ops.get(`/console/audit?action=project.create&actor=${ALICE.email}`);
        expect(page.body).toContain(aliceProject);
        expect(page.body).not.toContain('developer.signup');
      });
    });
  });
}
