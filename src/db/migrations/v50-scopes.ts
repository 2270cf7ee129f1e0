import type { Dialect } from '../database.js';

/**
 * Issue 16 (versions 50–59): key kinds and scopes, publishable keys' origins and fixed filters,
 * the `offers:write` grant, and the project that wrote an offer over HTTP.
 *
 * - `kind`: `secret` (every key issued before this version) or `publishable`.
 * - `write_allowed`: the `offers:write` scope, granted by the operator; secret keys only.
 * - `allowed_origins`: JSON array of exact `scheme://host[:port]` origins (publishable keys).
 * - `fixed_filters`: JSON object, filter name → values, applied to every search of the key.
 * - `offers.project_id`: the project whose write key imported the offer; NULL for the
 *   operator's `vitrine import`, seeds and end users' own offers.
 */
export function scopesSchema(dialect: Dialect): string {
  const flag = dialect === 'postgres' ? 'SMALLINT' : 'INTEGER';
  return `
ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'secret' CHECK (kind IN ('secret', 'publishable'));
ALTER TABLE api_keys ADD COLUMN write_allowed ${flag} NOT NULL DEFAULT 0;
ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '[]';
ALTER TABLE api_keys ADD COLUMN fixed_filters TEXT NOT NULL DEFAULT '{}';
ALTER TABLE offers ADD COLUMN project_id TEXT;
`;
}
