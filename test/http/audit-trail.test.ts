import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/model.js';
import type { Actor } from '../../src/audit/service.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 14: every action of an operator (console/service.ts, shared with the CLI) and of a
 * developer (portal/service.ts) leaves its audit entry, naming who did it and to what. Each
 * expectation below fails when its `audit.record` is removed.
 */
const OPERATOR: Actor = { kind: 'operator', id: 'opr_audit', email: 'ops@example.com', ip: '192.0.2.1' };
const DEVELOPER_IP = '192.0.2.2';

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`audit trail on ${dialect}`, () => {
    let t: TestContext;
    let entries: AuditEntry[];
    const expected: { action: string; targetId: string | null; actorKind: string; detail?: object }[] = [];
    const expect_ = (action: string, targetId: string | null, actorKind: string, detail?: object) =>
      expected.push({ action, targetId, actorKind, ...(detail ? { detail } : {}) });

    beforeAll(async () => {
      t = await createTestContext(dialect);
      const d = t.deps;
      const ops = d.operatorActions;
      const dev = d.developerActions;

      // The developer's side (portal/service.ts).
      const developer = await dev.signup(
        { email: 'audited@example.com', password: 'audited-password-1' },
        (x) => ({
          kind: 'developer',
          id: x.id,
          email: x.email,
          ip: DEVELOPER_IP,
        }),
      );
      expect_('developer.signup', developer.id, 'developer');
      const me: Actor = { kind: 'developer', id: developer.id, email: developer.email, ip: DEVELOPER_IP };
      const project = await dev.createProject(me, developer.email, {
        name: 'Audited',
        description: '',
        redirectUris: ['https://app.example.com/callback'],
      });
      expect_('project.create', project.id, 'developer', { name: 'Audited' });
      const updated = await dev.updateProject(me, project, {
        name: 'Audited again',
        description: '',
        redirectUris: [],
      });
      expect_('project.update', project.id, 'developer', { name: 'Audited again' });
      const testing = await dev.apply(me, updated, { environment: 'testing', wantsRefresh: false });
      expect(testing.state).toBe('approved'); // AUTO_APPROVE_TESTING
      expect_('application.create', testing.id, 'developer', { environment: 'testing' });
      expect_('application.approve', testing.id, 'system', { automatic: true });
      const revealed = await dev.reveal(me, developer.id, testing.id);
      if (typeof revealed === 'string') throw new Error(`reveal: ${revealed}`);
      expect_('key.reveal', revealed.key.id, 'developer', { applicationId: testing.id });
      const own = { key: revealed.key, project: updated };
      await dev.rollKey(me, own, 'none');
      expect_('key.roll', revealed.key.id, 'developer', { overlap: 'none' });
      await dev.revokeKey(me, own);
      expect_('key.revoke', revealed.key.id, 'developer');
      const publishable = await dev.issuePublishable(me, updated, {
        environment: 'testing',
        allowedOrigins: ['https://shop.example'],
        fixedFilters: {},
      });
      expect_('key.issue', publishable.record.id, 'developer', { kind: 'publishable' });

      // The operator's side (console/service.ts, the console and the CLI).
      await d.developers.markVerified(developer.id);
      const production = await dev.apply(me, updated, { environment: 'production', wantsRefresh: true });
      expect_('application.create', production.id, 'developer', { environment: 'production' });
      const approved = await ops.approve(OPERATOR, production.id, { grantRefresh: true });
      const keyId = approved.keyId as string;
      expect_('application.approve', production.id, 'operator', { keyId });
      expect_('key.grant_refresh', keyId, 'operator', { applicationId: production.id });
      const refused = await dev.apply(me, updated, { environment: 'production', wantsRefresh: false });
      expect_('application.create', refused.id, 'developer', { wantsRefresh: false });
      await ops.reject(OPERATOR, refused.id, 'not now');
      expect_('application.reject', refused.id, 'operator');
      await ops.revokeRefresh(OPERATOR, keyId);
      expect_('key.revoke_refresh', keyId, 'operator');
      await ops.grantRefresh(OPERATOR, keyId);
      expect_('key.grant_refresh', keyId, 'operator');
      await ops.grantWrite(OPERATOR, keyId);
      expect_('key.grant_write', keyId, 'operator');
      await ops.revokeWrite(OPERATOR, keyId);
      expect_('key.revoke_write', keyId, 'operator');
      await ops.setPlan(OPERATOR, keyId, 7);
      expect_('key.set_plan', keyId, 'operator', { rateLimitRps: 7 });
      await ops.rollKey(OPERATOR, keyId, '1h');
      expect_('key.roll', keyId, 'operator', { overlap: '1h' });
      await ops.revoke(OPERATOR, keyId);
      expect_('key.revoke', keyId, 'operator');
      // The CLI's creations (and the demo's operator) go through the same actions.
      const created = await ops.addDeveloper(OPERATOR, { email: 'created@example.com' });
      expect_('developer.create', created.id, 'operator', { email: 'created@example.com' });
      const cliProject = await ops.addProject(OPERATOR, {
        name: 'By CLI',
        ownerEmail: 'created@example.com',
      });
      expect_('project.create', cliProject.id, 'operator', { name: 'By CLI' });
      const cliKey = await ops.issueKey(OPERATOR, { projectId: cliProject.id, environment: 'testing' });
      expect_('key.issue', cliKey.record.id, 'operator', {
        projectId: cliProject.id,
        environment: 'testing',
      });
      const third = await ops.addOperator(OPERATOR, {
        email: 'third@example.com',
        password: 'third-password-1',
      });
      expect_('operator.create', third.id, 'operator', { email: 'third@example.com' });
      const first = await d.operators.add({ email: 'first@example.com', password: 'first-password-1' });
      const second = await d.operators.add({ email: 'second@example.com', password: 'second-password-1' });
      await ops.setOperatorPassword(OPERATOR, first.id, 'another-password-1');
      expect_('operator.set_password', first.id, 'operator');
      await ops.disableOperator(OPERATOR, second.id);
      expect_('operator.disable', second.id, 'operator');
      // Sign-in, sign-out and a failed sign-in, through the pages (web/session-area.ts).
      const browser = new PageAgent(t.apps.production);
      expect((await browser.signIn('portal', 'audited@example.com', 'wrong-password-1')).statusCode).toBe(
        401,
      );
      expect_('developer.signin_failed', null, 'developer');
      expect((await browser.signIn('portal', 'audited@example.com', 'audited-password-1')).statusCode).toBe(
        303,
      );
      expect_('developer.signin', developer.id, 'developer');
      await browser.get('/portal/');
      expect((await browser.post('/portal/signout')).statusCode).toBe(303);
      expect_('developer.signout', null, 'developer');
      await ops.disableDeveloper(OPERATOR, developer.id);
      expect_('developer.disable', developer.id, 'operator');
      await ops.unlockLogin(OPERATOR, 'portal:audited@example.com');
      expect_('login.unlock', 'portal:audited@example.com', 'operator');

      entries = await d.audit.list({ limit: 1000 });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('writes one entry per action, naming the actor and the target', () => {
      const missing = expected.filter(
        (e) =>
          !entries.some(
            (entry) =>
              entry.action === e.action &&
              entry.targetId === e.targetId &&
              entry.actorKind === e.actorKind &&
              (!e.detail || Object.entries(e.detail).every(([k, v]) => entry.detail[k] === v)),
          ),
      );
      expect(missing).toEqual([]);
      expect(entries).toHaveLength(expected.length);
    });

    it('names the operator and the client address', () => {
      const operatorEntries = entries.filter((e) => e.actorKind === 'operator');
      expect(operatorEntries.length).toBeGreaterThan(10);
      for (const e of operatorEntries)
        expect([e.actorId, e.actorEmail, e.clientIp]).toEqual(['opr_audit', 'ops@example.com', '192.0.2.1']);
    });
  });
}
