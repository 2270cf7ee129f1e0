import type { Dialect } from '../database.js';

/**
 * Version 30 (issue 5): the developer portal and the operator console. Operators, browser
 * sessions (only the SHA-256 of a session token is stored), key applications (with the new key
 * sealed until its one reveal) and the append-only audit log. Written once, rendered per dialect.
 */
export function portalSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { id: 'TEXT COLLATE "C"', text: 'TEXT COLLATE "C"', time: 'BIGINT' }
      : { id: 'TEXT', text: 'TEXT', time: 'INTEGER' };
  return `
CREATE TABLE operators (
  id ${t.id} PRIMARY KEY,
  email ${t.text} NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at ${t.time} NOT NULL
);
-- Portal and console sessions. The cookie holds a random token; only its SHA-256 is kept.
-- The CSRF token is a second random value bound to the session (synchronizer token).
CREATE TABLE web_sessions (
  id ${t.id} PRIMARY KEY,
  token_hash ${t.text} NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('developer', 'operator')),
  account_id ${t.id} NOT NULL,
  csrf_token TEXT NOT NULL,
  created_at ${t.time} NOT NULL,
  last_seen_at ${t.time} NOT NULL,
  ended_at ${t.time}
);
CREATE INDEX web_sessions_account ON web_sessions(kind, account_id);
CREATE TABLE key_applications (
  id ${t.id} PRIMARY KEY,
  project_id ${t.id} NOT NULL REFERENCES projects(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  wants_refresh INTEGER NOT NULL,
  refresh_reason TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  decision_reason TEXT,
  decided_by TEXT,
  decided_at ${t.time},
  key_id ${t.id} REFERENCES api_keys(id),
  -- The issued key, encrypted with the master secret until the developer reveals it once.
  key_sealed TEXT,
  revealed_at ${t.time},
  created_at ${t.time} NOT NULL
);
CREATE INDEX key_applications_state ON key_applications(state, created_at);
CREATE INDEX key_applications_project ON key_applications(project_id, created_at);
CREATE TABLE audit_log (
  seq ${dialect === 'postgres' ? 'BIGSERIAL' : 'INTEGER'} PRIMARY KEY${dialect === 'sqlite' ? ' AUTOINCREMENT' : ''},
  id ${t.id} NOT NULL UNIQUE,
  at ${t.time} NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('developer', 'operator', 'cli', 'system')),
  actor_id ${t.text},
  actor_email ${t.text},
  action ${t.text} NOT NULL,
  target_type ${t.text},
  target_id ${t.text},
  detail TEXT NOT NULL DEFAULT '{}',
  client_ip TEXT
);
CREATE INDEX audit_log_at ON audit_log(at);
CREATE INDEX audit_log_action ON audit_log(action, at);
${appendOnly(dialect)}
`;
}

/** The audit log is never edited: the database itself refuses UPDATE and DELETE on it. */
function appendOnly(dialect: Dialect): string {
  if (dialect === 'sqlite') {
    return `
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
`;
  }
  return `
-- One line: migrations are split at a ';' that ends a line.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
`;
}
