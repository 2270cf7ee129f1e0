import type { Dialect } from '../database.js';

/**
 * Version 90 (issue 24): events as signed webhooks.
 *
 * - `webhook_endpoints`: a project's endpoints per environment. The signing secret is stored
 *   sealed (platform/secret-box.ts, purpose `webhook-secret`), never in clear; after a rotation
 *   the previous secret stays until `previous_secret_until` and both signatures are sent.
 * - `webhook_deliveries`: the outbox. One row per event and endpoint, inserted in the transaction
 *   of the change that causes the event; a dispatcher claims a row (`claimed_by`,
 *   `claimed_until`) with a conditional UPDATE before it sends, so one instance takes it.
 * - `saved_searches.alerts`, and what the percolator needs: the project and environment of the
 *   search, the offers change sequence when it was saved (writes before it never alert), and
 *   `saved_search_matches`, one row per saved search and offer that matched (never alerted twice;
 *   an offer a user already had from another of their saved searches is not sent again).
 * - `webhook_cursors`: how far each environment's offer changes were matched against the saved
 *   searches, claimed like a delivery; starts at today's change counter (no alerts for the past).
 * - `key_expiry_notices`: the keys whose `key.expiring` event was recorded (once per key).
 */
export function webhooksSchema(dialect: Dialect): string {
  const t =
    dialect === 'postgres'
      ? { id: 'TEXT COLLATE "C"', time: 'BIGINT', int: 'INTEGER' }
      : { id: 'TEXT', time: 'INTEGER', int: 'INTEGER' };
  return `
CREATE TABLE webhook_endpoints (
  id ${t.id} PRIMARY KEY,
  project_id ${t.id} NOT NULL REFERENCES projects(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_until ${t.time},
  state TEXT NOT NULL CHECK (state IN ('enabled', 'disabled')),
  disabled_reason TEXT,
  failing_since ${t.time},
  created_at ${t.time} NOT NULL
);
CREATE INDEX webhook_endpoints_project ON webhook_endpoints(project_id, environment);
CREATE TABLE webhook_deliveries (
  id ${t.id} PRIMARY KEY,
  endpoint_id ${t.id} NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts ${t.int} NOT NULL,
  next_attempt_at ${t.time} NOT NULL,
  claimed_by TEXT,
  claimed_until ${t.time},
  last_status ${t.int},
  last_error TEXT,
  last_latency_ms ${t.int},
  created_at ${t.time} NOT NULL,
  updated_at ${t.time} NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at);
ALTER TABLE saved_searches ADD COLUMN alerts ${t.int} NOT NULL DEFAULT 0;
ALTER TABLE saved_searches ADD COLUMN project_id ${t.id};
ALTER TABLE saved_searches ADD COLUMN environment TEXT;
ALTER TABLE saved_searches ADD COLUMN since_seq ${t.time} NOT NULL DEFAULT 0;
CREATE INDEX saved_searches_alerts ON saved_searches(environment, alerts, created_at);
CREATE TABLE saved_search_matches (
  saved_search_id ${t.id} NOT NULL REFERENCES saved_searches(id) ON DELETE CASCADE,
  offer_id ${t.id} NOT NULL,
  created_at ${t.time} NOT NULL,
  PRIMARY KEY (saved_search_id, offer_id)
);
CREATE INDEX saved_search_matches_offer ON saved_search_matches(offer_id);
CREATE TABLE webhook_cursors (
  name TEXT PRIMARY KEY,
  value ${t.time} NOT NULL,
  claimed_by TEXT,
  claimed_until ${t.time}
);
INSERT INTO webhook_cursors (name, value)
  SELECT 'percolate:' || substr(name, 8), value FROM change_counters
  WHERE name IN ('offers:production', 'offers:testing');
CREATE TABLE key_expiry_notices (
  key_id ${t.id} PRIMARY KEY,
  created_at ${t.time} NOT NULL
);
`;
}
