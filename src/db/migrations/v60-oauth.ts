/**
 * Version 60 (issue 17): OAuth 2.0 authorization codes, the scope a refresh-token
 * family was granted, and the denylist of revoked token families that the bearer guard reads
 * (access tokens of a revoked family stop working within 1 s). Written once, rendered per dialect.
 */
export function oauthSchema(t: { id: string; time: string }): string {
  return `
-- An authorization code is stored as its SHA-256 only; it is single-use (used_at) and bound to
-- the client (key), the redirect URI and the PKCE challenge. family_id names the grant the code
-- starts, so a replayed code can revoke what it issued (RFC 6749 §4.1.2, RFC 9700 §4.2.1).
CREATE TABLE authorization_codes (
  code_hash TEXT PRIMARY KEY,
  family_id ${t.id} NOT NULL,
  key_id ${t.id} NOT NULL REFERENCES api_keys(id),
  user_id ${t.id} NOT NULL REFERENCES users(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  nonce TEXT,
  auth_time ${t.time} NOT NULL,
  created_at ${t.time} NOT NULL,
  expires_at ${t.time} NOT NULL,
  used_at ${t.time}
);
CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at);
-- The scope an OAuth grant was given (NULL for /connect logins).
ALTER TABLE refresh_tokens ADD COLUMN scope TEXT;
-- Families whose access tokens must be refused (last bullet). A row lives until the
-- last access token the family can have issued has expired (expires_at); change_seq is the
-- 'token_families' counter at insertion, which processes poll, as for API keys.
CREATE TABLE revoked_token_families (
  family_id ${t.id} PRIMARY KEY,
  reason TEXT NOT NULL,
  revoked_at ${t.time} NOT NULL,
  expires_at ${t.time} NOT NULL,
  change_seq ${t.time} NOT NULL
);
CREATE INDEX revoked_token_families_seq ON revoked_token_families(change_seq);
INSERT INTO change_counters (name, value) VALUES ('token_families', 0);
`;
}
