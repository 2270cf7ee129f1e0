import type { Database, Queryable } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import { parseRankBy } from '../search/rules.js';
import {
  type AttributeDeclaration,
  type AttributeType,
  formatRankBy,
  type RankBy,
  type SearchSettings,
} from './model.js';

interface AttributeRow {
  name: string;
  type: AttributeType;
  facet: number;
  sortable: number;
  searchable: number;
}

/** The declarations per environment (migration 92); every change bumps the version in its transaction. */
export interface SearchSettingsStore {
  read(environment: Environment): Promise<SearchSettings>;
  /** The version alone (what the serving processes poll). */
  version(environment: Environment): Promise<number>;
  /** Adds or replaces one declaration; false when `limit` declarations exist and it is new. */
  putAttribute(
    environment: Environment,
    a: AttributeDeclaration,
    now: number,
    limit: number,
  ): Promise<boolean>;
  /** False when there was none by that name. */
  removeAttribute(environment: Environment, name: string, now: number): Promise<boolean>;
  /** Sets (null: clears) the ranking tie-break. */
  setRankBy(environment: Environment, rankBy: RankBy | null, now: number): Promise<void>;
}

async function bump(tx: Queryable, environment: Environment, now: number): Promise<void> {
  const changed = await tx.run(
    'UPDATE search_settings SET version = version + 1, updated_at = ? WHERE environment = ?',
    [now, environment],
  );
  if (changed === 0)
    await tx.run(
      'INSERT INTO search_settings (environment, rank_by, version, updated_at) VALUES (?, NULL, 1, ?)',
      [environment, now],
    );
}

export function createSearchSettingsStore(db: Database): SearchSettingsStore {
  const version = async (q: Queryable, environment: Environment) =>
    Number(
      (
        await q.get<{ version: number }>('SELECT version FROM search_settings WHERE environment = ?', [
          environment,
        ])
      )?.version ?? 0,
    );
  return {
    async read(environment) {
      return db.transaction(async (tx) => {
        // The version first: under READ COMMITTED (PostgreSQL) each statement sees its own
        // moment, so a change committing in between leaves the version older than the rows, and
        // the next check re-indexes again; read after them, a newer version could pass for rows
        // that lack the change, and no check would ever re-index it. The rank-by and the version
        // are one row, changed together.
        const settings = await tx.get<{ rank_by: string | null; version: number }>(
          'SELECT rank_by, version FROM search_settings WHERE environment = ?',
          [environment],
        );
        const rows = await tx.all<AttributeRow>(
          'SELECT name, type, facet, sortable, searchable FROM search_attributes WHERE environment = ? ORDER BY name',
          [environment],
        );
        return {
          rankBy: settings?.rank_by ? parseRankBy(settings.rank_by) : null,
          attributes: rows.map((r) => ({
            name: r.name,
            type: r.type,
            facet: Number(r.facet) === 1,
            sort: Number(r.sortable) === 1,
            searchable: Number(r.searchable) === 1,
          })),
          version: Number(settings?.version ?? 0),
        };
      });
    },
    version: (environment) => version(db, environment),
    async putAttribute(environment, a, now, limit) {
      return db.transaction(async (tx) => {
        const exists = await tx.get(
          'SELECT 1 AS one FROM search_attributes WHERE environment = ? AND name = ?',
          [environment, a.name],
        );
        const flags = [a.facet ? 1 : 0, a.sort ? 1 : 0, a.searchable ? 1 : 0];
        if (exists) {
          await tx.run(
            'UPDATE search_attributes SET type = ?, facet = ?, sortable = ?, searchable = ?, updated_at = ? WHERE environment = ? AND name = ?',
            [a.type, ...flags, now, environment, a.name],
          );
        } else {
          const n = await tx.get<{ n: number }>(
            'SELECT count(*) AS n FROM search_attributes WHERE environment = ?',
            [environment],
          );
          if (Number(n?.n ?? 0) >= limit) return false;
          await tx.run(
            'INSERT INTO search_attributes (environment, name, type, facet, sortable, searchable, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            [environment, a.name, a.type, ...flags, now, now],
          );
        }
        await bump(tx, environment, now);
        return true;
      });
    },
    async setRankBy(environment, rankBy, now) {
      await db.transaction(async (tx) => {
        await bump(tx, environment, now);
        await tx.run('UPDATE search_settings SET rank_by = ? WHERE environment = ?', [
          rankBy ? formatRankBy(rankBy) : null,
          environment,
        ]);
      });
    },
    async removeAttribute(environment, name, now) {
      return db.transaction(async (tx) => {
        const removed = await tx.run('DELETE FROM search_attributes WHERE environment = ? AND name = ?', [
          environment,
          name,
        ]);
        if (removed === 0) return false;
        await bump(tx, environment, now);
        return true;
      });
    },
  };
}
