import type { FastifyInstance } from 'fastify';
import { migrate } from '../db/migrate.js';
import { type DemoState, ensureDemo } from '../demo/bootstrap.js';
import type { Deps } from '../deps.js';
import { baseUrls, buildApp, origins } from '../http/app.js';
import type { Environment } from '../platform/environment.js';

export interface ServeOptions {
  environments: Environment[];
  demo: boolean;
  /** Longest wait for in-flight requests on SIGTERM before giving up (ms). */
  shutdownDeadlineMs?: number;
}

export interface RunningServer {
  apps: Map<Environment, FastifyInstance>;
  close(): Promise<void>;
}

/** Migrates, optionally prepares the demo, and listens on one port per environment (SPEC §2). */
export async function serve(deps: Deps, options: ServeOptions): Promise<RunningServer> {
  const { config } = deps;
  const migration = await migrate(deps.db);
  if (migration.applied.length > 0) {
    deps.logger.info({ applied: migration.applied.map((m) => m.version) }, 'database migrated');
  }
  const demo = options.demo ? await ensureDemo(deps) : null;
  await deps.keyVerifier.start();
  deps.usageMeter?.start();

  const apps = new Map<Environment, FastifyInstance>();
  const ports: Record<Environment, number> = { production: config.port, testing: config.testingPort };
  for (const environment of options.environments) {
    const app = await buildApp({
      config,
      environment,
      db: deps.db,
      keys: deps.keyVerifier,
      offers: deps.offers,
      logger: deps.logger,
      clock: deps.clock,
      rateLimiter: deps.rateLimiter,
      usageMeter: deps.usageMeter,
      metrics: deps.metrics,
      redisState: () => deps.redis?.state ?? 'not_configured',
    });
    await app.listen({ port: ports[environment], host: config.host });
    apps.set(environment, app);
  }
  process.stdout.write(banner(deps, options.environments, demo));

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      // Stop accepting, let in-flight requests finish, then flush and release resources.
      await Promise.all([...apps.values()].map(closeApp));
      await deps.close();
    })();
    return closing;
  };
  return { apps, close };
}

/**
 * Fastify's close stops accepting and closes the keep-alive connections idle at that moment;
 * a connection busy then stays open after its response, and the close waits for the client
 * to hang up (seen under load on PostgreSQL: shutdown hit its deadline). So, while closing,
 * connections are closed as soon as they fall idle; a request on them is never cut off.
 */
async function closeApp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

function banner(deps: Deps, environments: Environment[], demo: DemoState | null): string {
  const o = origins(deps.config);
  const b = baseUrls(deps.config);
  const lines = [
    '',
    `Vitrine is running — database ${deps.db.description}`,
    '',
    ...environments.map(
      (env) => `  ${env.padEnd(10)}  base_url ${b[env].padEnd(28)}  auth_url ${o[env]}/auth`,
    ),
    '',
    `  API reference     ${o[environments[0] ?? 'production']}/docs`,
    '',
  ];
  if (demo && environments.includes('testing')) {
    const curlKey = demo.newKey ?? '<your testing key>';
    if (demo.newKey) {
      lines.push(
        'Demo API key for the testing environment. It is shown once; store it now:',
        '',
        `  ${demo.newKey}`,
        '',
      );
    } else {
      lines.push(
        `The demo key of project ${demo.projectId} was shown on first start. For another one:`,
        `  npm run --silent vitrine -- keys issue --project ${demo.projectId} --env testing`,
        '',
      );
    }
    if (demo.offersSeeded > 0)
      lines.push(`Seeded ${demo.offersSeeded} demo offers into the testing environment.`, '');
    lines.push(
      'Try it:',
      '',
      `  curl -s -H 'X-Api-Key: ${curlKey}' '${b.testing}/offers/?q=bike&limit=3'`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
