import type { Actor, AuditLog } from '../audit/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import { attributeValue } from '../search/attributes/values.js';
import {
  ATTRIBUTE_NAME,
  ATTRIBUTE_TYPES,
  type AttributeDeclaration,
  formatRankBy,
  MAX_ATTRIBUTES,
  type RankBy,
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
  /**
   * The ranking tie-break after the text rules (null: none, newest first): a declared `--sort`
   * number attribute. Re-indexes in the background like a declaration.
   */
  setRankBy(actor: Actor, environment: Environment, rankBy: RankBy | null): Promise<RankBy | null>;
  /**
   * Why a publishable key's `attr.*` fixed filters could never be searched with in this
   * environment (an undeclared attribute, a value not of its type), or null.
   */
  fixedFilterProblem(environment: Environment, attributes: Record<string, string[]>): Promise<string | null>;
}

/** Why `attr.*` fixed filters fail these declarations (null: every one is a declared attribute's value). */
export function fixedAttributeProblem(
  filters: Record<string, string[]>,
  declared: readonly AttributeDeclaration[],
): string | null {
  for (const [name, values] of Object.entries(filters)) {
    const a = declared.find((d) => d.name === name);
    if (!a)
      return `filter attr.${name}: no attribute ${name} is declared in this environment (vitrine attributes set)`;
    for (const v of values)
      if (attributeValue(a.type, v) === undefined) return `filter attr.${name}=${v}: not a ${a.type} value`;
  }
  return null;
}

/** Why a tie-break is refused with these declarations (null: it is fine). */
export function rankByProblem(rankBy: RankBy, attributes: readonly AttributeDeclaration[]): string | null {
  const a = attributes.find((x) => x.name === rankBy.name);
  if (!a) return `no attribute ${rankBy.name} is declared`;
  if (a.type !== 'number' || !a.sort)
    return `the tie-break must be a number attribute declared with --sort (${a.name} is ${a.type}${a.sort ? '' : ', not --sort'})`;
  return null;
}

/** Why a declaration is refused (null: it is fine). */
export function declarationProblem(a: AttributeDeclaration): string | null {
  if (!ATTRIBUTE_NAME.test(a.name))
    return `attribute name ${JSON.stringify(a.name)}: a letter, then letters, digits or _, at most 40 characters`;
  if (!ATTRIBUTE_TYPES.includes(a.type)) return `type must be one of ${ATTRIBUTE_TYPES.join(', ')}`;
  if (a.sort && a.type === 'string') return 'sorting is for number and boolean attributes';
  if (a.searchable && a.type !== 'string')
    return 'searchable is for string attributes (q matches their words)';
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
    async fixedFilterProblem(environment, attributes) {
      if (Object.keys(attributes).length === 0) return null;
      return fixedAttributeProblem(attributes, (await store.read(environment)).attributes);
    },
    version: (environment) => store.version(environment),
    async setAttribute(actor, environment, attribute) {
      const problem = declarationProblem(attribute);
      if (problem) throw new UsageError(problem);
      const current = await store.read(environment);
      if (current.rankBy?.name === attribute.name && rankByProblem(current.rankBy, [attribute]))
        throw new UsageError(
          `${attribute.name} is the ranking tie-break: it stays a --sort number attribute (clear it first: vitrine settings set --rank-by none)`,
          'conflict',
        );
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
      if ((await store.read(environment)).rankBy?.name === name)
        throw new UsageError(
          `${name} is the ranking tie-break (clear it first: vitrine settings set --rank-by none)`,
          'conflict',
        );
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
    async setRankBy(actor, environment, rankBy) {
      if (rankBy) {
        const problem = rankByProblem(rankBy, (await store.read(environment)).attributes);
        if (problem) throw new UsageError(problem);
      }
      await store.setRankBy(environment, rankBy, clock.now());
      await audit.record(
        actor,
        'search.settings_changed',
        { type: 'search_settings', id: environment },
        { environment, rankBy: rankBy ? formatRankBy(rankBy) : null },
      );
      await deps.announce(environment);
      return rankBy;
    },
  };
}
