import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { redisUrl, testRedisPrefix } from '../../test/support/redis.js';
import { type ChangeBus, createLocalChangeBus, createRedisChangeBus } from './change-bus.js';
import { connectRedis, type RedisConnection } from './redis.js';

const silent = pino({ level: 'silent' });
const url = redisUrl();
const prefix = url ? testRedisPrefix(url) : null;
const opened: { bus: ChangeBus; redis: RedisConnection }[] = [];

afterAll(async () => {
  for (const { bus, redis } of opened) {
    await bus.close();
    await redis.close();
  }
  await prefix?.cleanup();
});

function received(bus: ChangeBus, topic: string): string[] {
  const messages: string[] = [];
  bus.subscribe(topic, (m) => messages.push(m));
  return messages;
}

/** Polls `check` every 10 ms, for up to 10 s (a slow machine; the assertions after it decide). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe('local change bus', () => {
  it('delivers a publication to the subscribers of its topic only; unsubscribe stops delivery', async () => {
    const bus = createLocalChangeBus();
    const keys = received(bus, 'api_keys');
    const other = received(bus, 'signing_keys');
    const late: string[] = [];
    const off = bus.subscribe('api_keys', (m) => late.push(m));
    await bus.publish('api_keys', 'hash-1');
    off();
    await bus.publish('api_keys', 'hash-2');
    expect(keys).toEqual(['hash-1', 'hash-2']);
    expect(late).toEqual(['hash-1']);
    expect(other).toEqual([]);
  });
});

describe.skipIf(!url)('Redis change bus', () => {
  const open = async () => {
    const redis = connectRedis(url as string, { prefix: prefix?.prefix ?? '', logger: silent });
    const bus = createRedisChangeBus(redis, silent);
    opened.push({ bus, redis });
    await redis.whenReady(2000);
    return bus;
  };

  it('delivers a publication of one process to the subscribers of another', async () => {
    const [one, two] = [await open(), await open()];
    const there = received(two, 'api_keys');
    const here = received(one, 'api_keys');
    // Subscriptions are asynchronous: publish until both sides have joined (the publisher's own
    // subscription too: under load it joined after the first ping reached the other side).
    await until(() => {
      if (there.length === 0 || here.length === 0) void one.publish('api_keys', 'ping');
      return there.length > 0 && here.length > 0;
    });
    await one.publish('api_keys', 'hash-1');
    await until(() => there.includes('hash-1') && here.includes('hash-1'));
    expect(there).toContain('hash-1');
    expect(here).toContain('hash-1');
  });
});
