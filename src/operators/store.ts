import type { Database } from '../db/database.js';

/** An operator: an account with the operator role, who signs in to the console (SPEC §4). */
export interface Operator {
  id: string;
  email: string;
  name: string;
  createdAt: number;
}

interface OperatorRow {
  id: string;
  email: string;
  name: string;
  created_at: number;
  password_hash: string;
}

const fromRow = (row: OperatorRow): Operator => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: Number(row.created_at),
});

export interface OperatorStore {
  insert(operator: Operator, passwordHash: string): Promise<void>;
  get(id: string): Promise<Operator | undefined>;
  findCredentials(email: string): Promise<{ operator: Operator; passwordHash: string } | undefined>;
  list(): Promise<Operator[]>;
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
      const row = await db.get<OperatorRow>('SELECT * FROM operators WHERE email = ?', [email]);
      return row && { operator: fromRow(row), passwordHash: row.password_hash };
    },
    async list() {
      return (await db.all<OperatorRow>('SELECT * FROM operators ORDER BY created_at, id')).map(fromRow);
    },
  };
}
