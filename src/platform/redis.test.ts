import net from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { connectRedis } from './redis.js';

/** Issue 26: an ioredis client with no 'error' listener ends the process when its connection fails. */
describe('Redis connections', () => {
  it('every client, the main one and each duplicate, listens for errors, and a refused connection ends nothing', async () => {
    // A port nobody listens on: every connection attempt is refused.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const redis = connectRedis(`redis://127.0.0.1:${port}`, {
      prefix: 't:',
      logger: pino({ level: 'silent' }),
    });
    const copy = redis.duplicate();
    try {
      expect(redis.client.listenerCount('error')).toBeGreaterThan(0);
      expect(copy.listenerCount('error')).toBeGreaterThan(0);
      // Let both fail to connect at least once: an unhandled 'error' would fail this test.
      await new Promise<void>((resolve) => copy.once('reconnecting', () => resolve()));
      expect(redis.state).not.toBe('ready');
    } finally {
      copy.disconnect();
      await redis.close();
    }
  });
});
