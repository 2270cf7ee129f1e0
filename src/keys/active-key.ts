import type { Environment } from '../platform/environment.js';
import type { KeyRecord } from './model.js';

export type KeyRefusal = 'api_key_revoked' | 'api_key_expired' | 'api_key_wrong_environment';

/**
 * The active-key rule, in one place (issue 14): a key serves its own environment while it is
 * neither revoked nor past its expiry. The verifier applies it to every request (ADR 0004's
 * order); the login re-applies it to a ticket's key, which may have changed while the user typed.
 */
export function keyRefusal(key: KeyRecord, environment: Environment, now: number): KeyRefusal | null {
  if (key.state === 'revoked') return 'api_key_revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'api_key_expired';
  if (key.environment !== environment) return 'api_key_wrong_environment';
  return null;
}
