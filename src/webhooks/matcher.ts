import type { IndexRow } from '../offers/store.js';
import type { Environment } from '../platform/environment.js';
import { siblingModule, startModuleWorker } from '../platform/module-worker.js';
import { FiledSearches } from './filed-searches.js';
import { alertOffer, offerMatches, type SearchRules } from './offer-matching.js';
import type { AlertingSearch } from './percolator-store.js';

export type Pair = { searchId: string; offerId: string };

/**
 * The percolator's compute (percolator.ts): the saved searches filed per environment, and the
 * matching of changed offers against them. In a worker thread by default (`createWorkerMatcher`),
 * so that matching an import's offers does not hold the event loop that imports and delivers;
 * `createLocalMatcher` is the same on the calling thread (the worker runs one).
 */
export interface Matcher {
  /** Starts an environment anew under `rules`, its keys counted on `sample` (ADR 0045). */
  begin(environment: Environment, rules: SearchRules, sample: readonly IndexRow[]): Promise<void>;
  /** Files new searches (known ids are left as they are), and re-files some after a drift. */
  file(environment: Environment, searches: readonly AlertingSearch[]): Promise<void>;
  remove(environment: Environment, ids: readonly string[]): Promise<void>;
  /** The (search, offer) pairs among `rows` that alert, the pairs checked, and the time it took. */
  match(
    environment: Environment,
    rows: readonly IndexRow[],
    now: number,
  ): Promise<{ pairs: Pair[]; checked: number; busyMs: number }>;
  close(): Promise<void>;
}

export function createLocalMatcher(): Matcher {
  const filed = new Map<Environment, FiledSearches>();
  return {
    async begin(environment, rules, sample) {
      const f = new FiledSearches(environment, rules);
      for (const row of sample) f.counts.add(alertOffer(row, f.rules.schema));
      f.anchoredAt = f.counts.offers;
      filed.set(environment, f);
    },
    async file(environment, searches) {
      const f = filed.get(environment);
      if (!f) return;
      f.refileSome();
      for (const search of searches) f.add(search);
    },
    async remove(environment, ids) {
      for (const id of ids) filed.get(environment)?.remove(id);
    },
    async match(environment, rows, now) {
      const started = performance.now();
      const f = filed.get(environment);
      const pairs: Pair[] = [];
      let checked = 0;
      if (f && f.byId.size > 0)
        for (const row of rows) {
          const offer = alertOffer(row, f.rules.schema);
          f.counts.add(offer);
          for (const filed of f.candidates(offer)) {
            // Writes committed before the search was saved never alert it.
            if (filed.check === null || row.change_seq <= filed.sinceSeq) continue;
            checked += 1;
            if (offerMatches(offer, filed.check, now, f.rules))
              pairs.push({ searchId: filed.search.id, offerId: row.id });
          }
        }
      return { pairs, checked, busyMs: performance.now() - started };
    },
    async close() {},
  };
}

/** A request to the matching worker (matching-worker.ts) and its answer. */
type Call =
  | { kind: 'begin'; environment: Environment; rules: SearchRules; sample: readonly IndexRow[] }
  | { kind: 'file'; environment: Environment; searches: readonly AlertingSearch[] }
  | { kind: 'remove'; environment: Environment; ids: readonly string[] }
  | { kind: 'match'; environment: Environment; rows: readonly IndexRow[]; now: number };
export type MatcherRequest = { id: number } & Call;
export type MatcherReply = { id: number; error?: string; result?: unknown };

const WORKER_MODULE = siblingModule('matching-worker', import.meta.url);

/** The matcher in a worker thread, started at the first call (a CLI process never starts one). */
export function createWorkerMatcher(): Matcher {
  let worker: ReturnType<typeof startModuleWorker> | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    worker = null;
  };
  function start() {
    const started = startModuleWorker(WORKER_MODULE);
    started.unref();
    started.on('message', ({ id, error, result }: MatcherReply) => {
      const call = waiting.get(id);
      waiting.delete(id);
      if (error !== undefined) call?.reject(new Error(error));
      else call?.resolve(result);
    });
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`matching worker exited (${code})`)));
    return started;
  }
  function call<T>(request: Call): Promise<T> {
    worker ??= start();
    const id = ++next;
    const pending = new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    worker.postMessage({ ...request, id });
    return pending;
  }
  return {
    begin: (environment, rules, sample) => call({ kind: 'begin', environment, rules, sample }),
    file: (environment, searches) => call({ kind: 'file', environment, searches }),
    remove: (environment, ids) => call({ kind: 'remove', environment, ids }),
    match: (environment, rows, now) => call({ kind: 'match', environment, rows, now }),
    async close() {
      const stopping = worker;
      worker = null;
      await stopping?.terminate();
    },
  };
}
