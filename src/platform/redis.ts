import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisState = 'not_configured' | 'connecting' | 'ready' | 'down';

/**
 * One Redis connection and what we know of its health. Commands are never queued while the
 * connection is down (`enableOfflineQueue: false`): they fail at once, and callers fall back to
 * what one instance can do alone (per-instance rate limits, the change-counter poll). ioredis
 * reconnects by itself; `state` follows it, and each transition is logged once.
 */
export interface RedisConnection {
  readonly client: Redis;
  readonly state: RedisState;
  /** Prefix of every key and channel (`REDIS_KEY_PREFIX`). */
  readonly prefix: string;
  /** A second connection with the same settings (pub/sub needs its own). */
  duplicate(): Redis;
  onStateChange(listener: (state: RedisState) => void): void;
  /** Resolves once connected, or after `timeoutMs` (a short-lived CLI process wants to publish). */
  whenReady(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Issue 13: no process waits on Redis longer than this to close (the CLI, shutdown). */
export const REDIS_CLOSE_TIMEOUT_MS = 1000;

/**
 * Closes a connection without ever waiting on a Redis that is down: `quit()` is queued until
 * the connection is ready (forever, with the subscriber's offline queue), so a connection that
 * is not ready is dropped at once, and a polite `QUIT` gets `timeoutMs` before it is dropped.
 */
export async function closeWithin(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([
    client.quit().then(
      () => undefined,
      () => undefined,
    ),
    deadline,
  ]);
  clearTimeout(timer);
  client.disconnect();
}

/** How long a CLI command waits for Redis before going on without it (issue 13: ≤ 2 s). */
export const CLI_REDIS_WAIT_MS = 2000;

/**
 * For short-lived processes (the CLI): waits until Redis is ready, refused, or `timeoutMs` has
 * passed, and if it is not ready says so once on the logger and goes on. Nothing a command does
 * needs Redis: revocations and plan changes reach running instances through the database poll.
 */
export async function settleRedis(
  redis: RedisConnection,
  logger: Logger,
  timeoutMs: number,
): Promise<boolean> {
  if (redis.state === 'connecting') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      redis.onStateChange((next) => {
        if (next === 'ready' || next === 'down') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }
  if (redis.state === 'ready') return true;
  logger.warn(
    { redisState: redis.state, timeoutMs },
    'Redis is not reachable: going on without it (running instances pick up changes from the database poll)',
  );
  return false;
}

export function connectRedis(url: string, options: { prefix: string; logger: Logger }): RedisConnection {
  const settings = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A rate-limit decision waits at most this long for Redis before using local counters.
    commandTimeout: 250,
    connectTimeout: 1000,
    // Reconnect quickly but never hammer a Redis that is down: 100 ms, 200 ms, … 1 s.
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
  const client = new Redis(url, settings);
  let state: RedisState = 'connecting';
  const listeners: ((s: RedisState) => void)[] = [];
  let closing = false;
  const safeUrl = (() => {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  })();

  const set = (next: RedisState, error?: unknown) => {
    if (next === state || closing) return;
    const previous = state;
    state = next;
    if (next === 'ready') {
      options.logger.info({ redis: safeUrl, previous }, 'Redis connected: limits and broadcasts are shared');
    } else if (next === 'down') {
      options.logger.warn(
        { redis: safeUrl, err: error },
        'Redis unreachable: using per-instance rate limits until it returns',
      );
    }
    for (const listener of listeners) listener(next);
  };
  client.on('ready', () => set('ready'));
  client.on('error', (error) => set('down', error));
  client.on('close', () => set('down'));
  client.on('end', () => set('down'));

  return {
    client,
    prefix: options.prefix,
    get state() {
      return state;
    },
    // Subscriptions are queued until connected and renewed after every reconnect.
    duplicate: () => {
      const copy = new Redis(url, {
        ...settings,
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: undefined,
      });
      // Issue 26: an ioredis client with no 'error' listener ends the process on a lost
      // connection; state and logs come from the main connection.
      copy.on('error', () => undefined);
      return copy;
    },
    onStateChange(listener) {
      listeners.push(listener);
    },
    whenReady(timeoutMs) {
      if (state === 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        listeners.push((next) => {
          if (next === 'ready') {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    },
    async close() {
      closing = true;
      await closeWithin(client, REDIS_CLOSE_TIMEOUT_MS);
    },
  };
}
