import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { randomBase62 } from '../../src/platform/ids.js';

/** The Redis of this run, or null when the global setup found none (laptop: tests skip). */
export function redisUrl(): string | null {
  return inject('redisUrl');
}

/**
 * A key prefix of its own for one test file; `cleanup()` deletes the keys under it and nothing
 * else (the Redis on 6379 is shared with other engineers and runs).
 */
export function testRedisPrefix(url: string): { prefix: string; cleanup(): Promise<void> } {
  const prefix = `vitrine-test:${randomBase62(10)}:`;
  return {
    prefix,
    async cleanup() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          if (keys.length > 0) await client.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        client.disconnect();
      }
    },
  };
}
