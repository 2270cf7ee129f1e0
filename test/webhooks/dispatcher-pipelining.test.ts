import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_PAUSE_MS } from '../../src/webhooks/dispatcher.js';
import { MAX_SOCKETS } from '../../src/webhooks/sender.js';
import { backends } from '../support/databases.js';
import { type DispatcherFixture, dispatcherFixture } from './dispatcher-fixture.js';

/**
 * A receiver on a bare TCP server, which sees what an HTTP server hides: how many requests a
 * connection carries before the first of them is answered. It answers a connection's requests
 * together, 30 ms after the first arrives (or never, while `silent`).
 */
class PipelineReceiver {
  /** The most requests one connection carried at once, since the last `reset`. */
  deepest = 0;
  requests = 0;
  silent = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let waiting = 0;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) break;
        buffered = buffered.subarray(end + 4 + length);
        this.requests += 1;
        waiting += 1;
        this.deepest = Math.max(this.deepest, waiting);
        if (waiting === 1 && !this.silent)
          setTimeout(() => {
            socket.write('HTTP/1.1 204 No Content\r\n\r\n'.repeat(waiting));
            waiting = 0;
          }, 30);
      }
    });
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}/hooks`;
  }
  reset(): void {
    this.deepest = 0;
    this.requests = 0;
  }
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * ADR 0062: the dispatcher pipelines its requests to a receiver that answers (several per
 * connection before the first answer), and sends them one at a time per connection for
 * `PIPELINE_PAUSE_MS` after an attempt to it got no answer. The clock is injected.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`pipelined deliveries on ${dialect}`, () => {
    let f: DispatcherFixture;
    const receiver = new PipelineReceiver();
    beforeAll(async () => {
      await receiver.start();
      f = await dispatcherFixture(dialect, receiver.url);
    });
    afterAll(async () => {
      await receiver.close();
      await f?.t.close();
    });

    /** More than the connections per receiver: the requests past them wait for one, and are pipelined. */
    const BURST = 3 * MAX_SOCKETS;
    const record = (n: number) =>
      f.t.deps.db.transaction((tx) => f.store.recordEvents(tx, f.events(n), f.t.clock.now()));

    it('pipelines to a receiver that answers, and not for a while after an attempt got no answer', async () => {
      // Long enough that no attempt of a burst times out on a loaded machine (one would pause the
      // pipelining again); short enough for the silent receiver's attempt.
      const dispatcher = f.dispatcher({ retrySchedule: [1_000], timeoutMs: 2_000 });
      await record(BURST);
      expect(await dispatcher.runOnce()).toBe(BURST);
      expect(receiver.requests).toBe(BURST);
      expect(receiver.deepest).toBeGreaterThan(1);

      // No answer: the attempt times out, and the endpoint is sent one request at a time.
      receiver.silent = true;
      await record(1);
      await dispatcher.runOnce();
      receiver.silent = false;
      receiver.reset();
      f.t.clock.advance(1_000); // the timed-out delivery is due again
      await record(BURST);
      expect(await dispatcher.runOnce()).toBe(BURST + 1);
      expect(receiver.requests).toBe(BURST + 1);
      expect(receiver.deepest).toBe(1);

      // Still within the pause: one at a time.
      receiver.reset();
      f.t.clock.advance(PIPELINE_PAUSE_MS - 2_000);
      await record(BURST);
      await dispatcher.runOnce();
      expect(receiver.deepest).toBe(1);

      // The pause over: pipelined again.
      receiver.reset();
      f.t.clock.advance(1_000);
      await record(BURST);
      await dispatcher.runOnce();
      expect(receiver.requests).toBe(BURST);
      expect(receiver.deepest).toBeGreaterThan(1);
      await dispatcher.stop();
    });
  });
}
