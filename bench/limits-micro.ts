import { loadConfig } from '../src/config/config.js';
import type { KeyRecord } from '../src/keys/model.js';
import { createMemoryRateLimiter } from '../src/limits/rate-limiter.js';
import { createRequestLimits } from '../src/limits/request-limits.js';
import { systemClock } from '../src/platform/clock.js';
import { createUsageMeter } from '../src/usage/meter.js';

/**
 * The CPU cost per request of what rate limiting and metering add on the hot path (in-memory
 * limiter), measured in this process without HTTP. Far less sensitive to a busy shared machine
 * than the HTTP comparison, which it complements.
 */
export async function limitsMicro(n = 1_000_000): Promise<{ limitsMicros: number; meterMicros: number }> {
  const config = loadConfig({});
  // Each request arrives 1 ms after the last, so the plan never runs dry however fast this
  // machine loops: the cost measured is always that of an allowed request.
  let now = Date.now();
  const clock = { now: () => (now += 1) };
  const limits = createRequestLimits({
    limiter: createMemoryRateLimiter(clock),
    config,
    clock,
    environment: 'testing',
  });
  const meter = createUsageMeter({
    store: { add: async () => undefined, forKey: async () => [] },
    clock: systemClock,
    flushMs: 60_000,
  });
  const key = { id: 'key_bench', environment: 'testing', rateLimitRps: 1_000_000 } as KeyRecord;
  const reply = { header: () => reply } as unknown as Parameters<typeof limits.takeForKey>[1];
  const request = {} as Parameters<typeof limits.checkAddress>[0];
  let best = { limitsMicros: Number.POSITIVE_INFINITY, meterMicros: Number.POSITIVE_INFINITY };
  for (let round = 0; round < 3; round += 1) {
    let started = performance.now();
    for (let i = 0; i < n; i += 1) {
      const check = limits.checkAddress(request);
      if (check) await check;
      await limits.takeForKey({ ...key, rateLimitRps: 1_000_000 }, reply);
    }
    const limitsMicros = ((performance.now() - started) / n) * 1000;
    started = performance.now();
    for (let i = 0; i < n; i += 1) meter.record(key.id, 200);
    const meterMicros = ((performance.now() - started) / n) * 1000;
    best = {
      limitsMicros: Math.min(best.limitsMicros, Number(limitsMicros.toFixed(3))),
      meterMicros: Math.min(best.meterMicros, Number(meterMicros.toFixed(3))),
    };
  }
  return best;
}
