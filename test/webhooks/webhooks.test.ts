import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { generateOffers } from '../../src/offers/seed.js';
import { loginTokens } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { Receiver } from './receiver.js';

/**
 * Issue 24 with a real receiver: a local HTTP server on loopback (WEBHOOK_ALLOW_PRIVATE=true in
 * this file's config). The dispatcher is driven pass by pass (`runOnce`) and the injected clock
 * is moved for retries: nothing sleeps beyond waiting for the real receiver.
 */
const USER = { email: 'alerts@example.com', password: 'alerts-password-1' };

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`webhooks on ${dialect}`, () => {
    let t: TestContext;
    let receiver: Receiver;
    let secret: string;
    let endpointId: string;
    const key = () => t.fixtures.keys.testing.key;
    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, apiKey = key()) =>
      t.apps.testing.inject({
        method,
        url,
        headers: { 'x-api-key': apiKey },
        ...(payload ? { payload } : {}),
      });
    const dispatch = () => t.deps.webhooks.dispatcher.runOnce();

    beforeAll(async () => {
      t = await createTestContext(dialect, {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '5s,30s',
      });
      // standardwebhooks checks the timestamp against real time (5 minutes): the clock starts now.
      t.clock.set(Date.now());
      receiver = new Receiver();
      await receiver.start();
      const created = await api('POST', '/v1/webhooks', { url: receiver.url });
      expect(created.statusCode).toBe(201);
      ({ id: endpointId, secret } = created.json() as { id: string; secret: string });
      expect(secret).toMatch(/^whsec_/);
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.close();
    });
    beforeEach(async () => {
      await dispatch(); // nothing left over from the test before
      receiver.received.length = 0;
      receiver.plan = [];
    });

    it('lists the endpoint without its secret, and stores the secret only sealed', async () => {
      const listed = await api('GET', '/v1/webhooks');
      expect(listed.statusCode).toBe(200);
      expect(JSON.stringify(listed.json())).not.toContain('whsec_');
      const row = await t.deps.db.get<{ secret_sealed: string }>(
        'SELECT secret_sealed FROM webhook_endpoints WHERE id = ?',
        [endpointId],
      );
      expect(row?.secret_sealed).toMatch(/^v1\./);
      expect(row?.secret_sealed).not.toContain(secret.slice(6, 20));
    });

    it('signs a test event so that standardwebhooks verifies it', async () => {
      const test = await api('POST', `/v1/webhooks/${endpointId}/test`);
      expect(test.statusCode).toBe(202);
      expect(await dispatch()).toBe(1);
      const [got] = receiver.of('webhook.test');
      expect(got?.headers['webhook-id']).toBe((test.json() as { messageId: string }).messageId);
      const payload = new Webhook(secret).verify(got?.body ?? '', got?.headers as Record<string, string>);
      expect(payload).toMatchObject({ type: 'webhook.test', data: { endpointId } });
      // A wrong secret does not verify.
      expect(() =>
        new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(
          got?.body ?? '',
          got?.headers as Record<string, string>,
        ),
      ).toThrow();
    });

    it('a receiver failing twice gets the event on the third try, with the same webhook-id', async () => {
      receiver.plan = [500, 503];
      const { messageId } = (await api('POST', `/v1/webhooks/${endpointId}/test`)).json() as {
        messageId: string;
      };
      expect(await dispatch()).toBe(1);
      expect(await dispatch()).toBe(0); // the retry is not due yet
      t.clock.advance(5_000);
      expect(await dispatch()).toBe(1);
      t.clock.advance(29_000);
      expect(await dispatch()).toBe(0);
      t.clock.advance(1_000);
      expect(await dispatch()).toBe(1);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(1);
      expect(ids[0]).toBe(messageId);
      const log = await t.deps.webhooks.service.deliveries({ projectId: t.fixtures.projectId }, endpointId);
      expect(log.find((d) => d.id === messageId)).toMatchObject({
        state: 'delivered',
        attempts: 3,
        lastStatus: 204,
      });
      // Verifiable on the third try too (a fresh timestamp, signed again).
      new Webhook(secret).verify(
        receiver.received[2]?.body ?? '',
        receiver.received[2]?.headers as Record<string, string>,
      );
    });

    it('gives up after the schedule, then "resend" delivers it with the same id', async () => {
      receiver.plan = [500, 500, 500];
      const { messageId } = (await api('POST', `/v1/webhooks/${endpointId}/test`)).json() as {
        messageId: string;
      };
      await dispatch();
      t.clock.advance(5_000);
      await dispatch();
      t.clock.advance(30_000);
      await dispatch();
      const scope = { projectId: t.fixtures.projectId };
      const log = await t.deps.webhooks.service.deliveries(scope, endpointId);
      expect(log.find((d) => d.id === messageId)).toMatchObject({
        state: 'failed',
        attempts: 3,
      });
      const actor = { kind: 'cli' as const, id: null, email: null, ip: null };
      await t.deps.webhooks.service.resend(actor, scope, endpointId, messageId);
      await dispatch();
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(Array(4).fill(messageId));
    });

    it('records key.revoked and key.rolled with the change, and application events', async () => {
      const issued = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.roll(issued.record.id, 0);
      await t.deps.keys.revoke(issued.record.id);
      await dispatch();
      expect(receiver.of('key.rolled').map((r) => JSON.parse(r.body).data.keyId)).toEqual([issued.record.id]);
      expect(receiver.of('key.revoked').map((r) => JSON.parse(r.body).data.keyId)).toEqual([
        issued.record.id,
      ]);
      // Testing applications are approved at once by the system: the event comes with it.
      const application = await t.deps.applications.apply({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        wantsRefresh: false,
      });
      await dispatch();
      expect(receiver.of('application.approved').map((r) => JSON.parse(r.body).data.applicationId)).toEqual([
        application.id,
      ]);
    });

    it('key.expiring: once per key, 7 days before its expiry', async () => {
      const expiresAt = t.clock.now() + 10 * 86_400_000;
      const issued = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        expiresAt,
      });
      expect(await t.deps.webhooks.checkKeyExpiry()).toBe(0);
      t.clock.advance(3 * 86_400_000 + 1);
      expect(await t.deps.webhooks.checkKeyExpiry()).toBe(1);
      expect(await t.deps.webhooks.checkKeyExpiry()).toBe(0);
      await dispatch();
      expect(receiver.of('key.expiring').map((r) => JSON.parse(r.body).data.keyId)).toEqual([
        issued.record.id,
      ]);
    });

    it('saved_search.matched: a new matching offer alerts once; others and old offers never', async () => {
      await t.deps.users.add({ environment: 'testing', ...USER });
      const { jwt } = await loginTokens(t.apps.testing, key(), USER);
      const [first, second, third] = [...generateOffers({ count: 3, seed: 24 })] as [
        OfferInput,
        OfferInput,
        OfferInput,
      ];
      // An offer written before the search was saved never alerts it.
      await t.deps.offers.upsertMany('testing', [
        { ...first, title: 'Walnut desk, before', category: 'desks' },
      ]);
      const saved = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/me/saved-searches',
        headers: { 'x-api-key': key(), authorization: `Bearer ${jwt}` },
        payload: { name: 'Desks', query: { q: 'walnut', category: ['desks'] }, alerts: true },
      });
      expect(saved.statusCode).toBe(201);
      expect(saved.json()).toMatchObject({ alerts: true });
      const searchId = (saved.json() as { id: string }).id;
      await t.deps.offers.upsertMany('testing', [
        { ...first, title: 'Walnut desk, before, edited', category: 'desks' },
        { ...second, title: 'Walnut desk, new', category: 'desks' },
        { ...third, title: 'Oak desk, new', category: 'desks' },
      ]);
      // Many saved searches that cannot match: filed under their words, never run for these offers.
      const userId = (
        await t.deps.db.get<{ id: string }>('SELECT id FROM users WHERE email = ?', [USER.email])
      )?.id;
      for (let i = 0; i < 200; i += 1) {
        await t.deps.db.run(
          "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES (?, ?, 'other', ?, ?, 1, ?, 'testing', 0)",
          [
            `svs_other${i}`,
            userId ?? '',
            JSON.stringify({ q: `zebra${i}` }),
            t.clock.now(),
            t.fixtures.projectId,
          ],
        );
      }
      const before = t.deps.webhooks.percolator.stats().checked;
      expect(await t.deps.webhooks.percolator.runOnce()).toBe(2);
      // Only the two offers carrying `walnut` were checked against the one search filed under it.
      expect(t.deps.webhooks.percolator.stats().checked - before).toBe(2);
      // Written again: the pair is remembered, no second alert.
      await t.deps.offers.upsertMany('testing', [
        { ...second, title: 'Walnut desk, new, cheaper', category: 'desks' },
      ]);
      expect(await t.deps.webhooks.percolator.runOnce()).toBe(0);
      await dispatch();
      const alerts = receiver.of('saved_search.matched').map((r) => JSON.parse(r.body).data);
      expect(alerts).toHaveLength(2);
      for (const a of alerts) expect(a.savedSearch.id).toBe(searchId);
      expect(alerts.map((a) => a.offer.title).sort()).toEqual([
        'Walnut desk, before, edited',
        'Walnut desk, new',
      ]);
    });

    it('saved_search.matched: once per user and offer, whatever the number of their searches it matches', async () => {
      const users = ['usr_once_a', 'usr_once_b'];
      for (const id of users)
        await t.deps.db.run(
          "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES (?, 'testing', ?, '', 'x', 'active', 0, 0)",
          [id, `${id}@example.com`],
        );
      const save = (id: string, userId: string, q: string) =>
        t.deps.db.run(
          "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES (?, ?, 'once', ?, ?, 1, ?, 'testing', 0)",
          [id, userId, JSON.stringify({ q }), t.clock.now(), t.fixtures.projectId],
        );
      // User a: two searches the offer matches; user b: one.
      await save('svs_once_a1', 'usr_once_a', 'zircon lamp');
      await save('svs_once_a2', 'usr_once_a', 'zircon');
      await save('svs_once_b1', 'usr_once_b', 'lamp zircon');
      const [offer, later] = [...generateOffers({ count: 2, seed: 26 })].map((o) => ({
        ...o,
        status: 'active' as const,
        expiresAt: null,
      })) as [OfferInput, OfferInput];
      await t.deps.offers.upsertMany('testing', [{ ...offer, title: 'Zircon lamp' }]);
      expect(await t.deps.webhooks.percolator.runOnce()).toBe(2);
      // A third search of user a, saved later, matching the offer written again: remembered, not sent.
      await save('svs_once_a3', 'usr_once_a', 'lamp');
      await t.deps.offers.upsertMany('testing', [
        { ...offer, title: 'Zircon lamp, cheaper' },
        { ...later, title: 'Zircon vase' },
      ]);
      expect(await t.deps.webhooks.percolator.runOnce()).toBe(1);
      await dispatch();
      const alerts = receiver
        .of('saved_search.matched')
        .map((r) => JSON.parse(r.body).data as { user: { id: string }; offer: { title: string } })
        .map((a) => `${a.user.id} ${a.offer.title}`)
        .sort();
      expect(alerts).toEqual(['usr_once_a Zircon lamp', 'usr_once_a Zircon vase', 'usr_once_b Zircon lamp']);
      const pairs = await t.deps.db.all<{ saved_search_id: string }>(
        "SELECT saved_search_id FROM saved_search_matches WHERE saved_search_id LIKE 'svs_once_%' ORDER BY saved_search_id",
      );
      // Every pair is remembered, sent or not: a3's lamp too.
      expect(pairs.map((p) => p.saved_search_id)).toEqual([
        'svs_once_a1',
        'svs_once_a2',
        'svs_once_a2',
        'svs_once_a3',
        'svs_once_b1',
      ]);
    });

    it("saved_search.matched applies the environment's synonyms", async () => {
      const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
      const user = { email: 'sofas@example.com', password: 'sofas-password-1' };
      await t.deps.users.add({ environment: 'testing', ...user });
      const { jwt } = await loginTokens(t.apps.testing, key(), user);
      await t.deps.synonyms.add(actor, 'testing', ['sofa', 'couch'], false);
      const saved = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/me/saved-searches',
        headers: { 'x-api-key': key(), authorization: `Bearer ${jwt}` },
        payload: { name: 'Sofas', query: { q: 'leather sofa', priceMax: '500' }, alerts: true },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const [a, b, c] = [...generateOffers({ count: 3, seed: 25 })] as [OfferInput, OfferInput, OfferInput];
      const price = (amount: string) => ({ amount, currency: 'EUR' });
      await t.deps.offers.upsertMany('testing', [
        { ...a, title: 'Leather couch, four seats', price: price('400.00') },
        { ...b, title: 'Leather couch, two seats', price: price('900.00') },
        { ...c, title: 'Leather armchair', price: price('100.00') },
      ]);
      expect(await t.deps.webhooks.percolator.runOnce()).toBe(1);
      await dispatch();
      expect(receiver.of('saved_search.matched').map((r) => JSON.parse(r.body).data.offer.title)).toEqual([
        'Leather couch, four seats',
      ]);
    });

    it('during a rotation both signatures are sent: the old and the new secret verify', async () => {
      t.clock.set(Date.now()); // standardwebhooks checks the timestamp against real time
      const scope = { projectId: t.fixtures.projectId };
      const actor = { kind: 'cli' as const, id: null, email: null, ip: null };
      const { secret: rotated } = await t.deps.webhooks.service.rotateSecret(actor, scope, endpointId);
      await api('POST', `/v1/webhooks/${endpointId}/test`);
      await dispatch();
      const [got] = receiver.received;
      const headers = got?.headers as Record<string, string>;
      expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
      new Webhook(rotated).verify(got?.body ?? '', headers);
      new Webhook(secret).verify(got?.body ?? '', headers);
      // After the overlap (24 h by default), only the new one.
      await t.deps.db.run('UPDATE webhook_endpoints SET previous_secret_until = ? WHERE id = ?', [
        t.clock.now() - 1,
        endpointId,
      ]);
      await api('POST', `/v1/webhooks/${endpointId}/test`);
      await dispatch();
      const last = receiver.received[1];
      expect(() =>
        new Webhook(secret).verify(last?.body ?? '', last?.headers as Record<string, string>),
      ).toThrow();
      new Webhook(rotated).verify(last?.body ?? '', last?.headers as Record<string, string>);
      secret = rotated;
    });

    it('import.completed after an HTTP import of the project', async () => {
      const writer = await t.deps.keys.issue({ projectId: t.fixtures.projectId, environment: 'testing' });
      await t.deps.keys.grantWrite(writer.record.id);
      const [offer] = [...generateOffers({ count: 1, seed: 7 })];
      const response = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/offers/import',
        headers: { 'x-api-key': writer.key, 'content-type': 'application/x-ndjson' },
        payload: `${JSON.stringify({ ...offer, publishedAt: new Date(t.clock.now()).toISOString(), expiresAt: null })}\n{"bad":\n`,
      });
      expect(response.statusCode, response.body).toBe(200);
      await dispatch();
      expect(receiver.of('import.completed').map((r) => JSON.parse(r.body).data)).toEqual([
        { created: 1, updated: 0, unchanged: 0, failed: 1 },
      ]);
    });

    it('/metrics shows deliveries by outcome, the queue depth and the oldest pending age', async () => {
      receiver.plan = [500];
      await api('POST', `/v1/webhooks/${endpointId}/test`);
      await dispatch();
      const metrics = await t.deps.metrics.registry.metrics();
      expect(metrics).toMatch(/vitrine_webhook_deliveries_total\{outcome="retry"\} [1-9]/);
      expect(metrics).toMatch(/vitrine_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
      expect(metrics).toMatch(/vitrine_webhook_queue_depth 1\b/);
      expect(metrics).toMatch(/vitrine_webhook_oldest_pending_seconds \d/);
      t.clock.advance(5_000);
      await dispatch();
    });

    it('an endpoint failing for 5 days is disabled, and says why', async () => {
      const actor = { kind: 'cli' as const, id: null, email: null, ip: null };
      const scope = { projectId: t.fixtures.projectId, environment: 'testing' as const };
      const { endpoint } = await t.deps.webhooks.service.add(actor, scope, {
        url: `${receiver.url}/failing`,
      });
      receiver.plan = Array(10).fill(500);
      await t.deps.webhooks.service.test(actor, scope, endpoint.id);
      await dispatch();
      t.clock.advance(4 * 86_400_000);
      await t.deps.webhooks.service.test(actor, scope, endpoint.id);
      await dispatch();
      expect((await t.deps.webhooks.service.get(scope, endpoint.id)).state).toBe('enabled');
      t.clock.advance(86_400_000);
      await t.deps.webhooks.service.test(actor, scope, endpoint.id);
      await dispatch();
      const disabled = await t.deps.webhooks.service.get(scope, endpoint.id);
      expect(disabled.state).toBe('disabled');
      expect(disabled.disabledReason).toContain('5 days');
      const refused = await api('POST', `/v1/webhooks/${endpoint.id}/test`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'webhook_disabled' });
      t.clock.set(Date.now());
      await t.deps.webhooks.service.remove(actor, scope, endpoint.id);
    });

    it('removes an endpoint; another project or a publishable key cannot see it', async () => {
      const publishable = await t.deps.keys.issue({
        projectId: t.fixtures.projectId,
        environment: 'testing',
        kind: 'publishable',
        allowedOrigins: ['https://shop.example.com'],
      });
      const refused = await api('GET', '/v1/webhooks', undefined, publishable.key);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'api_key_scope' });
      const production = await t.apps.production.inject({
        method: 'DELETE',
        url: `/v1/webhooks/${endpointId}`,
        headers: { 'x-api-key': t.fixtures.keys.production.key },
      });
      expect(production.statusCode).toBe(404);
      expect(production.json()).toMatchObject({ code: 'webhook_not_found' });
    });
  });
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`webhook URLs without WEBHOOK_ALLOW_PRIVATE on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect);
    });
    afterAll(async () => {
      await t?.close();
    });
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/hook',
      'http://127.0.0.1:8080/hook',
      'https://[::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://0.0.0.0/hook',
      'https://192.168.1.1/hook',
      'https://172.16.0.1/hook',
      'https://localhost/hook',
    ]) {
      it(`refuses ${url} with 400 invalid_parameter`, async () => {
        const response = await t.apps.testing.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: { 'x-api-key': t.fixtures.keys.testing.key },
          payload: { url },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'invalid_parameter', errors: [{ parameter: 'url' }] });
      });
    }
    it('wants https in production', async () => {
      const response = await t.apps.production.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { 'x-api-key': t.fixtures.keys.production.key },
        payload: { url: 'http://hooks.example.com/x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_parameter' });
    });
  });
}
