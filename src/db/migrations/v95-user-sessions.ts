import type { Dialect } from '../database.js';

/**
 * Version 95 (issue 27): an end user's sessions. A session is one login, a token family: the row
 * is written when `/connect` or `/token` (authorization code) issues the first tokens, touched by
 * every refresh, and marked revoked in the transaction that denylists the family. It keeps no
 * secret: the family id is the `sid` claim every access token of the family carries. An
 * authorization code keeps the address and user agent of the browser that signed in, so the
 * session `/token` opens names the login and not the client's server. Families from before this
 * version are listed from their refresh tokens, without address or user agent.
 */
export function userSessionsSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres' ? { id: 'TEXT COLLATE "C"', time: 'BIGINT' } : { id: 'TEXT', time: 'INTEGER' };
  return `
CREATE TABLE user_sessions (
  family_id ${t.id} PRIMARY KEY,
  user_id ${t.id} NOT NULL REFERENCES users(id),
  key_id ${t.id} NOT NULL REFERENCES api_keys(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  created_at ${t.time} NOT NULL,
  last_used_at ${t.time} NOT NULL,
  -- When the family's last token expires: the latest refresh token's, or the access token's.
  expires_at ${t.time} NOT NULL,
  ip TEXT NOT NULL DEFAULT '',
  user_agent TEXT NOT NULL DEFAULT '',
  revoked_at ${t.time}
);
CREATE INDEX user_sessions_user ON user_sessions(user_id, environment, created_at);
CREATE INDEX user_sessions_key ON user_sessions(key_id);
ALTER TABLE authorization_codes ADD COLUMN login_ip TEXT NOT NULL DEFAULT '';
ALTER TABLE authorization_codes ADD COLUMN login_user_agent TEXT NOT NULL DEFAULT '';
INSERT INTO user_sessions (family_id, user_id, key_id, environment, created_at, last_used_at, expires_at)
SELECT family_id, MIN(user_id), MIN(key_id), MIN(environment), MIN(created_at),
       MAX(COALESCE(used_at, created_at)), MAX(expires_at)
FROM refresh_tokens WHERE revoked_at IS NULL GROUP BY family_id;
`;
}
