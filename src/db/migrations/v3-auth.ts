/**
 * Version 3: end users, token-signing keys, refresh tokens and what end users keep (favorites,
 * saved searches, their own offers). The schema is the same on both backends; only the column
 * types differ, so it is written once and rendered per dialect.
 */
export function authSchema(t: { id: string; time: string }): string {
  return `
CREATE TABLE users (
  id ${t.id} PRIMARY KEY,
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  email TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'disabled')),
  created_at ${t.time} NOT NULL,
  password_changed_at ${t.time} NOT NULL,
  disabled_at ${t.time},
  UNIQUE (environment, email)
);
-- One active key per environment (retired_at IS NULL); retired keys stay published until every
-- token they signed has expired, and lose their private key when retired.
CREATE TABLE signing_keys (
  kid ${t.id} PRIMARY KEY,
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  algorithm TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  private_key_sealed TEXT,
  created_at ${t.time} NOT NULL,
  retired_at ${t.time}
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys(environment) WHERE retired_at IS NULL;
INSERT INTO change_counters (name, value) VALUES ('signing_keys', 0);
-- Refresh tokens: only the SHA-256 of the token is stored. A family is the chain of tokens
-- rotation produced from one login; reuse of a spent token revokes the whole family.
CREATE TABLE refresh_tokens (
  id ${t.id} PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  family_id ${t.id} NOT NULL,
  user_id ${t.id} NOT NULL REFERENCES users(id),
  key_id ${t.id} NOT NULL REFERENCES api_keys(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  created_at ${t.time} NOT NULL,
  expires_at ${t.time} NOT NULL,
  used_at ${t.time},
  revoked_at ${t.time},
  revoked_reason TEXT
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
CREATE INDEX refresh_tokens_key ON refresh_tokens(key_id);
CREATE TABLE favorites (
  user_id ${t.id} NOT NULL REFERENCES users(id),
  offer_id ${t.id} NOT NULL,
  created_at ${t.time} NOT NULL,
  PRIMARY KEY (user_id, offer_id)
);
CREATE TABLE saved_searches (
  id ${t.id} PRIMARY KEY,
  user_id ${t.id} NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  query TEXT NOT NULL,
  created_at ${t.time} NOT NULL
);
CREATE INDEX saved_searches_user ON saved_searches(user_id, created_at);
CREATE TABLE user_offers (
  offer_id ${t.id} PRIMARY KEY,
  user_id ${t.id} NOT NULL REFERENCES users(id),
  external_id TEXT NOT NULL,
  created_at ${t.time} NOT NULL
);
CREATE INDEX user_offers_user ON user_offers(user_id, created_at);
`;
}
