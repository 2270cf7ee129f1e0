import type { DeveloperService } from '../developers/service.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from './model.js';
import { normaliseRedirectUri } from './redirect-uri.js';
import type { ProjectStore } from './store.js';

export interface ProjectInput {
  name: string;
  ownerEmail: string;
  description?: string;
  website?: string;
  redirectUris?: string[];
}

export type ProjectDetails = Omit<ProjectInput, 'ownerEmail'>;

/** Name, description, website and redirect URIs checked and normalised, or a UsageError. */
function checkedDetails(
  input: ProjectDetails,
): Pick<Project, 'name' | 'description' | 'website' | 'redirectUris'> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new UsageError('a project name has 1 to 100 characters');
  const description = input.description?.trim() ?? '';
  if (description.length > 2000) throw new UsageError('a description has at most 2000 characters');
  const redirectUris = [...new Set((input.redirectUris ?? []).map(normaliseRedirectUri))];
  if (redirectUris.length > 20) throw new UsageError('a project has at most 20 redirect URIs');
  let website: string | null = null;
  if (input.website) {
    if (!URL.canParse(input.website) || !/^https?:$/.test(new URL(input.website).protocol)) {
      throw new UsageError(`website must be an http(s) URL: ${input.website}`);
    }
    website = new URL(input.website).toString();
  }
  return { name, description, website, redirectUris };
}

export interface ProjectService {
  add(input: ProjectInput): Promise<Project>;
  /** Replaces name, description, website and redirect URIs (the portal's edit form). */
  update(id: string, input: ProjectDetails): Promise<Project>;
  get(id: string): Promise<Project | undefined>;
  list(filter?: { ownerEmail?: string }): Promise<Project[]>;
}

export function createProjectService(deps: {
  store: ProjectStore;
  developers: DeveloperService;
  clock: Clock;
}): ProjectService {
  return {
    async add(input) {
      const owner = await deps.developers.findByEmail(input.ownerEmail);
      if (!owner) throw new UsageError(`no developer with email ${input.ownerEmail}`, 'not_found');
      const project: Project = {
        id: newId('prj'),
        developerId: owner.id,
        ...checkedDetails(input),
        createdAt: deps.clock.now(),
      };
      await deps.store.insert(project);
      return project;
    },
    async update(id, input) {
      const existing = await deps.store.get(id);
      if (!existing) throw new UsageError(`no project with id ${id}`, 'not_found');
      const project: Project = { ...existing, ...checkedDetails(input) };
      await deps.store.update(project, deps.clock.now());
      return project;
    },
    get: (id) => deps.store.get(id),
    async list(filter = {}) {
      if (!filter.ownerEmail) return deps.store.list({});
      const owner = await deps.developers.findByEmail(filter.ownerEmail);
      return owner ? deps.store.list({ developerId: owner.id }) : [];
    },
  };
}
