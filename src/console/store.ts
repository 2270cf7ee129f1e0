import type { Database, SqlValue } from '../db/database.js';
import type { ConsoleSearch, DeveloperRow, Paged } from './model.js';
import { CONSOLE_PAGE_SIZE } from './model.js';

// LIKE with the user's text taken literally: % _ and the escape character itself are escaped.
const pattern = (q: string) =>
  `%${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createConsoleSearch(db: Database): ConsoleSearch {
  /** One page of `SELECT <columns> <from> <where> ORDER BY <order>` and the count of the same rows. */
  async function paged<R, T>(
    query: { columns: string; from: string; where: string; order: string; params: SqlValue[] },
    page: number,
    map: (row: R) => T,
  ): Promise<Paged<T>> {
    const current = Math.max(1, Math.floor(page));
    const [rows, count] = await Promise.all([
      db.all<R>(
        `SELECT ${query.columns} ${query.from} WHERE ${query.where} ORDER BY ${query.order} LIMIT ${CONSOLE_PAGE_SIZE} OFFSET ${(current - 1) * CONSOLE_PAGE_SIZE}`,
        query.params,
      ),
      db.get<{ n: number }>(`SELECT count(*) AS n ${query.from} WHERE ${query.where}`, query.params),
    ]);
    return { items: rows.map(map), total: Number(count?.n ?? 0), page: current, pageSize: CONSOLE_PAGE_SIZE };
  }
  return {
    developers: (q, page = 1) =>
      paged<
        { id: string; email: string; name: string; created_at: number; disabled_at: number | null },
        DeveloperRow
      >(
        {
          columns: 'id, email, name, created_at, disabled_at',
          from: 'FROM developers',
          where:
            "lower(id) LIKE ? ESCAPE '\\' OR lower(email) LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\'",
          order: 'created_at DESC, id',
          params: [pattern(q), pattern(q), pattern(q)],
        },
        page,
        (r) => ({
          id: r.id,
          email: r.email,
          name: r.name,
          createdAt: Number(r.created_at),
          disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
        }),
      ),
    projectIds: (q, page = 1) =>
      paged<{ id: string }, string>(
        {
          columns: 'p.id',
          from: 'FROM projects p JOIN developers d ON d.id = p.developer_id',
          where:
            "lower(p.id) LIKE ? ESCAPE '\\' OR lower(p.name) LIKE ? ESCAPE '\\' OR lower(d.id) LIKE ? ESCAPE '\\' OR lower(d.email) LIKE ? ESCAPE '\\'",
          order: 'p.created_at DESC, p.id',
          params: [pattern(q), pattern(q), pattern(q), pattern(q)],
        },
        page,
        (r) => r.id,
      ),
    keyIds: (q, page = 1) =>
      paged<{ id: string }, string>(
        {
          columns: 'id',
          from: 'FROM api_keys',
          where:
            "lower(id) LIKE ? ESCAPE '\\' OR lower(hint) LIKE ? ESCAPE '\\' OR lower(project_id) LIKE ? ESCAPE '\\'",
          order: 'created_at DESC, id',
          params: [pattern(q), pattern(q), pattern(q)],
        },
        page,
        (r) => r.id,
      ),
  };
}
