import type { Actor, AuditLog } from '../audit/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import { UsageError } from '../platform/usage-error.js';
import { isStopWord, queryWords } from '../search/analysis/text.js';
import type { SynonymRule } from '../search/query/synonyms.js';
import { MAX_SYNONYM_LENGTH, MAX_SYNONYM_WORDS, MAX_SYNONYMS, type Synonym } from './model.js';
import type { SynonymStore } from './store.js';

/** The rules search applies, and the version they were read at (for the answer cache's key). */
export interface CurrentSynonyms {
  version: number;
  /** The same array while the rules do not change (the engine keeps its reading of it). */
  rules: readonly SynonymRule[];
}

export interface SynonymService {
  add(actor: Actor, environment: Environment, words: readonly string[], oneWay: boolean): Promise<Synonym>;
  list(environment: Environment): Promise<Synonym[]>;
  remove(actor: Actor, environment: Environment, id: string): Promise<Synonym>;
  /** What searches of the environment apply now (read on first use, then kept current). */
  current(environment: Environment): Promise<CurrentSynonyms>;
  /** Reads the environment's rules again when their version moved (a change here or elsewhere). */
  refresh(environment: Environment): Promise<void>;
  /** Checks the versions of the environments every `ms` (the slower way when a message is lost). */
  startPolling(environments: readonly Environment[], ms: number): void;
  stop(): void;
}

/** Change-bus topic on which synonym changes are announced; message: the environment. */
export const SYNONYM_CHANGES_TOPIC = 'synonyms';

const spelled = (text: string) => queryWords(text).filter((w) => !isStopWord(w));

/**
 * Synonyms per environment (docs/search.md): changed by the operator (CLI), every change
 * audited; applied by search without re-indexing. A change is read at once by this process and
 * announced (`onChanged`: the change bus); every process also checks the version each poll.
 */
export function createSynonymService(deps: {
  store: SynonymStore;
  audit: AuditLog;
  clock: Clock;
  onChanged?: (environment: Environment) => Promise<void>;
}): SynonymService {
  const kept = new Map<Environment, CurrentSynonyms>();
  const loading = new Map<Environment, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;

  async function load(environment: Environment): Promise<void> {
    const version = await deps.store.version(environment);
    if (kept.get(environment)?.version === version) return;
    const rules = (await deps.store.list(environment)).map((s) => ({ oneWay: s.oneWay, words: s.words }));
    kept.set(environment, { version, rules });
  }

  function refresh(environment: Environment): Promise<void> {
    const running = loading.get(environment);
    if (running) return running;
    const next = load(environment).finally(() => loading.delete(environment));
    loading.set(environment, next);
    return next;
  }

  async function changed(environment: Environment): Promise<void> {
    await refresh(environment);
    await deps.onChanged?.(environment);
  }

  return {
    async add(actor, environment, given, oneWay) {
      const words = given.map((w) => w.trim().replace(/\s+/g, ' '));
      if (words.length < 2 || words.length > MAX_SYNONYM_WORDS)
        throw new UsageError(
          `give 2 to ${MAX_SYNONYM_WORDS} words${oneWay ? ' (the first finds the others)' : ''}`,
        );
      const seen = new Set<string>();
      for (const word of words) {
        if (word.length === 0 || word.length > MAX_SYNONYM_LENGTH)
          throw new UsageError(`each word: 1 to ${MAX_SYNONYM_LENGTH} characters`);
        const key = spelled(word).join(' ');
        if (key === '')
          throw new UsageError(`"${word}" has nothing search matches (only punctuation or common words)`);
        if (seen.has(key)) throw new UsageError(`"${word}" is given twice`);
        seen.add(key);
      }
      if ((await deps.store.count(environment)) >= MAX_SYNONYMS)
        throw new UsageError(`at most ${MAX_SYNONYMS} synonym rules per environment`, 'conflict');
      const synonym: Synonym = { id: newId('syn'), environment, oneWay, words, createdAt: deps.clock.now() };
      await deps.store.add(synonym);
      await deps.audit.record(
        actor,
        'synonyms.add',
        { type: 'synonym', id: synonym.id },
        { environment, oneWay, words },
      );
      await changed(environment);
      return synonym;
    },
    list: (environment) => deps.store.list(environment),
    async remove(actor, environment, id) {
      const synonym = (await deps.store.list(environment)).find((s) => s.id === id);
      if (!synonym || !(await deps.store.remove(environment, id)))
        throw new UsageError(`no synonym rule ${id} in ${environment}`, 'not_found');
      await deps.audit.record(
        actor,
        'synonyms.remove',
        { type: 'synonym', id },
        {
          environment,
          oneWay: synonym.oneWay,
          words: synonym.words,
        },
      );
      await changed(environment);
      return synonym;
    },
    async current(environment) {
      const known = kept.get(environment);
      if (known) return known;
      await refresh(environment);
      return kept.get(environment) ?? { version: 0, rules: [] };
    },
    refresh,
    startPolling(environments, ms) {
      if (timer) return;
      timer = setInterval(() => {
        for (const environment of environments) void refresh(environment).catch(() => undefined);
      }, ms);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
