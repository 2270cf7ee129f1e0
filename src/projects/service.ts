import type { DeveloperService } from '../developers/service.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { UsageError } from '../platform/usage-error.js';
import { normaliseRedirectUri } from './redirect-uri.js';
import type { Project, ProjectStore } from './store.js';

export interface ProjectInput {
  name: string;
  ownerEmail: string;
  description?: string;
  website?: string;
  redirectUris?: string[];
}

export interface ProjectService {
  add(input: ProjectInput): Promise<Project>;
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
      const name = input.name.trim();
      if (name.length === 0 || name.length > 100)
        throw new UsageError('a project name has 1 to 100 characters');
      const owner = await deps.developers.findByEmail(input.ownerEmail);
      if (!owner) throw new UsageError(`no developer with email ${input.ownerEmail}`, 'not_found');
      const redirectUris = [...new Set((input.redirectUris ?? []).map(normaliseRedirectUri))];
      let website: string | null = null;
      if (input.website) {
        if (!URL.canParse(input.website) || !/^https?:$/.test(new URL(input.website).protocol)) {
          throw new UsageError(`website must be an http(s) URL: ${input.website}`);
        }
        website = new URL(input.website).toString();
      }
      const project: Project = {
        id: newId('prj'),
        developerId: owner.id,
        name,
        description: input.description?.trim() ?? '',
        website,
        redirectUris,
        createdAt: deps.clock.now(),
      };
      await deps.store.insert(project);
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
