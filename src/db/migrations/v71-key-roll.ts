import type { Dialect } from '../database.js';

/**
 * Version 71 (issue 15): rolling a key. The new secret's hash replaces `key_hash`; the old one
 * moves to `previous_key_hash` and keeps working until `previous_expires_at` (the overlap the
 * developer chose: none, 1 h, 24 h or 7 days, as Stripe offers). The key keeps its id, so its
 * refresh tokens and the access tokens it obtained stay valid.
 */
export function keyRollSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres' ? { text: 'TEXT COLLATE "C"', time: 'BIGINT' } : { text: 'TEXT', time: 'INTEGER' };
  return `
ALTER TABLE api_keys ADD COLUMN previous_key_hash ${t.text};
ALTER TABLE api_keys ADD COLUMN previous_expires_at ${t.time};
CREATE UNIQUE INDEX api_keys_previous_key_hash ON api_keys(previous_key_hash);
`;
}
