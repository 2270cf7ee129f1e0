import type { Clock } from '../platform/clock.js';
import type { StatusClass, UsageRow } from './model.js';
import type { UsageStore } from './store.js';

export function statusClass(status: number): StatusClass {
  const hundreds = Math.min(5, Math.max(1, Math.floor(status / 100)));
  return `${hundreds}xx` as StatusClass;
}

const DAY_MS = 86_400_000;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Counts requests per key, UTC day and status class in memory and adds them to the database
 * in one transaction every `flushMs` and on `stop()` (issue #6: no database write per request).
 * A failed flush keeps its counts for the next one, so an outage delays counts, never drops them
 * (unless the process is killed during the outage).
 */
export interface UsageMeter {
  record(keyId: string, status: number): void;
  flush(): Promise<void>;
  start(): void;
  /** Stops the timer and writes what is pending. */
  stop(): Promise<void>;
  /** Counts not written yet (for tests and metrics). */
  readonly pending: number;
}

export function createUsageMeter(deps: {
  store: UsageStore;
  clock: Clock;
  flushMs: number;
  onError?: (error: unknown) => void;
}): UsageMeter {
  let counts = new Map<string, UsageRow>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let dayStart = Number.NEGATIVE_INFINITY;
  let day = '';

  async function flushOnce(): Promise<void> {
    if (counts.size === 0) return;
    const batch = counts;
    counts = new Map();
    try {
      await deps.store.add([...batch.values()]);
    } catch (error) {
      // Put the batch back (adding what arrived meanwhile), to be written next time.
      for (const [id, row] of batch) {
        const now = counts.get(id);
        if (now) now.requests += row.requests;
        else counts.set(id, row);
      }
      throw error;
    }
  }

  return {
    get pending() {
      let n = 0;
      for (const row of counts.values()) n += row.requests;
      return n;
    },
    record(keyId, status) {
      // The day string is computed once per UTC day, not once per request (hot path).
      const now = deps.clock.now();
      if (now < dayStart || now >= dayStart + DAY_MS) {
        dayStart = now - (now % DAY_MS);
        day = utcDay(dayStart);
      }
      const cls = statusClass(status);
      const id = `${keyId} ${day} ${cls}`;
      const row = counts.get(id);
      if (row) row.requests += 1;
      else counts.set(id, { keyId, day, statusClass: cls, requests: 1 });
    },
    flush() {
      // One flush at a time: two overlapping transactions would only contend.
      flushing = flushing.catch(() => undefined).then(flushOnce);
      return flushing;
    },
    start() {
      timer ??= setInterval(() => {
        this.flush().catch((error) => deps.onError?.(error));
      }, deps.flushMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await this.flush();
    },
  };
}
