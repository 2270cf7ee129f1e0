import type { Environment } from '../platform/environment.js';
import type { EventType } from '../platform/events.js';

// The webhooks capability's domain types (issue 24): other capabilities and pages import these.

export type EndpointState = 'enabled' | 'disabled';

/** A project's webhook endpoint. Never the secret: only the service opens it, to sign. */
export interface WebhookEndpoint {
  id: string;
  projectId: string;
  environment: Environment;
  url: string;
  /** Empty: every event type. */
  eventTypes: EventType[];
  state: EndpointState;
  /** Why it was disabled (failing for 5 days), shown to its owner. */
  disabledReason: string | null;
  /** Since when every attempt failed (null: the last attempt succeeded, or none yet). */
  failingSince: number | null;
  /** After a rotation: until when the previous secret's signature is sent too. */
  previousSecretUntil: number | null;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint: the outbox row, and the delivery log's line. */
export interface WebhookDelivery {
  /** `msg_…`: the `webhook-id` header, the same on every attempt. */
  id: string;
  endpointId: string;
  eventType: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What the service answers once, at creation and rotation: the secret in clear. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  /** `whsec_…` (Standard Webhooks): shown once, stored sealed. */
  secret: string;
}
