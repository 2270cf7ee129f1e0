import type { Queryable } from './database.js';

export type CounterName =
  | 'api_keys'
  | 'signing_keys'
  | 'token_families'
  | `offers:${'production' | 'testing'}`;

/**
 * Bumps a change counter inside the caller's transaction and returns the new value. The row
 * lock taken by the UPDATE is held until commit, so changes commit in counter order. `by`
 * reserves that many values at once (the new value is the last of them).
 */
export async function bumpCounter(tx: Queryable, name: CounterName, by = 1): Promise<number> {
  const row = await tx.get<{ value: number }>(
    'UPDATE change_counters SET value = value + ? WHERE name = ? RETURNING value',
    [by, name],
  );
  if (!row) throw new Error(`change counter ${name} is missing; run migrations`);
  return Number(row.value);
}

export async function readCounter(db: Queryable, name: CounterName): Promise<number> {
  const row = await db.get<{ value: number }>('SELECT value FROM change_counters WHERE name = ?', [name]);
  return Number(row?.value ?? 0);
}
