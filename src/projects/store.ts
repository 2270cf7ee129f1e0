import type { Database } from '../db/database.js';
import type { Project } from './model.js';

interface ProjectRow {
  id: string;
  developer_id: string;
  name: string;
  description: string;
  website: string | null;
  created_at: number;
}

export interface ProjectStore {
  insert(project: Project): Promise<void>;
  /** Replaces the editable fields and the redirect URIs. */
  update(project: Project, at: number): Promise<void>;
  get(id: string): Promise<Project | undefined>;
  list(filter: { developerId?: string }): Promise<Project[]>;
}

export function createProjectStore(db: Database): ProjectStore {
  async function withUris(rows: ProjectRow[]): Promise<Project[]> {
    if (rows.length === 0) return [];
    const uris = await db.all<{ project_id: string; uri: string }>(
      `SELECT project_id, uri FROM project_redirect_uris WHERE project_id IN (${rows.map(() => '?').join(', ')}) ORDER BY created_at, uri`,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      id: row.id,
      developerId: row.developer_id,
      name: row.name,
      description: row.description,
      website: row.website,
      redirectUris: uris.filter((u) => u.project_id === row.id).map((u) => u.uri),
      createdAt: Number(row.created_at),
    }));
  }

  return {
    async insert(project) {
      await db.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO projects (id, developer_id, name, description, website, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          [
            project.id,
            project.developerId,
            project.name,
            project.description,
            project.website,
            project.createdAt,
          ],
        );
        for (const uri of project.redirectUris) {
          await tx.run('INSERT INTO project_redirect_uris (project_id, uri, created_at) VALUES (?, ?, ?)', [
            project.id,
            uri,
            project.createdAt,
          ]);
        }
      });
    },
    async update(project, at) {
      await db.transaction(async (tx) => {
        await tx.run('UPDATE projects SET name = ?, description = ?, website = ? WHERE id = ?', [
          project.name,
          project.description,
          project.website,
          project.id,
        ]);
        await tx.run('DELETE FROM project_redirect_uris WHERE project_id = ?', [project.id]);
        for (const uri of project.redirectUris) {
          await tx.run('INSERT INTO project_redirect_uris (project_id, uri, created_at) VALUES (?, ?, ?)', [
            project.id,
            uri,
            at,
          ]);
        }
      });
    },
    async get(id) {
      const rows = await db.all<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
      return (await withUris(rows))[0];
    },
    async list({ developerId }) {
      const rows = developerId
        ? await db.all<ProjectRow>('SELECT * FROM projects WHERE developer_id = ? ORDER BY created_at, id', [
            developerId,
          ])
        : await db.all<ProjectRow>('SELECT * FROM projects ORDER BY created_at, id');
      return withUris(rows);
    },
  };
}
