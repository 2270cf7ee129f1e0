import type { Environment } from '../platform/environment.js';
import type { KeyKind } from './key-format.js';
import type { FixedFilters } from './publishable.js';

// The keys capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export type KeyState = 'active' | 'revoked';

/** An API key as stored: never the key itself, only its SHA-256. */
export interface KeyRecord {
  id: string;
  projectId: string;
  environment: Environment;
  keyHash: string;
  hint: string;
  state: KeyState;
  refreshAllowed: boolean;
  rateLimitRps: number | null;
  expiresAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** `secret` (server-side) or `publishable` (browsers, apps), issue 16. */
  kind: KeyKind;
  /** The `offers:write` scope, granted by the operator (secret keys only). */
  writeAllowed: boolean;
  /** Publishable keys: the exact origins allowed to use the key (empty for secret keys). */
  allowedOrigins: string[];
  /** Publishable keys: filters applied to every search the key makes. */
  fixedFilters: FixedFilters;
  /** After a roll (issue 15): the previous secret's hash, valid until `previousExpiresAt`. */
  previousKeyHash: string | null;
  previousExpiresAt: number | null;
}
