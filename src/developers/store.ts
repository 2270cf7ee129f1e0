import type { Database } from '../db/database.js';
import type { Developer } from './model.js';

interface DeveloperRow {
  id: string;
  email: string;
  name: string;
  created_at: number;
  disabled_at: number | null;
  email_verified_at: number | null;
}

const fromRow = (row: DeveloperRow): Developer => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: Number(row.created_at),
  disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  emailVerifiedAt: row.email_verified_at == null ? null : Number(row.email_verified_at),
});

export interface DeveloperStore {
  insert(developer: Developer, passwordHash: string | null): Promise<void>;
  findByEmail(email: string): Promise<Developer | undefined>;
  get(id: string): Promise<Developer | undefined>;
  /** The developer and their portal password hash (null: no portal password set). */
  findCredentials(email: string): Promise<{ developer: Developer; passwordHash: string | null } | undefined>;
  /** False when there is no such enabled developer. */
  disable(id: string, at: number): Promise<boolean>;
  setPassword(id: string, passwordHash: string): Promise<boolean>;
  markVerified(id: string, at: number): Promise<void>;
}

export function createDeveloperStore(db: Database): DeveloperStore {
  return {
    async insert(developer, passwordHash) {
      await db.run(
        'INSERT INTO developers (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
        [developer.id, developer.email, developer.name, passwordHash, developer.createdAt],
      );
    },
    async findByEmail(email) {
      const row = await db.get<DeveloperRow>(
        'SELECT id, email, name, created_at, disabled_at, email_verified_at FROM developers WHERE email = ?',
        [email],
      );
      return row && fromRow(row);
    },
    async get(id) {
      const row = await db.get<DeveloperRow>(
        'SELECT id, email, name, created_at, disabled_at, email_verified_at FROM developers WHERE id = ?',
        [id],
      );
      return row && fromRow(row);
    },
    async findCredentials(email) {
      const row = await db.get<DeveloperRow & { password_hash: string | null }>(
        'SELECT id, email, name, created_at, disabled_at, email_verified_at, password_hash FROM developers WHERE email = ? AND disabled_at IS NULL',
        [email],
      );
      return row && { developer: fromRow(row), passwordHash: row.password_hash };
    },
    async disable(id, at) {
      const changed = await db.run(
        'UPDATE developers SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL',
        [at, id],
      );
      return changed > 0;
    },
    async setPassword(id, passwordHash) {
      return (await db.run('UPDATE developers SET password_hash = ? WHERE id = ?', [passwordHash, id])) > 0;
    },
    async markVerified(id, at) {
      await db.run('UPDATE developers SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL', [
        at,
        id,
      ]);
    },
  };
}
