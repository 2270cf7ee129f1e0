import type { KeyApplication } from '../applications/model.js';
import type { ApplicationService } from '../applications/service.js';
import type { Actor, AuditLog } from '../audit/service.js';
import type { DeveloperService } from '../developers/service.js';
import type { KeyRecord } from '../keys/model.js';
import type { FixedFilters } from '../keys/publishable.js';
import { ROLL_OVERLAPS, type RollOverlap } from '../keys/roll-overlap.js';
import type { IssuedKey, KeyService } from '../keys/service.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from '../projects/model.js';
import type { ProjectService } from '../projects/service.js';
import type { UsageService } from '../usage/service.js';

type Developer = Awaited<ReturnType<DeveloperService['add']>>;
type ProjectDetails = { name: string; description: string; website?: string; redirectUris: string[] };

/** A key and the developer's project it belongs to. */
export interface OwnKey {
  key: KeyRecord;
  project: Project;
}

/**
 * What a developer does in the portal, mirror of the console's `OperatorActions`
 * (issue 14): the ownership checks and the audit entries live here, once. Everything is looked
 * up through its owner: what belongs to someone else answers `null`, exactly like what does not
 * exist. `actor` is the signed-in developer as the audit log names them.
 */
export interface DeveloperActions {
  /** A new developer account; `actorOf` names it for the audit log (its address). */
  signup(
    input: { email: string; name?: string; password?: string },
    actorOf: (d: Developer) => Actor,
  ): Promise<Developer>;
  ownProject(developerId: string, projectId: string): Promise<Project | null>;
  ownKey(developerId: string, keyId: string): Promise<OwnKey | null>;
  createProject(actor: Actor, ownerEmail: string, details: ProjectDetails): Promise<Project>;
  updateProject(actor: Actor, project: Project, details: ProjectDetails): Promise<Project>;
  /** An application for a secret key; in testing it may be approved at once (audited as the system). */
  apply(
    actor: Actor,
    project: Project,
    input: { environment: Environment; wantsRefresh: boolean; refreshReason?: string },
  ): Promise<KeyApplication>;
  /** Issue 16: publishable keys need no approval. */
  issuePublishable(
    actor: Actor,
    project: Project,
    input: { environment: Environment; allowedOrigins: string[]; fixedFilters: FixedFilters },
  ): Promise<IssuedKey>;
  /** The approved key's secret, once; `already_revealed` after that. */
  reveal(
    actor: Actor,
    developerId: string,
    applicationId: string,
  ): Promise<{ key: KeyRecord; secret: string; project: Project } | 'not_found' | 'already_revealed'>;
  rollKey(actor: Actor, own: OwnKey, overlap: RollOverlap): Promise<IssuedKey>;
  revokeKey(actor: Actor, own: OwnKey): Promise<void>;
  /** The dashboard: the developer's projects, their active keys and pending applications. */
  dashboard(
    ownerEmail: string,
  ): Promise<{ project: Project; activeKeys: number; pendingApplications: number }[]>;
  projectView(project: Project): Promise<{ applications: KeyApplication[]; keys: KeyRecord[] }>;
  usage: UsageService['forKey'];
}

/** Issue 27: why an unverified developer cannot apply for a production key. */
export const UNVERIFIED_MESSAGE =
  'confirm your email address before applying for a production key: follow the link we mailed you, or ask for it again';

const SYSTEM: Actor = { kind: 'system', id: null, email: null, ip: null };

export function createDeveloperActions(deps: {
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  applications: ApplicationService;
  usage: UsageService;
  audit: AuditLog;
}): DeveloperActions {
  const { audit } = deps;
  async function ownProject(developerId: string, projectId: string): Promise<Project | null> {
    const project = await deps.projects.get(projectId);
    return project && project.developerId === developerId ? project : null;
  }
  return {
    async signup(input, actorOf) {
      const developer = await deps.developers.add(input);
      await audit.record(actorOf(developer), 'developer.signup', { type: 'developer', id: developer.id });
      return developer;
    },
    ownProject,
    async ownKey(developerId, keyId) {
      const key = await deps.keys.get(keyId);
      const project = key ? await ownProject(developerId, key.projectId) : null;
      return key && project ? { key, project } : null;
    },
    async createProject(actor, ownerEmail, details) {
      const project = await deps.projects.add({ ...details, ownerEmail });
      await audit.record(
        actor,
        'project.create',
        { type: 'project', id: project.id },
        { name: project.name, redirectUris: project.redirectUris },
      );
      return project;
    },
    async updateProject(actor, project, details) {
      const updated = await deps.projects.update(project.id, details);
      await audit.record(
        actor,
        'project.update',
        { type: 'project', id: project.id },
        { name: updated.name, redirectUris: updated.redirectUris },
      );
      return updated;
    },
    async apply(actor, project, input) {
      // Issue 27: a production key waits until the developer has confirmed their email address.
      if (
        input.environment === 'production' &&
        (await deps.developers.get(project.developerId))?.emailVerifiedAt == null
      ) {
        throw new UsageError(UNVERIFIED_MESSAGE, 'conflict');
      }
      const application = await deps.applications.apply({ projectId: project.id, ...input });
      await audit.record(
        actor,
        'application.create',
        { type: 'application', id: application.id },
        { projectId: project.id, environment: input.environment, wantsRefresh: application.wantsRefresh },
      );
      if (application.state === 'approved') {
        await audit.record(
          SYSTEM,
          'application.approve',
          { type: 'application', id: application.id },
          { keyId: application.keyId, automatic: true },
        );
      }
      return application;
    },
    async issuePublishable(actor, project, input) {
      const issued = await deps.keys.issue({ projectId: project.id, kind: 'publishable', ...input });
      await audit.record(
        actor,
        'key.issue',
        { type: 'key', id: issued.record.id },
        {
          projectId: project.id,
          environment: input.environment,
          kind: 'publishable',
          allowedOrigins: issued.record.allowedOrigins,
          fixedFilters: issued.record.fixedFilters,
        },
      );
      return issued;
    },
    async reveal(actor, developerId, applicationId) {
      const application = await deps.applications.get(applicationId);
      const project = application ? await ownProject(developerId, application.projectId) : null;
      if (!application || !project) return 'not_found';
      const secret = await deps.applications.reveal(application.id);
      const key = application.keyId ? await deps.keys.get(application.keyId) : undefined;
      if (secret === null || !key) return 'already_revealed';
      await audit.record(actor, 'key.reveal', { type: 'key', id: key.id }, { applicationId: application.id });
      return { key, secret, project };
    },
    async rollKey(actor, own, overlap) {
      const issued = await deps.keys.roll(own.key.id, ROLL_OVERLAPS[overlap]);
      await audit.record(actor, 'key.roll', { type: 'key', id: own.key.id }, { overlap });
      return issued;
    },
    async revokeKey(actor, own) {
      await deps.keys.revoke(own.key.id);
      await audit.record(actor, 'key.revoke', { type: 'key', id: own.key.id }, {});
    },
    async dashboard(ownerEmail) {
      const projects = await deps.projects.list({ ownerEmail });
      const pending = await deps.applications.list({
        state: 'pending',
        projectIds: projects.map((p) => p.id),
      });
      return Promise.all(
        projects.map(async (project) => ({
          project,
          activeKeys: (await deps.keys.list({ projectId: project.id })).filter((k) => k.state === 'active')
            .length,
          pendingApplications: pending.filter((a) => a.projectId === project.id).length,
        })),
      );
    },
    async projectView(project) {
      const [applications, keys] = await Promise.all([
        deps.applications.list({ projectIds: [project.id] }),
        deps.keys.list({ projectId: project.id }),
      ]);
      return { applications, keys };
    },
    usage: (keyId, options) => deps.usage.forKey(keyId, options),
  };
}
