import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import type { ActorKind, AuditEntry, AuditFilter } from './model.js';
import type { AuditStore } from './store.js';

export interface Actor {
  kind: ActorKind;
  id: string | null;
  email: string | null;
  /** Client address of the request (`request.ip`), null for the CLI. */
  ip: string | null;
}

export interface AuditLog {
  record(
    actor: Actor,
    action: string,
    target: { type: string; id: string } | null,
    detail?: Record<string, unknown>,
  ): Promise<void>;
  list(filter?: AuditFilter): Promise<AuditEntry[]>;
  count(filter?: AuditFilter): Promise<number>;
}

/** The audit log: every operator and developer action, append-only. Never holds a secret. */
export function createAuditLog(deps: { store: AuditStore; clock: Clock }): AuditLog {
  return {
    async record(actor, action, target, detail = {}) {
      await deps.store.append({
        id: newId('aud'),
        at: deps.clock.now(),
        actorKind: actor.kind,
        actorId: actor.id,
        actorEmail: actor.email,
        action,
        targetType: target?.type ?? null,
        targetId: target?.id ?? null,
        detail,
        clientIp: actor.ip,
      });
    },
    list: (filter = {}) => deps.store.list({ ...filter, limit: Math.min(filter.limit ?? 200, 1000) }),
    count: (filter = {}) => deps.store.count(filter),
  };
}
