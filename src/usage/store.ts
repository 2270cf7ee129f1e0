import type { Database } from '../db/database.js';
import type { StatusClass, UsageRow } from './model.js';

export interface UsageStore {
  /** Adds counts to what is stored (several instances add up; nothing is overwritten). */
  add(rows: readonly UsageRow[]): Promise<void>;
  /** Rows of one key from `fromDay` on (inclusive), oldest first. */
  forKey(keyId: string, fromDay: string): Promise<UsageRow[]>;
}

export function createUsageStore(db: Database): UsageStore {
  return {
    async add(rows) {
      if (rows.length === 0) return;
      await db.transaction(async (tx) => {
        for (const row of rows) {
          // The same upsert on SQLite (≥ 3.24) and PostgreSQL.
          await tx.run(
            `INSERT INTO api_key_usage (key_id, day, status_class, requests) VALUES (?, ?, ?, ?)
             ON CONFLICT (key_id, day, status_class) DO UPDATE SET requests = api_key_usage.requests + excluded.requests`,
            [row.keyId, row.day, row.statusClass, row.requests],
          );
        }
      });
    },
    async forKey(keyId, fromDay) {
      const rows = await db.all<{ key_id: string; day: string; status_class: StatusClass; requests: number }>(
        'SELECT key_id, day, status_class, requests FROM api_key_usage WHERE key_id = ? AND day >= ? ORDER BY day, status_class',
        [keyId, fromDay],
      );
      return rows.map((r) => ({
        keyId: r.key_id,
        day: r.day,
        statusClass: r.status_class,
        requests: Number(r.requests),
      }));
    },
  };
}
