import type { Dialect } from '../database.js';

/**
 * Version 91 (issue 27): what real accounts need. The mail outbox (a message is written in the
 * transaction that needs it and sent after it commits, retried until it goes: a crash between
 * commit and send loses nothing; its bodies are sealed, since they carry links). Single-use
 * account tokens (password reset, email verification; only their SHA-256 is kept). Verified
 * email addresses (accounts that existed before count as verified). Second factors (the TOTP secret sealed, the last accepted time step) and
 * their recovery codes (hashed). The address and user agent of each web session.
 */
export function accountsSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { id: 'TEXT COLLATE "C"', text: 'TEXT COLLATE "C"', time: 'BIGINT' }
      : { id: 'TEXT', text: 'TEXT', time: 'INTEGER' };
  return `
CREATE TABLE mail_outbox (
  id ${t.id} PRIMARY KEY,
  recipient ${t.text} NOT NULL,
  subject TEXT NOT NULL,
  sealed_body TEXT NOT NULL,
  created_at ${t.time} NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at ${t.time} NOT NULL,
  sent_at ${t.time},
  last_error TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox(sent_at, next_attempt_at);
CREATE TABLE account_tokens (
  token_hash ${t.text} PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
  kind TEXT NOT NULL CHECK (kind IN ('developer', 'operator', 'user')),
  account_id ${t.id} NOT NULL,
  created_at ${t.time} NOT NULL,
  expires_at ${t.time} NOT NULL,
  used_at ${t.time}
);
CREATE INDEX account_tokens_account ON account_tokens(kind, account_id, purpose);
ALTER TABLE developers ADD COLUMN email_verified_at ${t.time};
ALTER TABLE users ADD COLUMN email_verified_at ${t.time};
-- Accounts from before verification existed keep working as they did: counted as verified.
UPDATE developers SET email_verified_at = created_at;
UPDATE users SET email_verified_at = created_at;
CREATE TABLE second_factors (
  kind TEXT NOT NULL CHECK (kind IN ('developer', 'operator', 'user')),
  account_id ${t.id} NOT NULL,
  sealed_secret TEXT NOT NULL,
  created_at ${t.time} NOT NULL,
  confirmed_at ${t.time},
  last_step ${t.time} NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, account_id)
);
CREATE TABLE recovery_codes (
  kind TEXT NOT NULL,
  account_id ${t.id} NOT NULL,
  code_hash ${t.text} NOT NULL,
  used_at ${t.time},
  PRIMARY KEY (kind, account_id, code_hash)
);
ALTER TABLE web_sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE web_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
-- A session between the password and the second factor: 'code' (asks for a code) or 'enrol'.
ALTER TABLE web_sessions ADD COLUMN pending TEXT;
`;
}
