import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildForTests } from './cli-build.js';
import { preparePostgresRun } from './postgres-run.js';

/**
 * Decides once per run whether the PostgreSQL half of the contract suite runs.
 * Laptop without PostgreSQL: skipped, with a banner nobody can miss. CI (`CI=true`): a failure.
 */
const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string | null;
    /** Redis for the multi-instance tests, or null (laptop without Redis: skipped loudly). */
    redisUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = await findPostgres(project);
  await findRedis(project);
  // Issue 26: one migrated template database per run, the test databases are copies of it.
  const postgres = adminUrl ? await preparePostgresRun(adminUrl) : null;
  project.provide('postgresRun', postgres?.run ?? null);
  const removeBuild = await testBuild(project);
  return async () => {
    removeBuild();
    await postgres?.finish();
  };
}

/**
 * Issue 26: the CLI and server processes of the tests run one transpiled copy of src/
 * (VITRINE_TEST_BUILD=0: through tsx, from the sources, as before). Returns its removal.
 */
async function testBuild(project: TestProject): Promise<() => void> {
  if (process.env.VITRINE_TEST_BUILD === '0') {
    project.provide('vitrineEntry', null);
    return () => undefined;
  }
  try {
    const built = await buildForTests();
    project.provide('vitrineEntry', built.entry);
    return built.remove;
  } catch (error) {
    process.stderr.write(`test build failed, processes run through tsx: ${(error as Error).message}\n`);
    project.provide('vitrineEntry', null);
    return () => undefined;
  }
}

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Same rule as PostgreSQL: skipped with a banner on a laptop, a failure under CI=true. */
async function findRedis(project: TestProject): Promise<void> {
  const url = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    project.provide('redisUrl', url);
  } catch (error) {
    const reason = (error as Error).message;
    if (process.env.CI === 'true') {
      throw new Error(`Redis is required under CI=true but ${url} is unreachable: ${reason}`);
    }
    const line = '!'.repeat(78);
    process.stderr.write(
      `\n${line}\n!! Redis unreachable at ${url} (${reason}).\n!! The Redis and multi-instance tests are SKIPPED. Start it, or set TEST_REDIS_URL.\n${line}\n\n`,
    );
    project.provide('redisUrl', null);
  } finally {
    client.disconnect();
  }
}

async function findPostgres(project: TestProject): Promise<string | null> {
  const url = process.env.TEST_POSTGRES_URL ?? DEFAULT_ADMIN_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    project.provide('postgresAdminUrl', url);
    return url;
  } catch (error) {
    const reason = (error as Error).message;
    if (process.env.CI === 'true') {
      throw new Error(`PostgreSQL is required under CI=true but ${url} is unreachable: ${reason}`);
    }
    const line = '!'.repeat(78);
    process.stderr.write(
      `\n${line}\n!! PostgreSQL unreachable at ${url} (${reason}).\n!! The PostgreSQL half of the contract suite is SKIPPED. Start it, or set TEST_POSTGRES_URL.\n${line}\n\n`,
    );
    project.provide('postgresAdminUrl', null);
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
