import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_MS, type Dispatcher } from '../../src/webhooks/dispatcher.js';
import { backends } from '../support/databases.js';
import { type DispatcherFixture, dispatcherFixture } from './dispatcher-fixture.js';
import { Receiver } from './receiver.js';

/**
 * Deliveries claimed at birth (ADR 0060): recorded claimed by the running dispatcher of the
 * process that records them, and handed to it after the commit. No other dispatcher takes them
 * while the claim holds; a process that dies before sending them, or stops, leaves them to any
 * instance (after the claim, or at once); one handed too late is sent once, by the due path.
 * Two dispatchers on one database stand for two processes; the clock is injected.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`deliveries claimed at birth on ${dialect}`, () => {
    let f: DispatcherFixture;
    let receiver: Receiver;
    const started: Dispatcher[] = [];
    beforeAll(async () => {
      receiver = new Receiver();
      await receiver.start();
      f = await dispatcherFixture(dialect, receiver.url);
    });
    afterEach(async () => {
      for (const d of started.splice(0)) await d.stop();
      receiver.received.length = 0;
    });
    afterAll(async () => {
      await receiver?.close();
      await f?.t.close();
    });

    const dispatcher = (): Dispatcher => {
      const d = f.dispatcher();
      started.push(d);
      return d;
    };
    /** A running dispatcher (`serve`'s): its passes come from `nudge` here, not its timer. */
    const running = () => {
      const d = dispatcher();
      d.start(3_600_000);
      return d;
    };
    /** Records the events in a transaction of their own, claimed by `by`'s birth claim. */
    async function record(by: Dispatcher, n: number) {
      const claim = by.claimAtBirth();
      expect(claim).not.toBeNull();
      const deliveries = await f.t.deps.db.transaction((tx) =>
        f.store.recordEvents(tx, f.events(n), f.t.clock.now(), claim ?? undefined),
      );
      return { until: claim?.until ?? 0, deliveries };
    }
    const ids = (births: { deliveries: readonly { id: string }[] }) =>
      births.deliveries.map((d) => d.id).sort();
    const received = () => receiver.received.map((r) => String(r.headers['webhook-id'])).sort();
    async function drain(d: Dispatcher) {
      while ((await d.runOnce()) > 0);
    }

    it('are sent by the dispatcher they were handed to, and taken by no other meanwhile', async () => {
      const mine = running();
      const births = await record(mine, 3);
      // Another process's pass finds nothing to take: they are claimed from their first commit.
      expect(await dispatcher().runOnce()).toBe(0);
      mine.nudge(births);
      await drain(mine);
      expect(received()).toEqual(ids(births));
      const states = await f.t.deps.db.all<{ state: string; claimed_by: string | null }>(
        `SELECT state, claimed_by FROM webhook_deliveries WHERE id IN (${births.deliveries.map(() => '?').join(', ')})`,
        ids(births),
      );
      expect(states).toEqual(births.deliveries.map(() => ({ state: 'delivered', claimed_by: null })));
    });

    it("are another instance's once the claim runs out when their process died before sending them", async () => {
      const dead = running(); // records, then never gets to `nudge` (killed after the commit)
      const births = await record(dead, 2);
      const other = dispatcher();
      f.t.clock.advance(CLAIM_MS - 1);
      expect(await other.runOnce()).toBe(0);
      f.t.clock.advance(2);
      await drain(other);
      expect(received()).toEqual(ids(births));
    });

    it('are left to any instance at once when their dispatcher stops before sending them', async () => {
      const stopping = running();
      const births = await record(stopping, 2);
      await stopping.stop();
      await drain(dispatcher());
      expect(received()).toEqual(ids(births));
    });

    it('are sent once, by the due path, when handed after their claim is mostly spent', async () => {
      const late = running();
      const births = await record(late, 2);
      f.t.clock.advance(CLAIM_MS + 1); // the claim ran out while they waited
      late.nudge(births);
      await drain(late);
      expect(received()).toEqual(ids(births));
    });
  });
}
