import type { Queryable } from '../db/database.js';
import type { Environment } from './environment.js';

/**
 * The events a project can receive as webhooks (issue 24). Capabilities that cause one record it
 * through `RecordEvent` inside the transaction of the change itself, so an event exists exactly
 * when its cause committed (the transactional outbox of webhooks/store.ts).
 */
export const EVENT_TYPES = [
  'saved_search.matched',
  'application.approved',
  'application.rejected',
  'key.revoked',
  'key.rolled',
  'key.expiring',
  'import.completed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface PlatformEvent {
  projectId: string;
  environment: Environment;
  type: EventType;
  data: Record<string, unknown>;
}

/** Records `event` for delivery, inside `tx` (the cause's transaction). */
export type RecordEvent = (tx: Queryable, event: PlatformEvent) => Promise<void>;
