import type { Database } from '../db/database.js';
import type { Operator } from './model.js';

interface OperatorRow {
  id: string;
  email: string;
  name: string;
  created_at: number;
  password_hash: string;
  disabled_at: number | null;
}

const fromRow = (row: OperatorRow): Operator => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: Number(row.created_at),
  disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
});

export interface OperatorStore {
  insert(operator: Operator, passwordHash: string): Promise<void>;
  get(id: string): Promise<Operator | undefined>;
  /** Credentials of an operator who may sign in (disabled accounts are not found). */
  findCredentials(email: string): Promise<{ operator: Operator; passwordHash: string } | undefined>;
  list(): Promise<Operator[]>;
  setPassword(id: string, passwordHash: string): Promise<boolean>;
  /** Disables the account unless it is the last enabled one; false when it was not enabled. */
  disableUnlessLast(id: string, at: number): Promise<'disabled' | 'not_enabled' | 'last'>;
}

export function createOperatorStore(db: Database): OperatorStore {
  return {
    async insert(operator, passwordHash) {
      await db.run(
        'INSERT INTO operators (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
        [operator.id, operator.email, operator.name, passwordHash, operator.createdAt],
      );
    },
    async get(id) {
      const row = await db.get<OperatorRow>('SELECT * FROM operators WHERE id = ?', [id]);
      return row && fromRow(row);
    },
    async findCredentials(email) {
      const row = await db.get<OperatorRow>(
        'SELECT * FROM operators WHERE email = ? AND disabled_at IS NULL',
        [email],
      );
      return row && { operator: fromRow(row), passwordHash: row.password_hash };
    },
    async list() {
      return (await db.all<OperatorRow>('SELECT * FROM operators ORDER BY created_at, id')).map(fromRow);
    },
    async setPassword(id, passwordHash) {
      const changed = await db.run('UPDATE operators SET password_hash = ? WHERE id = ?', [passwordHash, id]);
      return changed > 0;
    },
    async disableUnlessLast(id, at) {
      // One transaction: two operators disabling each other at once cannot leave none.
      return db.transaction(async (tx) => {
        const enabled = await tx.all<{ id: string }>('SELECT id FROM operators WHERE disabled_at IS NULL');
        if (!enabled.some((o) => o.id === id)) return 'not_enabled';
        if (enabled.length === 1) return 'last';
        await tx.run('UPDATE operators SET disabled_at = ? WHERE id = ?', [at, id]);
        return 'disabled';
      });
    },
  };
}
