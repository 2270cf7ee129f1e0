import { UsageError } from '../platform/usage-error.js';

/**
 * How long a rolled key's previous secret keeps working (issue 15): the choices Stripe offers,
 * named as the portal's form and `vitrine keys roll --overlap` spell them.
 */
export const ROLL_OVERLAPS = { none: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

export function parseRollOverlap(value: string): RollOverlap {
  if (!Object.hasOwn(ROLL_OVERLAPS, value)) throw new UsageError('the overlap is none, 1h, 24h or 7d');
  return value as RollOverlap;
}
