import type { Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { RecordEvent } from '../platform/events.js';

/** `key.expiring` is recorded this long before a key's `expiresAt`. */
export const EXPIRING_NOTICE_MS = 7 * 86_400_000;

/**
 * `key.expiring` (issue 24): a periodic check for active keys whose expiry is within 7 days,
 * recorded once per key (`key_expiry_notices`, inserted in the event's transaction: two
 * instances checking at once record it once).
 */
export function createKeyExpiryCheck(deps: { db: Database; clock: Clock; recordEvent: RecordEvent }) {
  const { db, clock } = deps;
  return async function check(): Promise<number> {
    const now = clock.now();
    const keys = await db.all<{
      id: string;
      project_id: string;
      environment: Environment;
      hint: string;
      kind: string;
      expires_at: number;
    }>(
      `SELECT k.id, k.project_id, k.environment, k.hint, k.kind, k.expires_at FROM api_keys k
        WHERE k.state = 'active' AND k.expires_at IS NOT NULL AND k.expires_at > ? AND k.expires_at <= ?
          AND NOT EXISTS (SELECT 1 FROM key_expiry_notices n WHERE n.key_id = k.id)`,
      [now, now + EXPIRING_NOTICE_MS],
    );
    let recorded = 0;
    for (const key of keys) {
      await db.transaction(async (tx) => {
        const added = await tx.run(
          'INSERT INTO key_expiry_notices (key_id, created_at) VALUES (?, ?) ON CONFLICT (key_id) DO NOTHING',
          [key.id, now],
        );
        if (added === 0) return;
        recorded += 1;
        await deps.recordEvent(tx, {
          projectId: key.project_id,
          environment: key.environment,
          type: 'key.expiring',
          data: {
            keyId: key.id,
            hint: key.hint,
            kind: key.kind,
            expiresAt: new Date(Number(key.expires_at)).toISOString(),
          },
        });
      });
    }
    return recorded;
  };
}
