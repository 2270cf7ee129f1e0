import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { migrate } from '../db/migrate.js';
import {
  DEMO_OPERATOR_EMAIL,
  DEMO_REDIRECT_URI,
  DEMO_USER_EMAIL,
  type DemoState,
  ensureDemo,
} from '../demo/bootstrap.js';
import type { Deps } from '../deps.js';
import { baseUrls, origins } from '../http/urls.js';
import type { Environment } from '../platform/environment.js';
import { boundHeapGrowth } from '../platform/heap-growth.js';
import { mallocThresholdsDynamic, runtimeGlibc } from '../platform/malloc-thresholds.js';

export interface ServeOptions {
  environments: Environment[];
  demo: boolean;
  /** Longest wait for in-flight requests on SIGTERM before giving up (ms). */
  shutdownDeadlineMs?: number;
}

export interface RunningServer {
  apps: Map<Environment, FastifyInstance>;
  /** Resolves when the search indexes are built (or failed to: logged, /readyz stays 503). */
  searchBuilt: Promise<void>;
  close(): Promise<void>;
}

/** Migrates, optionally prepares the demo, and listens on one port per environment. */
export async function serve(deps: Deps, options: ServeOptions): Promise<RunningServer> {
  const { config } = deps;
  const migration = await migrate(deps.db);
  if (migration.applied.length > 0) {
    deps.logger.info({ applied: migration.applied.map((m) => m.version) }, 'database migrated');
  }
  const demo = options.demo ? await ensureDemo(deps) : null;
  await deps.keyVerifier.start();
  deps.usageMeter?.start();
  // Issue 27: mail left in the outbox (a crash, an SMTP outage) goes now, then every 10 s.
  deps.mailer.start();

  const apps = new Map<Environment, FastifyInstance>();
  const ports: Record<Environment, number> = { production: config.port, testing: config.testingPort };
  for (const environment of options.environments) {
    // Creates the environment's first signing key (and proves MASTER_SECRET opens the current
    // one) before any traffic: a JWKS is never empty, a wrong secret stops the start loudly.
    await deps.signingKeys.signer(environment);
    const app = await buildApp(deps, environment);
    await app.listen({ port: ports[environment], host: config.host });
    apps.set(environment, app);
  }
  // Issue 12: listening already (/readyz says 503 meanwhile), the search indexes are built from
  // the database, then kept current by the counter poll and the change bus. The banner (with
  // its curl line) comes when searches can be answered.
  // Synonyms follow the same freshness path: a change-bus message, else this poll.
  deps.synonyms.startPolling(options.environments, config.searchPollMs);
  const searchBuilt = deps.searchIndexes.start(options.environments, config.searchPollMs).then(
    () => {
      // Issue 26: once the indexes are built (the build itself grows the heap freely), garbage
      // between collections is bounded (HEAP_GROWTH_PERCENT, ADR 0044).
      boundHeapGrowth(config.heapGrowthPercent);
      process.stdout.write(banner(deps, options.environments, revealDemoPasswords(deps, demo)));
      if (mallocThresholdsDynamic(process.env, runtimeGlibc()))
        deps.logger.info(
          "glibc's malloc thresholds are dynamic: memory the search index frees as it grows stays with the process; set MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072 (docs/deployment.md)",
        );
    },
    (error: unknown) => {
      deps.logger.fatal({ err: error }, 'search index could not be built; /readyz stays 503');
    },
  );

  // Issue 24: every serving process dispatches webhooks and matches offer writes against saved
  // searches with alerts (row claims decide which instance takes each piece of work).
  deps.webhooks.start(config.webhookPollMs);

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      // Stop accepting, let in-flight requests finish, then flush and release resources.
      await Promise.all([...apps.values()].map(closeApp));
      await deps.webhooks.stop();
      await deps.close();
    })();
    return closing;
  };
  return { apps, searchBuilt, close };
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

/**
 * Issue 13: the demo passwords go to a person, never into the log stream. stdout is where the
 * JSON logs go too, and under a container or a service manager it *is* the log stream: the
 * banner then names a file in `DATA_DIR` (mode 0600) that holds them instead. On a terminal
 * (`npm start` by hand) they are printed as before. Decided in docs/adr/0016.
 */
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.txt';

function revealDemoPasswords(deps: Deps, demo: DemoState | null): DemoState | null {
  if (!demo || process.stdout.isTTY || (!demo.newOperatorPassword && !demo.newUserPassword)) return demo;
  const file = path.resolve(deps.config.dataDir, DEMO_CREDENTIALS_FILE);
  const lines = [
    demo.newOperatorPassword ? `console operator ${DEMO_OPERATOR_EMAIL} ${demo.newOperatorPassword}` : null,
    demo.newUserPassword ? `end user (testing) ${DEMO_USER_EMAIL} ${demo.newUserPassword}` : null,
  ].filter((l) => l !== null);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  const hidden = `(not a terminal: written to ${file}, mode 0600)`;
  return {
    ...demo,
    newOperatorPassword: demo.newOperatorPassword && hidden,
    newUserPassword: demo.newUserPassword && hidden,
  };
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
    // Each listener documents its own environment: "Try it" works there with a key of it.
    ...environments.map((env) => `  API reference (${env})${' '.repeat(11 - env.length)}${o[env]}/docs`),
    ...(environments.includes('production')
      ? [
          `  Developer portal          ${o.production}/portal/`,
          `  Operator console          ${o.production}/console/`,
        ]
      : []),
    '',
  ];
  if (demo?.newOperatorPassword && environments.includes('production')) {
    lines.push(
      `Console operator ${DEMO_OPERATOR_EMAIL}, password ${demo.newOperatorPassword} (shown once;`,
      '  more operators: npm run --silent vitrine -- operators add --email E --password-stdin)',
      '',
    );
  }
  if (demo && environments.includes('testing')) lines.push(...demoLines(deps, demo));
  return `${lines.join('\n')}\n`;
}

/** The demo's key, a search to paste, and the two login doors, the standard one (PKCE) first. */
function demoLines(deps: Deps, demo: DemoState): string[] {
  const o = origins(deps.config);
  const b = baseUrls(deps.config);
  const lines: string[] = [];
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
  if (demo.keyId)
    lines.push(
      `  key id (OAuth client_id)  ${demo.keyId}`,
      `  project                   ${demo.projectId}`,
      '',
    );
  if (demo.offersSeeded > 0)
    lines.push(`Seeded ${demo.offersSeeded} demo offers into the testing environment.`, '');
  lines.push(
    'Try it (or open the testing API reference above, "Authorize" with the key, "Try it out"):',
    '',
    `  curl -s -H 'X-Api-Key: ${curlKey}' '${b.testing}/offers/?q=bike&limit=3'`,
    '',
    'Log an end user in with OAuth 2.0 + PKCE (the key stays on your server), then open',
    'http://localhost:5173/ in a browser:',
    '',
    `  KEY_ID=${demo.keyId ?? '<key id>'} API_KEY=${curlKey} node examples/destination-app-pkce.mjs`,
    '',
    `  (another port? PORT=3000 … and: npm run --silent vitrine -- projects add-redirect-uri --project ${demo.projectId} --uri http://localhost:3000/callback)`,
    '',
  );
  const connect = `${o.testing}/auth/connect?${new URLSearchParams({ apiKey: curlKey, destination: DEMO_REDIRECT_URI }).toString()}`;
  lines.push(
    'Or the simple redirect, /connect (the key travels in the URL: fine for a testing key on',
    'localhost): start node examples/destination-app.mjs, then open',
    '',
    `  ${connect}`,
    '',
    demo.newUserPassword
      ? `  end user ${DEMO_USER_EMAIL}, password ${demo.newUserPassword} (shown once)`
      : `  end user ${DEMO_USER_EMAIL} (password shown on first start; vitrine users set-password to change it)`,
    '',
  );
  return lines;
}
