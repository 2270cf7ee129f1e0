import type { Environment } from '../platform/environment.js';
import type { SearchIndex } from '../search/engine.js';

/** The search index of one environment, kept current from the database (live-index.ts, ADR 0015). */
export interface LiveIndex {
  readonly environment: Environment;
  readonly index: SearchIndex;
  /** True once the start-up read is done. */
  readonly ready: boolean;
  /** The change sequence applied so far. */
  readonly applied: number;
  /**
   * The index's version, kept increasing across rebuilds (issue 26): what the search cache
   * compares (a fresh index counts its changes from zero again).
   */
  readonly version: number;
  /**
   * `performance.now()` when the database's change counter was last read and everything up to it
   * applied (−∞ before): how current the index is known to be (the search cache, ADR 0025).
   */
  readonly checkedAt: number;
  /** Reads every offer and the changes made meanwhile; resolves when the index is ready. */
  build(): Promise<void>;
  /** Applies every change committed so far (a no-op before `build`). Never rejects: logs. */
  catchUp(): Promise<void>;
  /**
   * Re-indexes in the background when the declared attributes changed (polled with the changes,
   * and on the change bus); resolves when that re-index is done. Never rejects: logs.
   */
  checkSchema(): Promise<void>;
  /** The re-index under way, if any. */
  readonly reindexing: Promise<void> | null;
  /** The version of the declarations `index` was built with (0: none ever made). */
  readonly schemaVersion: number;
  /** Starts polling the counter every `pollMs`. */
  startPolling(pollMs: number): void;
  stop(): void;
  /** Stops, and writes a snapshot when changes were applied since the last one (shutdown). */
  close(): Promise<void>;
}
