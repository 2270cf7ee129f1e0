import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { systemClock } from '../../src/platform/clock.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

/**
 * A fresh database of its own for tests that start real `vitrine serve` processes on it
 * (test/cluster/): this test process acts as the operator through the same services the CLI
 * uses (`admin`), with one developer and one project made, and `env` is what each process is
 * started with (the database's location plus the test's own settings).
 */
export interface ClusterFixture {
  database: TestDatabase;
  admin: Deps;
  projectId: string;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function clusterFixture(
  dialect: 'sqlite' | 'postgres',
  extraEnv: NodeJS.ProcessEnv,
  owner = { email: 'ops@example.com', project: 'Cluster' },
): Promise<ClusterFixture> {
  const database = await createTestDatabase(dialect);
  const env: NodeJS.ProcessEnv = {
    ...(dialect === 'postgres'
      ? { DATABASE_URL: database.location }
      : { DATA_DIR: path.dirname(database.location) }),
    ...extraEnv,
  };
  const admin = createDeps(loadConfig(env), {
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    db: database.db,
  });
  await admin.developers.add({ email: owner.email });
  const project = await admin.projects.add({ name: owner.project, ownerEmail: owner.email });
  return {
    database,
    admin,
    projectId: project.id,
    env,
    async close() {
      await admin.changeBus.close();
      await admin.redis?.close();
      await database.drop();
    },
  };
}
