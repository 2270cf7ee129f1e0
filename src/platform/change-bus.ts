import type { Logger } from 'pino';
import { closeWithin, REDIS_CLOSE_TIMEOUT_MS, type RedisConnection } from './redis.js';

export type ChangeHandler = (message: string) => void;

/**
 * Broadcast of "something changed" between every Vitrine process of a deployment (issue #6):
 * a key revoked, a permission withdrawn, a signing key rotated. Topics are plain strings
 * (`api_keys`, …); a message is a short string naming what changed (an id or a hash, never a
 * secret). Delivery is best effort: subscribers must also have a slower way to learn of changes
 * (the `change_counters` poll for keys), so a lost message only delays a change, never loses it.
 */
export interface ChangeBus {
  publish(topic: string, message: string): Promise<void>;
  /** Returns a function that unsubscribes. Handlers also see this process's own publications. */
  subscribe(topic: string, handler: ChangeHandler): () => void;
  close(): Promise<void>;
}

/** Handlers by topic; the in-process bus and the Redis adapter both deliver through it. */
function createHandlers() {
  const byTopic = new Map<string, Set<ChangeHandler>>();
  return {
    add(topic: string, handler: ChangeHandler) {
      const set = byTopic.get(topic) ?? new Set<ChangeHandler>();
      byTopic.set(topic, set);
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    deliver(topic: string, message: string, onError: (error: unknown) => void) {
      for (const handler of byTopic.get(topic) ?? []) {
        try {
          handler(message);
        } catch (error) {
          onError(error);
        }
      }
    },
    topics: () => [...byTopic.keys()],
  };
}

/** One process: publications reach this process's subscribers only. */
export function createLocalChangeBus(options: { onError?: (error: unknown) => void } = {}): ChangeBus {
  const handlers = createHandlers();
  const onError = options.onError ?? (() => undefined);
  return {
    async publish(topic, message) {
      handlers.deliver(topic, message, onError);
    },
    subscribe: (topic, handler) => handlers.add(topic, handler),
    async close() {},
  };
}

/**
 * Redis pub/sub on channel `<prefix>bus:<topic>`. Publishing while Redis is down delivers to this
 * process only (and logs); the other processes catch up through their fallback.
 */
export function createRedisChangeBus(redis: RedisConnection, logger: Logger): ChangeBus {
  const handlers = createHandlers();
  const onError = (error: unknown) => logger.error({ err: error }, 'change handler failed');
  const channelPrefix = `${redis.prefix}bus:`;
  const subscriber = redis.duplicate();
  const subscribed = new Set<string>();
  subscriber.on('error', () => undefined); // state and logs come from the main connection
  subscriber.on('message', (channel: string, message: string) => {
    if (channel.startsWith(channelPrefix))
      handlers.deliver(channel.slice(channelPrefix.length), message, onError);
  });
  const listen = (topic: string) => {
    subscribed.add(topic);
    subscriber.subscribe(`${channelPrefix}${topic}`).catch(() => undefined);
  };
  // ioredis re-subscribes after a reconnect by itself (autoResubscribe).

  return {
    async publish(topic, message) {
      try {
        if (redis.state === 'connecting') await redis.whenReady(1000);
        if (redis.state !== 'ready') throw new Error(`Redis is ${redis.state}`);
        await redis.client.publish(`${channelPrefix}${topic}`, message);
      } catch (error) {
        logger.warn({ err: error, topic }, 'change broadcast failed; other instances will see it by polling');
        handlers.deliver(topic, message, onError);
      }
    },
    subscribe(topic, handler) {
      const off = handlers.add(topic, handler);
      if (!subscribed.has(topic)) listen(topic);
      return off;
    },
    async close() {
      await closeWithin(subscriber, REDIS_CLOSE_TIMEOUT_MS);
    },
  };
}
