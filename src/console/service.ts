import type { ApplicationService } from '../applications/service.js';
import type { KeyApplication } from '../applications/store.js';
import type { Actor, AuditLog } from '../audit/service.js';
import type { KeyService } from '../keys/service.js';
import type { KeyRecord } from '../keys/store.js';

/**
 * What an operator does, from the console or the CLI (SPEC §4, §10): each action carried out
 * and written to the audit log with who did it, in one place, so neither door can forget it.
 */
export interface OperatorActions {
  approve(actor: Actor, applicationId: string, options?: { grantRefresh?: boolean }): Promise<KeyApplication>;
  reject(actor: Actor, applicationId: string, reason: string): Promise<KeyApplication>;
  grantRefresh(actor: Actor, keyId: string): Promise<KeyRecord>;
  revokeRefresh(actor: Actor, keyId: string): Promise<{ key: KeyRecord; revokedRefreshTokens: number }>;
  revoke(actor: Actor, keyId: string): Promise<KeyRecord>;
  setPlan(actor: Actor, keyId: string, rps: number | null): Promise<KeyRecord>;
}

const by = (actor: Actor) => actor.email ?? actor.id ?? actor.kind;

export function createOperatorActions(deps: {
  applications: ApplicationService;
  keys: KeyService;
  audit: AuditLog;
}): OperatorActions {
  const { audit } = deps;
  return {
    async approve(actor, id, options = {}) {
      const application = await deps.applications.approve(id, by(actor), options);
      await audit.record(
        actor,
        'application.approve',
        { type: 'application', id },
        { keyId: application.keyId },
      );
      if (options.grantRefresh && application.keyId) {
        await audit.record(
          actor,
          'key.grant_refresh',
          { type: 'key', id: application.keyId },
          { applicationId: id },
        );
      }
      return application;
    },
    async reject(actor, id, reason) {
      const application = await deps.applications.reject(id, by(actor), reason);
      await audit.record(
        actor,
        'application.reject',
        { type: 'application', id },
        { reason: application.decisionReason },
      );
      return application;
    },
    async grantRefresh(actor, keyId) {
      const key = await deps.keys.grantRefresh(keyId);
      await audit.record(actor, 'key.grant_refresh', { type: 'key', id: keyId });
      return key;
    },
    async revokeRefresh(actor, keyId) {
      const result = await deps.keys.revokeRefresh(keyId);
      await audit.record(
        actor,
        'key.revoke_refresh',
        { type: 'key', id: keyId },
        {
          revokedRefreshTokens: result.revokedRefreshTokens,
        },
      );
      return result;
    },
    async revoke(actor, keyId) {
      const key = await deps.keys.revoke(keyId);
      await audit.record(actor, 'key.revoke', { type: 'key', id: keyId });
      return key;
    },
    async setPlan(actor, keyId, rps) {
      const key = await deps.keys.setPlan(keyId, rps);
      await audit.record(actor, 'key.set_plan', { type: 'key', id: keyId }, { rateLimitRps: rps });
      return key;
    },
  };
}
