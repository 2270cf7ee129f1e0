import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';
import { Receiver } from './receiver.js';

/**
 * The portal's Webhooks pages (issue 24): add (the secret shown once), the delivery log with
 * event, attempts, status and latency, "Resend", rotation, removal; another developer sees
 * nothing of them; every action audited.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`portal webhooks on ${dialect}`, () => {
    let t: TestContext;
    let dev: PageAgent;
    let receiver: Receiver;
    let project: string;

    beforeAll(async () => {
      t = await createTestContext(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      receiver = new Receiver();
      await receiver.start();
      dev = new PageAgent(t.apps.production, '10.2.0.1');
      await dev.signUp('hooks@example.com', 'hooks-portal-pw-1');
      project = await dev.createProject('Hooked');
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.close();
    });

    it('adds an endpoint, logs deliveries, resends, rotates and removes', async () => {
      const list = await dev.get(`/portal/projects/${project}/webhooks`);
      expect(list.statusCode).toBe(200);
      const bad = await dev.post(`/portal/projects/${project}/webhooks`, {
        environment: 'production',
        url: 'http://hooks.example.com/x',
      });
      expect(bad.statusCode).toBe(400); // the form again, with the reason: https only in production
      expect(bad.body).toContain('must be https');
      const added = await dev.post(`/portal/projects/${project}/webhooks`, {
        environment: 'testing',
        url: receiver.url,
        'event.key.revoked': 'yes',
      });
      expect(added.statusCode).toBe(200);
      const secret = /whsec_[A-Za-z0-9+/=]+/.exec(added.body)?.[0];
      expect(secret).toBeDefined();
      const [endpoint] = await t.deps.webhooks.service.list({ projectId: project });
      expect(endpoint?.eventTypes).toEqual(['key.revoked']);
      const page = `/portal/projects/${project}/webhooks/${endpoint?.id}`;
      expect((await dev.get(page)).body).not.toContain('whsec_');

      receiver.plan = [500];
      await dev.post(`${page}/test`);
      await t.deps.webhooks.dispatcher.runOnce();
      const log = await dev.get(page);
      expect(log.body).toContain('webhook.test');
      expect(log.body).toMatch(
        /<td data-label="Attempts">1<\/td><td data-label="Status">500<\/td><td data-label="Latency">\d+ ms<\/td>/,
      );
      const [delivery] = await t.deps.webhooks.service.deliveries({ projectId: project }, endpoint?.id ?? '');
      // Failed for good (a schedule of none left): Resend queues it again with the same id.
      await t.deps.db.run("UPDATE webhook_deliveries SET state = 'failed' WHERE id = ?", [
        delivery?.id ?? '',
      ]);
      await dev.get(page);
      const resent = await dev.post(`${page}/deliveries/${delivery?.id}/resend`);
      expect(resent.statusCode).toBe(303);
      await t.deps.webhooks.dispatcher.runOnce();
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery?.id, delivery?.id]);
      expect((await dev.get(page)).body).toMatch(
        /<td data-label="Attempts">2<\/td><td data-label="Status">204<\/td>/,
      );

      const rotated = await dev.post(`${page}/rotate`);
      expect(rotated.body).toMatch(/whsec_/);
      expect(rotated.body).not.toContain(secret);

      // Another developer: not found, exactly like an unknown endpoint.
      const other = new PageAgent(t.apps.production, '10.2.0.2');
      await other.signUp('other@example.com', 'other-portal-pw-1');
      expect((await other.get(page)).statusCode).toBe(404);

      await dev.get(page);
      expect((await dev.post(`${page}/remove`)).statusCode).toBe(303);
      expect(await t.deps.webhooks.service.list({ projectId: project })).toEqual([]);
      const actions = (await t.deps.audit.list({ target: endpoint?.id })).map((e) => e.action).sort();
      expect(actions).toEqual(
        ['webhook.add', 'webhook.remove', 'webhook.resend', 'webhook.rotate_secret', 'webhook.test'].sort(),
      );
    });
  });
}
