import type { Actor, AuditLog } from '../audit/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import {
  ATTRIBUTE_NAME,
  ATTRIBUTE_TYPES,
  type AttributeDeclaration,
  MAX_ATTRIBUTES,
  type SearchSettings,
} from './model.js';
import type { SearchSettingsStore } from './store.js';

/**
 * The search settings of each environment (issue 23): declared attributes. Shared by the CLI and
 * the console; every change is audited and announced, and every serving process re-indexes the
 * environment in the background when it sees the new version (offers/live-index.ts).
 */
export interface SearchSettingsService {
  read(environment: Environment): Promise<SearchSettings>;
  version(environment: Environment): Promise<number>;
  setAttribute(
    actor: Actor,
    environment: Environment,
    attribute: AttributeDeclaration,
  ): Promise<AttributeDeclaration>;
  removeAttribute(actor: Actor, environment: Environment, name: string): Promise<void>;
}

/** Why a declaration is refused (null: it is fine). */
export function declarationProblem(a: AttributeDeclaration): string | null {
  if (!ATTRIBUTE_NAME.test(a.name))
    return `attribute name ${JSON.stringify(a.name)}: a letter, then letters, digits or _, at most 40 characters`;
  if (!ATTRIBUTE_TYPES.includes(a.type)) return `type must be one of ${ATTRIBUTE_TYPES.join(', ')}`;
  if (a.sort && a.type === 'string') return 'sorting is for number and boolean attributes';
  if (a.searchable) return 'searchable attributes are not supported yet';
  return null;
}

export function createSearchSettingsService(deps: {
  store: SearchSettingsStore;
  audit: AuditLog;
  clock: Clock;
  /** Tells every serving process (the change bus) after a change committed. */
  announce: (environment: Environment) => Promise<void>;
}): SearchSettingsService {
  const { store, audit, clock } = deps;
  return {
    read: (environment) => store.read(environment),
    version: (environment) => store.version(environment),
    async setAttribute(actor, environment, attribute) {
      const problem = declarationProblem(attribute);
      if (problem) throw new UsageError(problem);
      if (!(await store.putAttribute(environment, attribute, clock.now(), MAX_ATTRIBUTES)))
        throw new UsageError(`at most ${MAX_ATTRIBUTES} attributes per environment`, 'conflict');
      await audit.record(
        actor,
        'search.attribute_set',
        { type: 'search_attribute', id: `${environment}:${attribute.name}` },
        { environment, ...attribute },
      );
      await deps.announce(environment);
      return attribute;
    },
    async removeAttribute(actor, environment, name) {
      if (!(await store.removeAttribute(environment, name, clock.now())))
        throw new UsageError(`no attribute ${name} is declared in ${environment}`, 'not_found');
      await audit.record(
        actor,
        'search.attribute_removed',
        { type: 'search_attribute', id: `${environment}:${name}` },
        { environment, name },
      );
      await deps.announce(environment);
    },
  };
}
