import type { Database, Queryable, SqlValue } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { EventType, PlatformEvent } from '../platform/events.js';
import { createPooledIds } from '../platform/ids.js';
import type { DeliveryState, EndpointState, WebhookDelivery, WebhookEndpoint } from './model.js';

interface EndpointRow {
  id: string;
  project_id: string;
  environment: Environment;
  url: string;
  event_types: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  state: EndpointState;
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: number;
  updated_at: number;
}

/** Outcomes recorded, deliveries inserted per statement (PostgreSQL takes at most 65 535 parameters). */
const FINISH_CHUNK = 500;
const INSERT_CHUNK = 500;

/**
 * Message ids from a pool of CSPRNG bytes: a burst of alerts makes thousands at once, and
 * `randomBytes` per id cost ~13 µs of the event loop each in the alerts bench's profile (ADR 0055).
 * A message id is sent to the receiver, not a secret.
 */
const messageId = createPooledIds('msg');

const num = (v: number | string | null) => (v === null ? null : Number(v));

function endpointFrom(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    projectId: r.project_id,
    environment: r.environment,
    url: r.url,
    eventTypes: JSON.parse(r.event_types) as EventType[],
    state: r.state,
    disabledReason: r.disabled_reason,
    failingSince: num(r.failing_since),
    previousSecretUntil: num(r.previous_secret_until),
    createdAt: Number(r.created_at),
  };
}

function deliveryFrom(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    eventType: r.event_type,
    state: r.state,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastStatus: num(r.last_status),
    lastError: r.last_error,
    lastLatencyMs: num(r.last_latency_ms),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** An endpoint with its sealed secrets, for the dispatcher (never leaves the capability). */
export interface SealedEndpoint extends WebhookEndpoint {
  secretSealed: string;
  previousSecretSealed: string | null;
}

/** A claimed delivery: its row and the body to send. */
export interface ClaimedDelivery extends WebhookDelivery {
  body: string;
}

/** What one attempt ended with. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  latencyMs: number;
  /** Delivered, or the next attempt's time, or null: given up (failed). */
  next: 'delivered' | number | null;
}

export interface WebhookStore {
  insertEndpoint(endpoint: WebhookEndpoint, secretSealed: string): Promise<void>;
  endpoints(projectId: string, environment?: Environment): Promise<WebhookEndpoint[]>;
  endpoint(id: string): Promise<SealedEndpoint | undefined>;
  /** Deletes the endpoint and its deliveries; false when unknown. */
  removeEndpoint(id: string): Promise<boolean>;
  rotateSecret(id: string, sealed: string, previousUntil: number): Promise<boolean>;
  /** Inside the cause's transaction: one pending delivery per enabled endpoint subscribed to the type. */
  recordEvent(tx: Queryable, event: PlatformEvent, now: number): Promise<string[]>;
  /**
   * Several events as `recordEvent` records each, in a few statements; resolves to the rows
   * inserted. With `claim`, the rows are inserted claimed (a started dispatcher of this process
   * sends them after the commit without reading them back, dispatcher.ts `claimAtBirth`).
   */
  recordEvents(
    tx: Queryable,
    events: readonly PlatformEvent[],
    now: number,
    claim?: { by: string; until: number },
  ): Promise<ClaimedDelivery[]>;
  /** One event in a transaction of its own (a test event); resolves to the first message id. */
  recordOne(event: PlatformEvent, now: number): Promise<string>;
  /** Ids of pending deliveries due at `now` and not claimed by a live claim, oldest first. */
  due(now: number, limit: number): Promise<string[]>;
  /**
   * Takes the deliveries for `by` until `until` (one statement): those this instance now holds;
   * one another instance holds, or that is done, is left out.
   */
  claimMany(ids: readonly string[], by: string, until: number, now: number): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempts, in one transaction (each only while `by` still holds its claim), and
   * the endpoints' failing state; resolves to the ids recorded.
   */
  finishMany(
    by: string,
    attempts: readonly { id: string; outcome: AttemptOutcome }[],
    now: number,
  ): Promise<Set<string>>;
  /** Gives up the claims `by` holds on pending deliveries (a dispatcher stopping with some unsent). */
  releaseClaims(by: string): Promise<void>;
  /** Disables an endpoint, saying why. */
  disable(id: string, reason: string): Promise<void>;
  deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Queues the delivery again (same id) for an attempt at `now`; false when unknown. */
  resend(endpointId: string, deliveryId: string, now: number): Promise<boolean>;
  /** Pending deliveries, and the creation time of the oldest (null: none). */
  queue(): Promise<{ pending: number; oldestCreatedAt: number | null }>;
}

const ENDPOINT_COLUMNS =
  'id, project_id, environment, url, event_types, secret_sealed, previous_secret_sealed, previous_secret_until, state, disabled_reason, failing_since, created_at';
const DELIVERY_COLUMNS =
  'id, endpoint_id, event_type, body, state, attempts, next_attempt_at, last_status, last_error, last_latency_ms, created_at, updated_at';

export function createWebhookStore(db: Database): WebhookStore {
  /**
   * SQLite: a claim finds its rows by id. Without statistics on the table (a new database, or
   * statistics taken while it was empty) the planner took the due index for `state = 'pending'`
   * and walked every pending row for each claim: a burst's claims grew with its backlog (ADR 0060).
   */
  const byId = db.dialect === 'sqlite' ? 'INDEXED BY sqlite_autoindex_webhook_deliveries_1' : '';
  return {
    async insertEndpoint(e, secretSealed) {
      await db.run(
        `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, NULL, NULL, ?)`,
        [
          e.id,
          e.projectId,
          e.environment,
          e.url,
          JSON.stringify(e.eventTypes),
          secretSealed,
          e.state,
          e.createdAt,
        ],
      );
    },
    async endpoints(projectId, environment) {
      const rows = await db.all<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = ?${environment ? ' AND environment = ?' : ''} ORDER BY created_at, id`,
        environment ? [projectId, environment] : [projectId],
      );
      return rows.map(endpointFrom);
    },
    async endpoint(id) {
      const r = await db.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`, [
        id,
      ]);
      return (
        r && {
          ...endpointFrom(r),
          secretSealed: r.secret_sealed,
          previousSecretSealed: r.previous_secret_sealed,
        }
      );
    },
    async removeEndpoint(id) {
      return db.transaction(async (tx) => {
        await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
        return (await tx.run('DELETE FROM webhook_endpoints WHERE id = ?', [id])) > 0;
      });
    },
    async rotateSecret(id, sealed, previousUntil) {
      const changed = await db.run(
        'UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, previous_secret_until = ?, secret_sealed = ? WHERE id = ?',
        [previousUntil, sealed, id],
      );
      return changed > 0;
    },
    async recordEvent(tx, event, now) {
      return (await this.recordEvents(tx, [event], now)).map((d) => d.id);
    },
    async recordEvents(tx, events, now, claim) {
      const subscribed = new Map<string, { id: string; types: string[] }[]>();
      const rows: ClaimedDelivery[] = [];
      for (const event of events) {
        // One read of a project's endpoints per call, whatever the number of its events.
        const scope = `${event.projectId}\u0001${event.environment}`;
        let endpoints = subscribed.get(scope);
        if (endpoints === undefined) {
          endpoints = (
            await tx.all<{ id: string; event_types: string }>(
              "SELECT id, event_types FROM webhook_endpoints WHERE project_id = ? AND environment = ? AND state = 'enabled' ORDER BY created_at, id",
              [event.projectId, event.environment],
            )
          ).map((e) => ({ id: e.id, types: JSON.parse(e.event_types) as string[] }));
          subscribed.set(scope, endpoints);
        }
        for (const endpoint of endpoints) {
          // A test event goes to the endpoint it names only.
          if (
            event.type === 'webhook.test'
              ? event.data.endpointId !== endpoint.id
              : endpoint.types.length > 0 && !endpoint.types.includes(event.type)
          )
            continue;
          const body = JSON.stringify({
            type: event.type,
            timestamp: new Date(now).toISOString(),
            data: event.data,
          });
          rows.push({
            id: messageId(),
            endpointId: endpoint.id,
            eventType: event.type,
            body,
            state: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lastStatus: null,
            lastError: null,
            lastLatencyMs: null,
            createdAt: now,
            updatedAt: now,
          });
        }
      }
      // A few statements for a round's alerts, not one per event (PostgreSQL: a round trip each).
      for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
        const chunk = rows.slice(from, from + INSERT_CHUNK);
        const params: SqlValue[] = [];
        for (const r of chunk)
          params.push(
            r.id,
            r.endpointId,
            r.eventType,
            r.body,
            now,
            now,
            now,
            claim?.by ?? null,
            claim?.until ?? null,
          );
        await tx.run(
          `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}, claimed_by, claimed_until) VALUES ${chunk
            .map(() => "(?, ?, ?, ?, 'pending', 0, ?, NULL, NULL, NULL, ?, ?, ?, ?)")
            .join(', ')}`,
          params,
        );
      }
      return rows;
    },
    async recordOne(event, now) {
      const ids = await db.transaction((tx) => this.recordEvent(tx, event, now));
      return ids[0] ?? '';
    },
    async due(now, limit) {
      const rows = await db.all<{ id: string }>(
        "SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt_at, id LIMIT ?",
        [now, now, limit],
      );
      return rows.map((r) => r.id);
    },
    async claimMany(ids, by, until, now) {
      if (ids.length === 0) return [];
      const list = ids.map(() => '?').join(', ');
      // One conditional UPDATE: a row another instance claimed first no longer qualifies (on
      // PostgreSQL the condition is checked again on the row it waited for).
      await db.run(
        `UPDATE webhook_deliveries ${byId} SET claimed_by = ?, claimed_until = ? WHERE id IN (${list}) AND state = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)`,
        [by, until, ...ids, now],
      );
      const rows = await db.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id IN (${list}) AND claimed_by = ? AND claimed_until = ?`,
        [...ids, by, until],
      );
      return rows.map((r) => ({ ...deliveryFrom(r), body: r.body }));
    },
    async finishMany(by, attempts, now) {
      const recorded = new Set<string>();
      if (attempts.length === 0) return recorded;
      /** Per endpoint: whether an attempt of this pass was delivered (else all failed). */
      const reached = new Map<string, boolean>();
      await db.transaction(async (tx) => {
        for (let from = 0; from < attempts.length; from += FINISH_CHUNK) {
          const chunk = attempts.slice(from, from + FINISH_CHUNK);
          const params: SqlValue[] = [];
          for (const { id, outcome: o } of chunk) {
            const state: DeliveryState =
              o.next === 'delivered' ? 'delivered' : o.next === null ? 'failed' : 'pending';
            params.push(id, state, typeof o.next === 'number' ? o.next : now, o.status, o.error);
            params.push(Math.round(o.latencyMs));
          }
          // One statement per chunk (a statement per delivery would bound the rate on PostgreSQL),
          // each row only while `by` still holds its claim.
          const rows = await tx.all<{ id: string; endpoint_id: string; state: DeliveryState }>(
            `WITH v (id, state, next_at, status, error, latency) AS (VALUES ${chunk
              .map(() => '(?, ?, CAST(? AS BIGINT), CAST(? AS INTEGER), ?, CAST(? AS INTEGER))')
              .join(', ')})
             UPDATE webhook_deliveries SET state = v.state, attempts = attempts + 1, next_attempt_at = v.next_at,
               claimed_by = NULL, claimed_until = NULL, last_status = v.status, last_error = v.error,
               last_latency_ms = v.latency, updated_at = ?
             FROM v WHERE webhook_deliveries.id = v.id AND webhook_deliveries.claimed_by = ?
             RETURNING webhook_deliveries.id, webhook_deliveries.endpoint_id, webhook_deliveries.state`,
            [...params, now, by],
          );
          for (const r of rows) {
            recorded.add(r.id);
            reached.set(r.endpoint_id, (reached.get(r.endpoint_id) ?? false) || r.state === 'delivered');
          }
        }
        // An endpoint is failing from its first failed attempt after its last delivered one.
        for (const [endpointId, delivered] of reached)
          await tx.run(
            delivered
              ? 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'
              : 'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?',
            delivered ? [endpointId] : [now, endpointId],
          );
      });
      return recorded;
    },
    async releaseClaims(by) {
      await db.run(
        "UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ? AND state = 'pending'",
        [by],
      );
    },
    async disable(id, reason) {
      await db.run("UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = ? WHERE id = ?", [
        reason,
        id,
      ]);
    },
    async deliveries(endpointId, limit) {
      const rows = await db.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
        [endpointId, limit],
      );
      return rows.map(deliveryFrom);
    },
    async resend(endpointId, deliveryId, now) {
      const changed = await db.run(
        "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ? AND endpoint_id = ? AND state <> 'pending'",
        [now, now, deliveryId, endpointId],
      );
      if (changed > 0) return true;
      return (
        (await db.get('SELECT id FROM webhook_deliveries WHERE id = ? AND endpoint_id = ?', [
          deliveryId,
          endpointId,
        ])) !== undefined
      );
    },
    async queue() {
      const row = await db.get<{ n: number; oldest: number | null }>(
        "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_deliveries WHERE state = 'pending'",
      );
      return { pending: Number(row?.n ?? 0), oldestCreatedAt: num(row?.oldest ?? null) };
    },
  };
}
