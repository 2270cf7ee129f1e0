import type { Queryable } from './database.js';

export type CounterName = 'api_keys' | 'signing_keys';

/**
 * Bumps a change counter inside the caller's transaction and returns the new value. The row
 * lock taken by the UPDATE is held until commit, so changes commit in counter order.
 */
export async function bumpCounter(tx: Queryable, name: CounterName): Promise<number> {
  const row = await tx.get<{ value: number }>(
    'UPDATE change_counters SET value = value + 1 WHERE name = ? RETURNING value',
    [name],
  );
  if (!row) throw new Error(`change counter ${name} is missing; run migrations`);
  return Number(row.value);
}

export async function readCounter(db: Queryable, name: CounterName): Promise<number> {
  const row = await db.get<{ value: number }>('SELECT value FROM change_counters WHERE name = ?', [name]);
  return Number(row?.value ?? 0);
}
