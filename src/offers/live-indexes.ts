import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import type { SearchIndex, SearchSchema } from '../search/engine.js';
import type { IndexReader } from './index-reader.js';
import type { IndexSnapshots } from './index-snapshots.js';
import { createLiveIndex, type LiveIndex, type SchemaSource } from './live-index.js';
import type { OfferStore } from './store.js';

/** The live index of each environment a process serves, and the change-bus topic they follow. */
export interface LiveIndexes {
  get(environment: Environment): LiveIndex | undefined;
  /** Builds the environments' indexes (both at once), then polls each every `pollMs`. */
  start(environments: readonly Environment[], pollMs: number): Promise<void>;
  /** True when every started index is ready (and at least one was started). */
  ready(): boolean;
  /** Applies the environment's committed changes now, when its index is held here. */
  catchUp(environment: Environment): Promise<void>;
  /** Re-indexes the environment in the background when its declarations changed (resolves when done). */
  checkSchema(environment: Environment): Promise<void>;
  stop(): void;
  /** Stops, writing the snapshots that are behind (shutdown). */
  close(): Promise<void>;
}

/** Change-bus topic on which offer writes are announced; message: the environment. */
export const OFFER_CHANGES_TOPIC = 'offers';

export function createLiveIndexes(deps: {
  store: Pick<OfferStore, 'changeSeq' | 'scan' | 'changes' | 'count'>;
  createIndex: (schema: SearchSchema) => SearchIndex;
  schemas?: SchemaSource;
  logger: Logger;
  reader?: IndexReader;
  snapshots?: IndexSnapshots;
  /** Milliseconds now: the service's clock, so the warm-up prepares for the queries' `now`. */
  now?: () => number;
}): LiveIndexes {
  const live = new Map<Environment, LiveIndex>();
  return {
    get: (environment) => live.get(environment),
    async start(environments, pollMs) {
      const started = environments.filter((e) => !live.has(e));
      for (const environment of started) live.set(environment, createLiveIndex({ ...deps, environment }));
      await Promise.all(started.map((e) => live.get(e)?.build()));
      for (const environment of started) live.get(environment)?.startPolling(pollMs);
    },
    ready: () => live.size > 0 && [...live.values()].every((l) => l.ready),
    catchUp: (environment) => live.get(environment)?.catchUp() ?? Promise.resolve(),
    checkSchema: (environment) => live.get(environment)?.checkSchema() ?? Promise.resolve(),
    stop() {
      for (const l of live.values()) l.stop();
    },
    async close() {
      await Promise.all([...live.values()].map((l) => l.close()));
    },
  };
}
