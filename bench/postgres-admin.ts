import pg from 'pg';

/** Where the bench creates and drops its own databases (never one it did not create). */
export const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One statement on the admin connection (CREATE / DROP DATABASE cannot run in a transaction). */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
