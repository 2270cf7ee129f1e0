import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.js';
import { createUsageMeter, statusClass } from './meter.js';
import type { UsageRow } from './model.js';
import type { UsageStore } from './store.js';

function memoryStore(options: { failing?: () => boolean } = {}) {
  const written: UsageRow[] = [];
  const store: UsageStore = {
    async add(rows) {
      if (options.failing?.()) throw new Error('database unavailable');
      written.push(...rows.map((r) => ({ ...r })));
    },
    forKey: async () => [],
  };
  return { store, written };
}

describe('usage meter', () => {
  it('aggregates per key, UTC day and status class, and starts a new day at midnight UTC', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1, 23, 59, 59));
    const { store, written } = memoryStore();
    const meter = createUsageMeter({ store, clock, flushMs: 5000 });
    meter.record('key_a', 200);
    meter.record('key_a', 204);
    meter.record('key_a', 429);
    meter.record('key_b', 503);
    clock.advance(1000);
    meter.record('key_a', 200);
    expect(meter.pending).toBe(5);
    await meter.flush();
    expect(meter.pending).toBe(0);
    expect(written).toEqual([
      { keyId: 'key_a', day: '2026-11-01', statusClass: '2xx', requests: 2 },
      { keyId: 'key_a', day: '2026-11-01', statusClass: '4xx', requests: 1 },
      { keyId: 'key_b', day: '2026-11-01', statusClass: '5xx', requests: 1 },
      { keyId: 'key_a', day: '2026-11-02', statusClass: '2xx', requests: 1 },
    ]);
  });

  it('keeps the counts of a failed flush for the next one, adding what arrived meanwhile', async () => {
    const clock = new ManualClock();
    let down = true;
    const { store, written } = memoryStore({ failing: () => down });
    const meter = createUsageMeter({ store, clock, flushMs: 5000 });
    meter.record('key_a', 200);
    await expect(meter.flush()).rejects.toThrow('database unavailable');
    meter.record('key_a', 200);
    expect(meter.pending).toBe(2);
    down = false;
    await meter.stop();
    expect(written).toEqual([{ keyId: 'key_a', day: '2026-11-01', statusClass: '2xx', requests: 2 }]);
  });

  it('classes statuses', () => {
    expect([100, 200, 302, 404, 429, 500, 599].map(statusClass)).toEqual([
      '1xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });
});
