// The audit capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export type ActorKind = 'developer' | 'operator' | 'cli' | 'system';

/** One line of the audit log: who did what to which thing, when and from where. */
export interface AuditEntry {
  id: string;
  at: number;
  actorKind: ActorKind;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  detail: Record<string, unknown>;
  clientIp: string | null;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
  limit?: number;
  /** Entries to skip (newest first), for paging. */
  offset?: number;
}
