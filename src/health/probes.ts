import type { Database } from '../db/database.js';
import type { RedisState } from '../platform/redis.js';

/** What `/readyz` asks of the process (issue 14: the route gets these, not the database). */
export interface HealthProbes {
  /** Resolves when the database answers; rejects when it does not. */
  databaseAnswers(): Promise<void>;
  redisState(): RedisState;
  /** False while the in-memory search index is being built (issue 12). */
  searchReady(): boolean;
}

export function createHealthProbes(deps: {
  db: Database;
  redisState: () => RedisState;
  searchReady: () => boolean;
}): HealthProbes {
  return {
    databaseAnswers: () => deps.db.ping(),
    redisState: deps.redisState,
    searchReady: deps.searchReady,
  };
}
