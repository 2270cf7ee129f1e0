import { readCounter } from '../db/counters.js';
import type { Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/**
 * The revoked token families every process refuses access tokens of (issue 13 item 8):
 * an in-memory copy of `revoked_token_families`, so the bearer guard answers without a database
 * round trip. A check reads the `token_families` change counter at most every `checkMs` and loads
 * the rows added since (the pattern of the API-key cache and the signing keys); a revocation in
 * this process, or one announced on the change bus, marks the copy stale so the very next check
 * reloads. With `checkMs` ≤ 1000 a family revoked anywhere is refused everywhere within 1 s, even
 * when the change bus is down.
 */
export interface RevokedFamilies {
  /** Whether the family is revoked, as of at most `checkMs` ago (or now, after `markStale`). */
  isRevoked(familyId: string): Promise<boolean>;
  /** The next check reloads: called on a local revocation and on a change-bus message. */
  markStale(): void;
  readonly size: number;
}

export const TOKEN_FAMILIES_TOPIC = 'token_families';

export function createRevokedFamilies(deps: {
  db: Database;
  clock: Clock;
  checkMs: number;
  /** Monotonic milliseconds (performance.now); injectable so tests can move it. */
  monotonic?: () => number;
}): RevokedFamilies {
  const { db, clock } = deps;
  const monotonic = deps.monotonic ?? (() => performance.now());
  /** family id → epoch ms after which its access tokens have all expired anyway. */
  const revoked = new Map<string, number>();
  let watermark = -1;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | null = null;
  // Bumped by markStale: a load that started before it may have missed the change it announces.
  let generation = 0;

  async function load(): Promise<void> {
    const latest = await readCounter(db, 'token_families');
    if (latest !== watermark) {
      // Rows commit in counter order (bumpCounter holds the counter's row lock), so nothing
      // with a change_seq at or below the watermark can still appear.
      const rows = await db.all<{ family_id: string; expires_at: number; change_seq: number }>(
        'SELECT family_id, expires_at, change_seq FROM revoked_token_families WHERE change_seq > ? AND expires_at > ?',
        [watermark, clock.now()],
      );
      for (const row of rows) revoked.set(row.family_id, Number(row.expires_at));
      watermark = rows.reduce((max, r) => Math.max(max, Number(r.change_seq)), latest);
    }
    const now = clock.now();
    for (const [family, expiresAt] of revoked) if (expiresAt <= now) revoked.delete(family);
  }

  async function fresh(): Promise<void> {
    if (monotonic() - checkedAt < deps.checkMs) return;
    // One load at a time; concurrent checks wait for it.
    pending ??= (async () => {
      const startedAt = monotonic();
      const startedGeneration = generation;
      try {
        await load();
        if (generation === startedGeneration) checkedAt = startedAt;
      } finally {
        pending = null;
      }
    })();
    await pending;
    // Marked stale while that load ran: load once more, so a revocation seen here is never missed.
    if (checkedAt === Number.NEGATIVE_INFINITY) await fresh();
  }

  return {
    async isRevoked(familyId) {
      await fresh();
      return revoked.has(familyId);
    },
    markStale() {
      generation += 1;
      checkedAt = Number.NEGATIVE_INFINITY;
    },
    get size() {
      return revoked.size;
    },
  };
}
