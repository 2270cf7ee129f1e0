import { type Database, isUniqueViolation } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { User, UserState } from './model.js';

interface UserRow {
  id: string;
  environment: Environment;
  email: string;
  name: string;
  state: UserState;
  created_at: number;
  password_changed_at: number;
  disabled_at: number | null;
  email_verified_at: number | null;
}

const COLUMNS = 'id, environment, email, name, state, created_at, password_changed_at, disabled_at';
const READ = `${COLUMNS}, email_verified_at`;

const fromRow = (row: UserRow): User => ({
  id: row.id,
  environment: row.environment,
  email: row.email,
  name: row.name,
  state: row.state,
  createdAt: Number(row.created_at),
  passwordChangedAt: Number(row.password_changed_at),
  disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  emailVerifiedAt: row.email_verified_at == null ? null : Number(row.email_verified_at),
});

export interface UserStore {
  /** False when the email is already taken in that environment. */
  insert(user: User, passwordHash: string): Promise<boolean>;
  get(id: string): Promise<User | undefined>;
  findByEmail(
    environment: Environment,
    email: string,
  ): Promise<{ user: User; passwordHash: string } | undefined>;
  list(environment: Environment): Promise<User[]>;
  disable(id: string, at: number): Promise<void>;
  setPassword(id: string, passwordHash: string, at: number): Promise<void>;
  markVerified(id: string, at: number): Promise<void>;
}

export function createUserStore(db: Database): UserStore {
  return {
    async insert(user, passwordHash) {
      try {
        await db.run(`INSERT INTO users (${COLUMNS}, password_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
          user.id,
          user.environment,
          user.email,
          user.name,
          user.state,
          user.createdAt,
          user.passwordChangedAt,
          user.disabledAt,
          passwordHash,
        ]);
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async get(id) {
      const row = await db.get<UserRow>(`SELECT ${READ} FROM users WHERE id = ?`, [id]);
      return row && fromRow(row);
    },
    async findByEmail(environment, email) {
      const row = await db.get<UserRow & { password_hash: string }>(
        `SELECT ${READ}, password_hash FROM users WHERE environment = ? AND email = ?`,
        [environment, email],
      );
      return row && { user: fromRow(row), passwordHash: row.password_hash };
    },
    async list(environment) {
      const rows = await db.all<UserRow>(
        `SELECT ${READ} FROM users WHERE environment = ? ORDER BY created_at, id`,
        [environment],
      );
      return rows.map(fromRow);
    },
    async disable(id, at) {
      await db.run("UPDATE users SET state = 'disabled', disabled_at = ? WHERE id = ? AND state = 'active'", [
        at,
        id,
      ]);
    },
    async setPassword(id, passwordHash, at) {
      await db.run('UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?', [
        passwordHash,
        at,
        id,
      ]);
    },
    async markVerified(id, at) {
      await db.run('UPDATE users SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL', [
        at,
        id,
      ]);
    },
  };
}
