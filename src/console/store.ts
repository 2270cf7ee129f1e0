import type { Database } from '../db/database.js';

/** Look-ups the console's search boxes need across developers, projects and keys (SPEC §4). */
export interface ConsoleSearch {
  developers(q: string): Promise<{ id: string; email: string; name: string; createdAt: number }[]>;
  /** Ids of projects whose id, name, developer id or owner email matches. */
  projectIds(q: string): Promise<string[]>;
  /** Ids of keys whose id, hint or project id matches. */
  keyIds(q: string): Promise<string[]>;
}

const LIMIT = 100;
// LIKE with the user's text taken literally: % _ and the escape character itself are escaped.
const pattern = (q: string) =>
  `%${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createConsoleSearch(db: Database): ConsoleSearch {
  return {
    async developers(q) {
      const rows = await db.all<{ id: string; email: string; name: string; created_at: number }>(
        `SELECT id, email, name, created_at FROM developers
         WHERE lower(id) LIKE ? ESCAPE '\\' OR lower(email) LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\'
         ORDER BY created_at DESC, id LIMIT ${LIMIT}`,
        [pattern(q), pattern(q), pattern(q)],
      );
      return rows.map((r) => ({ id: r.id, email: r.email, name: r.name, createdAt: Number(r.created_at) }));
    },
    async projectIds(q) {
      const rows = await db.all<{ id: string }>(
        `SELECT p.id FROM projects p JOIN developers d ON d.id = p.developer_id
         WHERE lower(p.id) LIKE ? ESCAPE '\\' OR lower(p.name) LIKE ? ESCAPE '\\' OR lower(d.id) LIKE ? ESCAPE '\\' OR lower(d.email) LIKE ? ESCAPE '\\'
         ORDER BY p.created_at DESC, p.id LIMIT ${LIMIT}`,
        [pattern(q), pattern(q), pattern(q), pattern(q)],
      );
      return rows.map((r) => r.id);
    },
    async keyIds(q) {
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM api_keys
         WHERE lower(id) LIKE ? ESCAPE '\\' OR lower(hint) LIKE ? ESCAPE '\\' OR lower(project_id) LIKE ? ESCAPE '\\'
         ORDER BY created_at DESC, id LIMIT ${LIMIT}`,
        [pattern(q), pattern(q), pattern(q)],
      );
      return rows.map((r) => r.id);
    },
  };
}
