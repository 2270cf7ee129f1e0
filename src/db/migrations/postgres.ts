import type { Migration } from '../migration.js';
import { authSchema } from './v3-auth.js';
import { dropSqlSearch, offerChangeSequence } from './v12-search.js';
import { portalSchema } from './v30-portal.js';
import { scopesSchema } from './v50-scopes.js';
import { oauthSchema } from './v60-oauth.js';
import { accountStateSchema } from './v70-accounts.js';
import { keyRollSchema } from './v71-key-roll.js';
import { identitySchema } from './v80-identity.js';
import { snapshotMarksSchema } from './v81-snapshot-marks.js';
import { webhooksSchema } from './v90-webhooks.js';
import { accountsSchema } from './v91-accounts.js';
import { searchAttributesSchema } from './v92-search-attributes.js';
import { synonymsSchema } from './v94-synonyms.js';
import { userSessionsSchema } from './v95-user-sessions.js';

/**
 * PostgreSQL schema, the twin of `sqlite.ts`. Identifiers use the "C" collation so ids sort by
 * byte value as on SQLite (cursor order must be identical on both backends).
 */
export const postgresMigrations: Migration[] = [
  {
    version: 1,
    name: 'developers, projects, api keys',
    sql: `
CREATE TABLE developers (
  id TEXT COLLATE "C" PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT,
  created_at BIGINT NOT NULL
);
CREATE TABLE projects (
  id TEXT COLLATE "C" PRIMARY KEY,
  developer_id TEXT NOT NULL REFERENCES developers(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  website TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX projects_developer ON projects(developer_id);
CREATE TABLE project_redirect_uris (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  uri TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, uri)
);
CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id),
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'revoked')),
  refresh_allowed SMALLINT NOT NULL DEFAULT 0,
  rate_limit_rps INTEGER,
  expires_at BIGINT,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT,
  -- Value of change_counters('api_keys') when the key last changed in a way verifiers must
  -- see (revoked, permission, plan). Processes poll it to evict their caches (1 s).
  change_seq BIGINT NOT NULL
);
CREATE INDEX api_keys_project ON api_keys(project_id);
CREATE INDEX api_keys_change_seq ON api_keys(change_seq);
-- Monotonic counters bumped inside the transaction that makes a change; the row lock orders
-- concurrent changes, so a poller reading "> last seen" can never skip a commit.
CREATE TABLE change_counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO change_counters (name, value) VALUES ('api_keys', 0);
`,
  },
  {
    version: 2,
    name: 'offers and full-text index',
    sql: `
CREATE TABLE offers (
  seq BIGSERIAL UNIQUE,
  id TEXT COLLATE "C" PRIMARY KEY,
  environment TEXT NOT NULL CHECK (environment IN ('production', 'testing')),
  external_id TEXT,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  category TEXT COLLATE "C" NOT NULL,
  tags TEXT NOT NULL,
  city TEXT NOT NULL,
  region TEXT,
  country TEXT NOT NULL,
  lat DOUBLE PRECISION NOT NULL,
  lon DOUBLE PRECISION NOT NULL,
  price_amount TEXT NOT NULL,
  price_value BIGINT NOT NULL,
  currency TEXT NOT NULL,
  publisher_id TEXT NOT NULL,
  publisher_name TEXT NOT NULL,
  url TEXT,
  attributes TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'expired', 'withdrawn')),
  published_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT,
  -- Built by the application from the same analysed tokens as SQLite's FTS rows (weights:
  -- A title stems, B description stems, C/D their unstemmed words), never by to_tsvector,
  -- whose parser splits text differently from ours.
  search_vector TSVECTOR NOT NULL,
  UNIQUE (environment, external_id)
);
CREATE INDEX offers_published ON offers(environment, published_at, id);
CREATE INDEX offers_price ON offers(environment, price_value, id);
CREATE INDEX offers_category_published ON offers(environment, category, published_at, id);
CREATE INDEX offers_updated ON offers(environment, updated_at);
CREATE INDEX offers_search ON offers USING GIN (search_vector);
`,
  },
  {
    version: 3,
    name: 'end users, signing keys, refresh tokens',
    sql: authSchema({ id: 'TEXT COLLATE "C"', time: 'BIGINT' }),
  },
  {
    // Versions 10-19 are the search branch's (issue #3); 3-9 are reserved for parallel work.
    version: 10,
    name: 'search vocabulary, offer tags, city and geo indexes',
    sql: `
-- Every stem indexed in a title or description (weights A and B), for typo tolerance; the
-- twin of SQLite's table, filled the same way. It only grows (see sqlite.ts).
CREATE TABLE offer_terms (term TEXT COLLATE "C" PRIMARY KEY);
INSERT INTO offer_terms (term) SELECT word FROM ts_stat('SELECT search_vector FROM offers', 'AB')
  ON CONFLICT DO NOTHING;
CREATE TABLE offer_tags (
  tag TEXT COLLATE "C" NOT NULL,
  offer_id TEXT COLLATE "C" NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  PRIMARY KEY (tag, offer_id)
);
CREATE INDEX offer_tags_offer ON offer_tags(offer_id);
INSERT INTO offer_tags (tag, offer_id)
  SELECT t.tag, o.id FROM offers o, jsonb_array_elements_text(o.tags::jsonb) AS t(tag)
  ON CONFLICT DO NOTHING;
CREATE INDEX offers_city ON offers(environment, city);
CREATE INDEX offers_geo ON offers(environment, lat, lon);
-- Country is a filter of its own: without an index a country-only search counts its matches
-- by walking another index (a city's, in name order) until a thousand turn up (1M: 340 ms).
CREATE INDEX offers_country ON offers(environment, country, published_at, id);
`,
  },
  {
    // Issue #3, second pass (speed at 1M offers).
    version: 11,
    name: 'covering geo index, country index',
    sql: `
-- The geo index carries the columns every default search checks (category, status, expiry),
-- so a radius query can count and rank its matches with an index-only scan.
DROP INDEX offers_geo;
CREATE INDEX offers_geo ON offers(environment, lat, lon) INCLUDE (category, status, expires_at);
`,
  },
  {
    // Issue 12. Versions 12-19 belong to the in-memory search engine work.
    version: 12,
    name: 'offer change sequence',
    sql: offerChangeSequence('postgres'),
  },
  {
    version: 13,
    name: 'drop the SQL text search',
    sql: dropSqlSearch('postgres'),
  },
  {
    // Issue #6. Versions 20-29 belong to the limits/metering/scale-out work.
    version: 20,
    name: 'api key usage per day and status class',
    sql: `
-- One row per key, UTC day and status class; processes add their in-memory counts to it
-- every few seconds with an upsert, so several instances add up.
CREATE TABLE api_key_usage (
  key_id TEXT COLLATE "C" NOT NULL,
  day TEXT COLLATE "C" NOT NULL,
  status_class TEXT COLLATE "C" NOT NULL,
  requests BIGINT NOT NULL,
  PRIMARY KEY (key_id, day, status_class)
);
`,
  },
  {
    // Issue 5. Versions 30-39 belong to the portal and console work.
    version: 30,
    name: 'operators, web sessions, key applications, audit log',
    sql: portalSchema('postgres'),
  },
  {
    // Issue 16. Versions 50-59 belong to key scopes, publishable keys and the HTTP import.
    version: 50,
    name: 'key kinds and scopes, allowed origins, fixed filters, offers.project_id',
    sql: scopesSchema('postgres'),
  },
  {
    // Issue 17. Versions 60-69 belong to the OAuth / OpenID Connect work.
    version: 60,
    name: 'authorization codes, grant scopes, revoked token families',
    sql: oauthSchema({ id: 'TEXT COLLATE "C"', time: 'BIGINT' }),
  },
  {
    // Issue 15. Versions 70-79 belong to the integrator-experience work.
    version: 70,
    name: 'operator and developer accounts can be disabled',
    sql: accountStateSchema('postgres'),
  },
  {
    version: 71,
    name: 'rolled keys keep their previous secret for an overlap',
    sql: keyRollSchema('postgres'),
  },
  {
    // Issue 12: the search-index snapshot's check that it belongs to this database (ADR 0024).
    version: 80,
    name: 'the database has a stable random identity',
    sql: identitySchema('postgres'),
  },
  {
    version: 81,
    name: 'search-index snapshots are marked in the database they were taken from',
    sql: snapshotMarksSchema('postgres'),
  },
  {
    // Issue 24: events as signed webhooks (ADR 0036).
    version: 90,
    name: 'webhook endpoints, the delivery outbox, saved-search alerts',
    sql: webhooksSchema('postgres'),
  },
  {
    // Issue 27: mail outbox, account tokens, verified emails, second factors, session details.
    version: 91,
    name: 'mail outbox, reset and verification tokens, second factors, session details',
    sql: accountsSchema('postgres'),
  },
  {
    // Issue 23: declared attributes and search settings per environment (ADR 0029).
    version: 92,
    name: 'declared search attributes and search settings per environment',
    sql: searchAttributesSchema('postgres'),
  },
  {
    // Issue 23: synonyms of each environment's search.
    version: 94,
    name: 'search synonyms per environment',
    sql: synonymsSchema('postgres'),
  },
  {
    // Issue 27: the sessions (logins) an end user can list and end.
    version: 95,
    name: 'end-user sessions: one row per token family, the login address on authorization codes',
    sql: userSessionsSchema('postgres'),
  },
];
