import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SOCKETS, sendWebhook } from './sender.js';

/**
 * The attempt's time bound holds from the call to the answer's last byte (docs/webhooks.md: no
 * complete answer within the timeout is a failed attempt), not only until the status
 * (address-guard.test.ts has a receiver that never answers, redirects and long answers).
 */
describe('a webhook attempt', () => {
  let server: http.Server | null = null;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
    server = null;
  });
  async function listen(handler: http.RequestListener) {
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return { url: new URL(`http://127.0.0.1:${port}/x`), address: '127.0.0.1', family: 4 } as const;
  }

  it('gives up on a receiver that sends its status, then its answer a byte at a time past the timeout', async () => {
    const target = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // A byte every 20 ms for a minute: each within any per-read timeout, the whole far beyond.
      const timer = setInterval(() => response.write('x'), 20);
      response.on('close', () => clearInterval(timer));
    });
    expect(await sendWebhook(target, {}, '{}', 200)).toEqual({ status: null, error: 'timeout after 0.2 s' });
  });

  it('counts the wait for a connection, and sends nothing once given up', async () => {
    const seen: string[] = [];
    const held: http.ServerResponse[] = [];
    let answering = false;
    const target = await listen((request, response) => {
      seen.push(String(request.headers['webhook-id']));
      if (answering) response.end();
      else held.push(response); // every connection of the pool busy until answered below
    });
    let settled = 0;
    const busy = Array.from({ length: MAX_SOCKETS }, (_, i) =>
      sendWebhook(target, { 'webhook-id': `msg_${i}` }, '{}', 60_000).finally(() => {
        settled += 1;
      }),
    );
    // This one waits for a connection, and gives up while the others still hold them all.
    expect(await sendWebhook(target, { 'webhook-id': 'msg_waiting' }, '{}', 200)).toEqual({
      status: null,
      error: 'timeout after 0.2 s',
    });
    expect(settled).toBe(0);
    answering = true;
    for (const response of held) response.end();
    for (const result of await Promise.all(busy)) expect(result).toEqual({ status: 200, error: null });
    // Requests leave in order: had the one given up been sent, it would arrive before this one.
    expect(await sendWebhook(target, { 'webhook-id': 'msg_last' }, '{}', 5_000)).toEqual({
      status: 200,
      error: null,
    });
    expect(seen).toHaveLength(MAX_SOCKETS + 1);
    expect(seen).not.toContain('msg_waiting');
    expect(seen.at(-1)).toBe('msg_last');
  });
});
