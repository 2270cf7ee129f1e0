import type { Clock } from '../platform/clock.js';
import { utcDay } from './meter.js';
import type { StatusClass } from './model.js';
import type { UsageStore } from './store.js';

export interface UsageDay {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  requests: number;
  /** Answers with a 4xx or 5xx status (rate-limited requests included). */
  errors: number;
  byStatusClass: Partial<Record<StatusClass, number>>;
}

export interface UsageService {
  /**
   * Usage of one key over the last `days` UTC days, today included, oldest first, one entry per
   * day (zeros included), for `vitrine keys usage` and the portal and console.
   * Counts reach the database every `USAGE_FLUSH_MS`, so today's figures lag by that much.
   */
  forKey(keyId: string, options?: { days?: number }): Promise<UsageDay[]>;
}

const DAY_MS = 86_400_000;

export function createUsageService(deps: { store: UsageStore; clock: Clock }): UsageService {
  return {
    async forKey(keyId, { days = 7 } = {}) {
      const today = Date.parse(utcDay(deps.clock.now()));
      const first = utcDay(today - (days - 1) * DAY_MS);
      const rows = await deps.store.forKey(keyId, first);
      const result: UsageDay[] = [];
      for (let i = 0; i < days; i += 1) {
        const day = utcDay(today - (days - 1 - i) * DAY_MS);
        const entry: UsageDay = { day, requests: 0, errors: 0, byStatusClass: {} };
        for (const row of rows) {
          if (row.day !== day) continue;
          entry.requests += row.requests;
          if (row.statusClass === '4xx' || row.statusClass === '5xx') entry.errors += row.requests;
          entry.byStatusClass[row.statusClass] = row.requests;
        }
        result.push(entry);
      }
      return result;
    },
  };
}
