import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { confirmDeveloperEmail, PageAgent } from '../support/portal.js';

/**
 * The portal and console doing their job (issue 5), on both backends: editing a project,
 * a rejected application with its reason, a production key through approval, operator key
 * actions, search, usage, and AUTO_APPROVE_TESTING=false.
 */
const DEV = { email: 'erin@example.com', password: 'erin-portal-pw-1' };
const OPS = { email: 'olga@example.com', password: 'olga-console-pw1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`portal and console flows on ${dialect}`, () => {
    let t: TestContext;
    let dev: PageAgent;
    let ops: PageAgent;
    let project: string;

    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.operators.add(OPS);
      dev = new PageAgent(t.apps.production, '10.1.0.1');
      ops = new PageAgent(t.apps.production, '10.1.0.2');
      await dev.signUp(DEV.email, DEV.password);
      await confirmDeveloperEmail(t.deps, DEV.email);
      await ops.signIn('console', OPS.email, OPS.password);
      project = await dev.createProject('Erin maps', ['http://localhost:3000/cb']);
    });
    afterAll(async () => {
      await t.close();
    });

    it('edits a project: name, website and redirect destinations, validated and audited', async () => {
      const form = await dev.get(`/portal/projects/${project}/edit`);
      expect(form.body).toContain('http://localhost:3000/cb');
      const bad = await dev.post(`/portal/projects/${project}`, {
        name: 'Erin maps',
        redirectUris: 'https://erin.example.com/cb?x=1',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('without a query');
      await dev.get(`/portal/projects/${project}/edit`);
      const ok = await dev.post(`/portal/projects/${project}`, {
        name: 'Erin Maps 2',
        description: 'Maps of offers',
        website: 'https://erin.example.com',
        redirectUris: 'HTTPS://Erin.Example.com:443/cb\nhttp://localhost:3000/cb\n',
      });
      expect(ok.statusCode).toBe(303);
      expect(await t.deps.projects.get(project)).toMatchObject({
        name: 'Erin Maps 2',
        description: 'Maps of offers',
        website: 'https://erin.example.com/',
        redirectUris: expect.arrayContaining(['https://erin.example.com/cb', 'http://localhost:3000/cb']),
      });
      // The message shows once, on the page the form redirected to; a reload shows it no more.
      const page = await dev.get(String(ok.headers.location));
      expect(page.body).toContain('Project saved.');
      expect((await dev.get(String(ok.headers.location))).body).not.toContain('Project saved.');
      expect((await dev.get(`/portal/projects/${project}?done=saved`)).body).not.toContain('Project saved.');
      expect((await t.deps.audit.list({ action: 'project.update' }))[0]?.targetId).toBe(project);
    });

    it('shows a rejected application with its reason', async () => {
      await dev.apply(project, 'production');
      const [pending] = await t.deps.applications.list({ state: 'pending' });
      expect((await dev.get('/portal/')).body).toContain(
        'Erin Maps 2</a></td><td data-label="Active keys">0</td><td data-label="Pending applications"><span class="state state-pending">pending</span> 1</td>',
      );
      await ops.get('/console/applications');
      expect(ops.lastBody).toContain('Erin Maps 2');
      const missingReason = await ops.post(`/console/applications/${pending?.id}/reject`, { reason: '  ' });
      expect(missingReason.statusCode).toBe(400);
      await ops.get('/console/applications');
      expect(
        (await ops.post(`/console/applications/${pending?.id}/reject`, { reason: 'Website unreachable' }))
          .statusCode,
      ).toBe(303);
      expect((await dev.get('/portal/')).body).toContain(
        'Erin Maps 2</a></td><td data-label="Active keys">0</td><td data-label="Pending applications">none</td>',
      );
      const page = await dev.get(`/portal/projects/${project}`);
      expect(page.body).toContain('state-rejected');
      expect(page.body).toContain('Rejected: Website unreachable');
      await ops.get('/console/applications');
      expect((await ops.post(`/console/applications/${pending?.id}/approve`, {})).statusCode).toBe(409);
    });

    it('approves without the refresh permission unless asked, and the operator acts on the key', async () => {
      await dev.apply(project, 'production', true, 'background sync');
      await ops.get('/console/applications');
      const id = /\/console\/applications\/(app_\w+)\/approve/.exec(ops.lastBody)?.[1] ?? '';
      expect((await ops.post(`/console/applications/${id}/approve`, {})).statusCode).toBe(303);
      const secret = await dev.reveal(project);
      const key = (await t.deps.applications.get(id))?.keyId ?? '';
      expect((await t.deps.keys.get(key))?.refreshAllowed).toBe(false);
      expect(
        (await t.apps.production.inject({ url: '/v1/offers/', headers: { 'x-api-key': secret } })).statusCode,
      ).toBe(200);

      // Destructive actions go through a confirmation page that wants the key id typed in.
      for (const action of ['revoke-refresh', 'revoke']) {
        await ops.get(`/console/keys/${key}/${action}`);
        expect(ops.lastBody).toContain(`To confirm, type <code>${key}</code>`);
        const unconfirmed = await ops.post(`/console/keys/${key}/${action}`, { confirm: 'yes' });
        expect(unconfirmed.statusCode).toBe(400);
        expect(unconfirmed.body).toContain('Nothing was changed');
      }
      expect(await t.deps.keys.get(key)).toMatchObject({ state: 'active' });
      for (const [action, fields, check] of [
        ['grant-refresh', {}, { refreshAllowed: true }],
        ['revoke-refresh', { confirm: key }, { refreshAllowed: false }],
        ['plan', { rate: '25' }, { rateLimitRps: 25 }],
        ['plan', { rate: '' }, { rateLimitRps: null }],
        ['revoke', { confirm: ` ${key} ` }, { state: 'revoked' }],
      ] as const) {
        await ops.get(`/console/keys/${key}`);
        const res = await ops.post(`/console/keys/${key}/${action}`, fields);
        expect(res.statusCode, action).toBe(303);
        expect(await t.deps.keys.get(key)).toMatchObject(check);
      }
      const page = await dev.get(`/portal/keys/${key}`);
      expect(page.body).toContain('state-revoked');
      const actions = (await t.deps.audit.list({ target: key })).map((e) => e.action).reverse();
      expect(actions).toEqual([
        'key.reveal',
        'key.grant_refresh',
        'key.revoke_refresh',
        'key.set_plan',
        'key.set_plan',
        'key.revoke',
      ]);
    });

    it('shows where the API is, reveals a key as a warning with a copy affordance, and confirms a revoke', async () => {
      const own = await dev.createProject('Quickstart app');
      await dev.apply(own, 'testing');
      const reveal = await dev.get(`/portal/projects/${own}`);
      expect(reveal.body).toContain('Reveal key');
      const secret = await dev.reveal(own);
      const shown = dev.lastBody;
      expect(shown).toContain('<div class="warning" role="alert"><strong>Store this key now.</strong>');
      expect(shown).toContain('<button type="button" class="copy" data-copy="secret" hidden>Copy</button>');
      expect(shown).toContain('<script src="/portal/assets/copy.js" defer></script>');
      const script = await dev.get('/portal/assets/copy.js');
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      const [key] = await t.deps.keys.list({ projectId: own });
      const page = await dev.get(`/portal/projects/${own}`);
      for (const url of [
        'http://localhost:8080/v1',
        'http://localhost:8081/v1',
        'http://localhost:8081/auth',
      ]) {
        expect(page.body).toContain(`<code>${url}</code>`);
      }
      expect(page.body).toContain(`key <code>${key?.id}</code>`);
      expect(page.body).toContain(
        'curl -s -H "X-Api-Key: $VITRINE_KEY" \'http://localhost:8081/v1/offers/?q=bike&amp;limit=3\'',
      );
      expect(page.body).toContain("new Vitrine({ baseUrl: 'http://localhost:8081/v1'");
      expect(page.body).not.toContain(secret);
      expect((await dev.get(`/portal/keys/${key?.id}`)).body).not.toContain(secret);

      // Revoking needs the confirmation page's typed key id; without it nothing changes.
      const confirm = await dev.get(`/portal/keys/${key?.id}/revoke`);
      expect(confirm.body).toContain(`To confirm, type <code>${key?.id}</code>`);
      const refused = await dev.post(`/portal/keys/${key?.id}/revoke`, { confirm: 'revoke' });
      expect(refused.statusCode).toBe(400);
      expect((await t.deps.keys.get(key?.id ?? ''))?.state).toBe('active');
      const done = await dev.post(`/portal/keys/${key?.id}/revoke`, { confirm: key?.id ?? '' });
      expect(done.statusCode).toBe(303);
      expect((await t.deps.keys.get(key?.id ?? ''))?.state).toBe('revoked');
      expect((await dev.get(String(done.headers.location))).body).toContain('Key revoked.');
      expect((await dev.get(String(done.headers.location))).body).not.toContain('Key revoked.');
    });

    it('pages console lists 50 at a time with their counts', async () => {
      for (let i = 0; i < 55; i += 1) await t.deps.developers.add({ email: `paged${i}@example.com` });
      const total = (await t.deps.audit.count({})) + 0;
      const first = await ops.get('/console/developers?q=paged');
      expect(first.body).toContain('<span>1–50 of 55</span>');
      expect(first.body).toContain('<a rel="next" href="/console/developers?q=paged&amp;page=2">Next</a>');
      expect(first.body.match(/paged\d+@example.com<\/a>/g)).toHaveLength(50);
      const second = await ops.get('/console/developers?q=paged&page=2');
      expect(second.body).toContain('<span>51–55 of 55</span>');
      expect(second.body).toContain('<a rel="prev" href="/console/developers?q=paged">Previous</a>');
      expect(second.body).not.toContain('rel="next"');
      expect(second.body.match(/paged\d+@example.com<\/a>/g)).toHaveLength(5);
      const audit = await ops.get('/console/audit');
      expect(audit.body).toContain(`of ${total.toLocaleString('en-US')}</span>`);
      expect((await ops.get('/console/developers?page=abc')).body).toContain('<span>1–');
    });

    it('searches keys, projects and developers, and shows usage per key', async () => {
      const [testingKey] = await t.deps.keys.list({
        projectId: t.fixtures.projectId,
        environment: 'testing',
      });
      for (let i = 0; i < 3; i += 1) {
        await t.apps.testing.inject({
          url: '/v1/offers/',
          headers: { 'x-api-key': t.fixtures.keys.testing.key },
        });
      }
      await t.deps.usageMeter?.stop();
      for (const q of [t.fixtures.projectId, testingKey?.id ?? '']) {
        const res = await ops.get(`/console/keys?q=${encodeURIComponent(q)}`);
        expect(res.body).toContain(testingKey?.id);
      }
      expect((await ops.get('/console/keys?q=%25_%25')).body).toContain('No key yet.');
      expect((await ops.get('/console/projects?q=erin%40example')).body).toContain('Erin Maps 2');
      expect((await ops.get('/console/projects?q=nothing-like-this')).body).toContain('No project matches.');
      expect((await ops.get('/console/developers?q=ERIN')).body).toContain(DEV.email);
      const usage = await ops.get(`/console/keys/${testingKey?.id}`);
      expect(usage.body).toContain('<svg role="img"');
      expect((await ops.get(`/console/keys/${t.fixtures.keys.production.id}`)).body).toContain(
        '0 requests in the last 30 days',
      );
      expect(usage.body).toContain('3 requests in the last 30 days');
      expect(usage.body).toContain(
        '<td data-label="Day">2026-11-01</td><td data-label="Requests">3</td><td data-label="Errors">0</td>',
      );
    });

    it('holds testing applications for the operator when AUTO_APPROVE_TESTING=false', async () => {
      const held = await createTestContext(dialect, { AUTO_APPROVE_TESTING: 'false' });
      try {
        const agent = new PageAgent(held.apps.production);
        await agent.signUp('frank@example.com', 'frank-portal-pw1');
        const id = await agent.createProject('Frank');
        const page = await agent.apply(id, 'testing');
        expect(page.body).toContain('state-pending');
        expect(await held.deps.keys.list({ projectId: id })).toHaveLength(0);
      } finally {
        await held.close();
      }
    });
  });
}
