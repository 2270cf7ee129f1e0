import type { Database } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { Synonym } from './model.js';

interface Row {
  id: string;
  one_way: number;
  words: string;
  created_at: number;
}

export interface SynonymStore {
  list(environment: Environment): Promise<Synonym[]>;
  /** Bumped by every add and remove of the environment (0: never changed). */
  version(environment: Environment): Promise<number>;
  add(synonym: Synonym): Promise<void>;
  /** False when the environment has no such rule. */
  remove(environment: Environment, id: string): Promise<boolean>;
  count(environment: Environment): Promise<number>;
}

/** Migration 94's tables; one SQL text for both backends. */
export function createSynonymStore(db: Database): SynonymStore {
  const bump = (tx: Pick<Database, 'run'>, environment: Environment) =>
    tx.run(
      `INSERT INTO search_synonym_versions (environment, version) VALUES (?, 1)
       ON CONFLICT (environment) DO UPDATE SET version = search_synonym_versions.version + 1`,
      [environment],
    );
  return {
    async list(environment) {
      const rows = await db.all<Row>(
        'SELECT id, one_way, words, created_at FROM search_synonyms WHERE environment = ? ORDER BY created_at, id',
        [environment],
      );
      return rows.map((r) => ({
        id: r.id,
        environment,
        oneWay: Number(r.one_way) === 1,
        words: JSON.parse(r.words) as string[],
        createdAt: Number(r.created_at),
      }));
    },
    async version(environment) {
      const row = await db.getByKey<{ version: number }>(
        'SELECT version FROM search_synonym_versions WHERE environment = ?',
        [environment],
      );
      return row ? Number(row.version) : 0;
    },
    async add(s) {
      await db.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO search_synonyms (id, environment, one_way, words, created_at) VALUES (?, ?, ?, ?, ?)',
          [s.id, s.environment, s.oneWay ? 1 : 0, JSON.stringify(s.words), s.createdAt],
        );
        await bump(tx, s.environment);
      });
    },
    async remove(environment, id) {
      return db.transaction(async (tx) => {
        const removed = await tx.run('DELETE FROM search_synonyms WHERE environment = ? AND id = ?', [
          environment,
          id,
        ]);
        if (removed === 0) return false;
        await bump(tx, environment);
        return true;
      });
    },
    async count(environment) {
      const row = await db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM search_synonyms WHERE environment = ?',
        [environment],
      );
      return Number(row?.n ?? 0);
    },
  };
}
