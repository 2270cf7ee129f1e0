import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_MS } from '../../src/webhooks/dispatcher.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { Receiver } from './receiver.js';

/**
 * A delivery claimed by a process that died before recording its attempt (a SIGKILL between the
 * claim and the outcome) is taken by another dispatcher once the claim has run out, and not
 * before: at-least-once across a crash, never two live senders. The clock is injected; the dead
 * process's claim is written as it would have left it. (test/cluster/webhooks-delivery.test.ts
 * kills a real `serve` process after its attempt was recorded.)
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`a dead dispatcher's claim on ${dialect}`, () => {
    let t: TestContext;
    let receiver: Receiver;

    beforeAll(async () => {
      t = await createTestContext(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      t.clock.set(Date.now());
      receiver = new Receiver();
      await receiver.start();
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.close();
    });

    it('waits out the claim, then delivers with the same webhook-id', async () => {
      const headers = { 'x-api-key': t.fixtures.keys.testing.key };
      const created = await t.apps.testing.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers,
        payload: { url: receiver.url },
      });
      expect(created.statusCode).toBe(201);
      const { id: endpointId } = created.json() as { id: string };
      const queued = await t.apps.testing.inject({
        method: 'POST',
        url: `/v1/webhooks/${endpointId}/test`,
        headers,
      });
      expect(queued.statusCode).toBe(202);
      const { messageId } = queued.json() as { messageId: string };
      expect(messageId).toMatch(/^msg_[0-9A-Za-z]{20}$/);

      const claimedAt = t.clock.now();
      await t.deps.db.run(
        "UPDATE webhook_deliveries SET claimed_by = 'dsp_dead', claimed_until = ? WHERE id = ?",
        [claimedAt + CLAIM_MS, messageId],
      );
      const dispatch = () => t.deps.webhooks.dispatcher.runOnce();
      expect(await dispatch()).toBe(0);
      t.clock.set(claimedAt + CLAIM_MS - 1);
      expect(await dispatch()).toBe(0);
      expect(receiver.received).toHaveLength(0);
      t.clock.set(claimedAt + CLAIM_MS + 1);
      expect(await dispatch()).toBe(1);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([messageId]);
    });
  });
}
