import type { KeyApplication } from '../applications/model.js';
import type { ApplicationService } from '../applications/service.js';
import type { Actor, AuditLog } from '../audit/service.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { DeveloperService } from '../developers/service.js';
import type { KeyRecord } from '../keys/model.js';
import type { RollOverlap } from '../keys/roll-overlap.js';
import { ROLL_OVERLAPS } from '../keys/roll-overlap.js';
import type { IssuedKey, KeyService } from '../keys/service.js';
import type { OperatorService } from '../operators/service.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from '../projects/model.js';
import { normaliseRedirectUri } from '../projects/redirect-uri.js';
import type { ProjectInput, ProjectService } from '../projects/service.js';
import type { SessionService } from '../sessions/service.js';

/**
 * What an operator does, from the console or the CLI: each action carried out
 * and written to the audit log with who did it, in one place, so neither door can forget it.
 */
export interface OperatorActions {
  approve(actor: Actor, applicationId: string, options?: { grantRefresh?: boolean }): Promise<KeyApplication>;
  reject(actor: Actor, applicationId: string, reason: string): Promise<KeyApplication>;
  grantRefresh(actor: Actor, keyId: string): Promise<KeyRecord>;
  revokeRefresh(actor: Actor, keyId: string): Promise<{ key: KeyRecord; revokedRefreshTokens: number }>;
  revoke(actor: Actor, keyId: string): Promise<KeyRecord>;
  /** The `offers:write` scope (§6.2; issue 16). */
  grantWrite(actor: Actor, keyId: string): Promise<KeyRecord>;
  revokeWrite(actor: Actor, keyId: string): Promise<KeyRecord>;
  setPlan(actor: Actor, keyId: string, rps: number | null): Promise<KeyRecord>;
  /** A new secret for a key, the old one valid for the overlap (issue 15); audited. */
  rollKey(actor: Actor, keyId: string, overlap: RollOverlap): Promise<IssuedKey>;
  /** A new console password for an operator; their sessions end (issue 15). */
  setOperatorPassword(actor: Actor, operatorId: string, password: string): Promise<{ endedSessions: number }>;
  /** The operator can no longer sign in; their sessions end. Never the last enabled one. */
  disableOperator(actor: Actor, operatorId: string): Promise<{ endedSessions: number }>;
  /** The developer can no longer sign in to the portal; their sessions end, their keys stay. */
  disableDeveloper(actor: Actor, developerId: string): Promise<{ endedSessions: number }>;
  /**
   * Clears a sign-in lockout (issue 13) here and, through the change bus, on every instance.
   * `found`: this process held a lockout of the account.
   */
  unlockLogin(actor: Actor, account: string): Promise<{ found: boolean }>;
  /** The CLI's `developers add`, `projects add`, `keys issue`, `operators add` (and the demo). */
  addDeveloper(
    actor: Actor,
    input: Parameters<DeveloperService['add']>[0],
  ): ReturnType<DeveloperService['add']>;
  addProject(actor: Actor, input: ProjectInput): Promise<Project>;
  /** `projects add-redirect-uri|remove-redirect-uri`: one destination more or less; audited. */
  changeRedirectUri(
    actor: Actor,
    projectId: string,
    change: { add: string } | { remove: string },
  ): Promise<Project>;
  /** The audit entry names the key, never the secret. */
  issueKey(actor: Actor, input: Parameters<KeyService['issue']>[0]): Promise<IssuedKey>;
  addOperator(actor: Actor, input: Parameters<OperatorService['add']>[0]): ReturnType<OperatorService['add']>;
}

const by = (actor: Actor) => actor.email ?? actor.id ?? actor.kind;

export function createOperatorActions(deps: {
  applications: ApplicationService;
  keys: KeyService;
  audit: AuditLog;
  operators: OperatorService;
  developers: DeveloperService;
  sessions: SessionService;
  projects: ProjectService;
  loginThrottle: Pick<LoginThrottle, 'unlock'>;
  /** Tells the other instances (the change bus); each keeps its own sign-in counts. */
  announceUnlock: (account: string) => Promise<void>;
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
    async grantWrite(actor, keyId) {
      const key = await deps.keys.grantWrite(keyId);
      await audit.record(actor, 'key.grant_write', { type: 'key', id: keyId });
      return key;
    },
    async revokeWrite(actor, keyId) {
      const key = await deps.keys.revokeWrite(keyId);
      await audit.record(actor, 'key.revoke_write', { type: 'key', id: keyId });
      return key;
    },
    async setPlan(actor, keyId, rps) {
      const key = await deps.keys.setPlan(keyId, rps);
      await audit.record(actor, 'key.set_plan', { type: 'key', id: keyId }, { rateLimitRps: rps });
      return key;
    },
    async setOperatorPassword(actor, operatorId, password) {
      await deps.operators.setPassword(operatorId, password);
      const endedSessions = await deps.sessions.endAll('operator', operatorId);
      await audit.record(
        actor,
        'operator.set_password',
        { type: 'operator', id: operatorId },
        { endedSessions },
      );
      return { endedSessions };
    },
    async disableOperator(actor, operatorId) {
      await deps.operators.disable(operatorId);
      const endedSessions = await deps.sessions.endAll('operator', operatorId);
      await audit.record(actor, 'operator.disable', { type: 'operator', id: operatorId }, { endedSessions });
      return { endedSessions };
    },
    async disableDeveloper(actor, developerId) {
      await deps.developers.disable(developerId);
      const endedSessions = await deps.sessions.endAll('developer', developerId);
      await audit.record(
        actor,
        'developer.disable',
        { type: 'developer', id: developerId },
        { endedSessions },
      );
      return { endedSessions };
    },
    async rollKey(actor, keyId, overlap) {
      const issued = await deps.keys.roll(keyId, ROLL_OVERLAPS[overlap]);
      await audit.record(actor, 'key.roll', { type: 'key', id: keyId }, { overlap });
      return issued;
    },
    async unlockLogin(actor, account) {
      const found = deps.loginThrottle.unlock(account);
      await deps.announceUnlock(account);
      await audit.record(actor, 'login.unlock', { type: 'account', id: account });
      return { found };
    },
    async addDeveloper(actor, input) {
      const created = await deps.developers.add(input);
      await audit.record(
        actor,
        'developer.create',
        { type: 'developer', id: created.id },
        { email: created.email },
      );
      return created;
    },
    async addProject(actor, input) {
      const created = await deps.projects.add(input);
      await audit.record(
        actor,
        'project.create',
        { type: 'project', id: created.id },
        { name: created.name, redirectUris: created.redirectUris },
      );
      return created;
    },
    async changeRedirectUri(actor, projectId, change) {
      const project = await deps.projects.get(projectId);
      if (!project) throw new UsageError(`no project with id ${projectId}`, 'not_found');
      const uri = normaliseRedirectUri('add' in change ? change.add : change.remove);
      const kept = project.redirectUris.filter((u) => u !== uri);
      if (!('add' in change) && kept.length === project.redirectUris.length) {
        throw new UsageError(`${uri} is not a redirect URI of project ${projectId}`, 'not_found');
      }
      const updated = await deps.projects.update(projectId, {
        name: project.name,
        description: project.description,
        website: project.website ?? undefined,
        redirectUris: 'add' in change ? [...kept, uri] : kept,
      });
      await audit.record(
        actor,
        'project.update',
        { type: 'project', id: projectId },
        { name: updated.name, redirectUris: updated.redirectUris },
      );
      return updated;
    },
    async issueKey(actor, input) {
      const issued = await deps.keys.issue(input);
      const publishable = issued.record.kind === 'publishable';
      await audit.record(
        actor,
        'key.issue',
        { type: 'key', id: issued.record.id },
        {
          projectId: input.projectId,
          environment: input.environment,
          ...(publishable
            ? {
                kind: issued.record.kind,
                allowedOrigins: issued.record.allowedOrigins,
                fixedFilters: issued.record.fixedFilters,
              }
            : {}),
        },
      );
      return issued;
    },
    async addOperator(actor, input) {
      const created = await deps.operators.add(input);
      await audit.record(
        actor,
        'operator.create',
        { type: 'operator', id: created.id },
        { email: created.email },
      );
      return created;
    },
  };
}
