import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { Database, Dialect } from '../../src/db/database.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { createLogger } from '../../src/http/logger.js';
import { ManualClock } from '../../src/platform/clock.js';
import type { Environment } from '../../src/platform/environment.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export interface TestContext {
  deps: Deps;
  clock: ManualClock;
  database: TestDatabase;
  apps: Record<Environment, FastifyInstance>;
  /** Every log line written so far, for secret-leak assertions. */
  logs: string[];
  /** A developer, a project and one key per environment, ready to call with. */
  fixtures: { projectId: string; keys: Record<Environment, { id: string; key: string }> };
  close(): Promise<void>;
}

/**
 * A complete Vitrine on a fresh database of the given backend, driven with `app.inject()`.
 * Rate limits are off unless `env` turns them on (`RATE_LIMITING: 'true'`): the clock stands
 * still in tests, so a suite making many requests would otherwise run out of its plan.
 */
export async function createTestContext(
  dialect: Dialect,
  env: NodeJS.ProcessEnv = {},
  options: {
    /** Issue 26: serve through another connection to the same database (a TCP proxy's). */
    db?: (database: TestDatabase) => Database;
    /**
     * Issue 26: the environments whose app is built (default both). Building one compiles its
     * routes' schemas, about half of a context's start: a file that never calls the production
     * app builds the testing one only; `apps.production` then throws, naming the option.
     */
    environments?: readonly Environment[];
  } = {},
): Promise<TestContext> {
  const database = await createTestDatabase(dialect);
  // Issue 27: without SMTP_URL mail goes to $DATA_DIR/outbox: a directory of this context's own.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-context-'));
  const config = loadConfig({ RATE_LIMITING: 'false', DATA_DIR: dataDir, ...env });
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 12));
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level: 'info', stream });
  // A random master secret per context, unless the test shares one (MASTER_SECRET): signed
  // cursors (issue 13) are then the same on every backend.
  const masterSecret = config.masterSecret ?? randomBytes(32);
  const db = options.db?.(database) ?? database.db;
  const deps = createDeps(config, { clock, logger, db, masterSecret });
  await deps.keyVerifier.start();
  // Issue 12: searches are answered by the in-memory index, built as `serve` builds it.
  await deps.searchIndexes.start(['production', 'testing'], config.searchPollMs);
  const apps = {} as Record<Environment, FastifyInstance>;
  const built: FastifyInstance[] = [];
  for (const environment of ['production', 'testing'] as const) {
    if (options.environments && !options.environments.includes(environment)) {
      Object.defineProperty(apps, environment, {
        enumerable: false,
        get() {
          throw new Error(`createTestContext: the ${environment} app was not built (option environments)`);
        },
      });
      continue;
    }
    const app = await buildApp(deps, environment);
    await app.ready();
    apps[environment] = app;
    built.push(app);
  }
  await deps.developers.add({ email: 'integrator@example.com', name: 'Integrator' });
  const project = await deps.projects.add({
    name: 'Test project',
    ownerEmail: 'integrator@example.com',
    redirectUris: ['https://app.example.com/callback'],
  });
  const prod = await deps.keys.issue({ projectId: project.id, environment: 'production' });
  const test = await deps.keys.issue({ projectId: project.id, environment: 'testing' });
  return {
    deps,
    clock,
    database,
    apps,
    logs,
    fixtures: {
      projectId: project.id,
      keys: {
        production: { id: prod.record.id, key: prod.key },
        testing: { id: test.record.id, key: test.key },
      },
    },
    async close() {
      await Promise.all(built.map((app) => app.close()));
      await deps.usageMeter?.stop().catch(() => undefined);
      await deps.keyVerifier.stop();
      deps.searchIndexes.stop();
      await deps.changeBus.close();
      await deps.redis?.close();
      if (db !== database.db) await db.close();
      await database.drop();
      await deps.mailer.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
