import { Command, InvalidArgumentError } from 'commander';
import { forCommands } from '../config/command-config.js';
import { ConfigError, loadConfig } from '../config/config.js';
import type { Deps } from '../deps.js';
import { systemClock } from '../platform/clock.js';
import { type Environment, isEnvironment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import { VERSION } from '../platform/version.js';
import { registerResetLinkCommands, registerTwoFactorCommands } from './account-links.js';
import { registerAccountCommands } from './accounts.js';
import { registerAttributeCommands } from './attributes.js';
import { registerImportCommand } from './import.js';
import { print } from './io.js';
import { registerPortalCommands } from './portal.js';
import { registerSearchSettingsCommands } from './search-settings.js';
import { type CliStreams, processStreams, withCliStreams } from './streams.js';
import { registerSynonymCommands } from './synonyms.js';
import { registerAuthCommands } from './users.js';
import { registerWebhookCommands } from './webhooks.js';

/**
 * The composition root and the `vitrine` command. Config is read once here; every
 * command builds its dependencies from it, so all of them read the same settings as `serve`.
 */
function parseEnv(value: string): Environment {
  if (!isEnvironment(value)) throw new InvalidArgumentError('must be production or testing');
  return value;
}

function parsePositive(max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    }
    return Number(value);
  };
}

/**
 * Runs one `vitrine` command with `argv` (as `process.argv`: node and script first) on `streams`;
 * resolves to its exit code: 0, 1 (failed, or an import that skipped rows), 2 (usage or config).
 * `serve` resolves once it is serving and keeps running.
 */
export async function runVitrine(argv: string[], streams: CliStreams = processStreams): Promise<number> {
  try {
    const { exitCode } = await withCliStreams(streams, () => parse(argv, streams));
    return exitCode;
  } catch (error) {
    return failure(error, streams);
  }
}

function failure(error: unknown, streams: CliStreams): number {
  const code = (error as { code?: string }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help')
    return 0;
  // Commander has written its message already.
  if (typeof code === 'string' && code.startsWith('commander.')) return 2;
  if (error instanceof UsageError || error instanceof ConfigError) {
    streams.stderr.write(`vitrine: ${error.message}\n`);
    return 2;
  }
  streams.stderr.write(`vitrine: ${(error as Error).message ?? String(error)}\n`);
  return 1;
}

async function parse(argv: string[], streams: CliStreams): Promise<void> {
  const config = loadConfig(streams.env);
  const program = new Command('vitrine').description(
    'Vitrine: offer search with API-key and token authentication',
  );
  program.exitOverride();
  program.configureOutput({
    writeOut: (text) => streams.stdout.write(text),
    writeErr: (text) => streams.stderr.write(text),
  });
  program.version(VERSION, '-V, --version', 'print the Vitrine version');

  // Commands other than serve log only warnings, to stderr: stdout is for their output.
  // Every command migrates first, so each works on a fresh DATA_DIR (same config as serve).
  // Issue 25: what a command needs is loaded when it runs (`vitrine --version` or `--help` loads
  // no database driver, search engine or HTTP server), so every command starts quickly.
  async function withDeps<T>(work: (deps: Deps) => Promise<T>, options = { migrate: true }): Promise<T> {
    const [{ createDeps }, { createLogger }, { migrate }, { CLI_REDIS_WAIT_MS, settleRedis }] =
      await Promise.all([
        import('../deps.js'),
        import('../http/logger.js'),
        import('../db/migrate.js'),
        import('../platform/redis.js'),
      ]);
    // A command may write in bulk (import, seed) and then ends: the bulk page cache (ADR 0012).
    const deps = createDeps(forCommands(config), {
      clock: systemClock,
      logger: createLogger({ level: 'warn', stream: streams.stderr }),
    });
    try {
      // Issue 13: Redis is optional; a command never waits on it for more than 2 s.
      if (deps.redis) await settleRedis(deps.redis, deps.logger, CLI_REDIS_WAIT_MS);
      if (options.migrate) await migrate(deps.db);
      return await work(deps);
    } finally {
      // A failure to close must not hide the command's result (a key shown once, say).
      await deps.close().catch((error: unknown) => deps.logger.warn({ err: error }, 'closing failed'));
    }
  }

  program
    .command('serve')
    .description('serve production on PORT and testing on TESTING_PORT, or one environment with --env')
    .option('--env <environment>', 'serve only this environment', parseEnv)
    .option('--demo', 'create a demo project, key and offers on first run (what npm start does)')
    .action(async (o: { env?: Environment; demo?: boolean }) => {
      const [{ createDeps }, { createLogger }, { serve }] = await Promise.all([
        import('../deps.js'),
        import('../http/logger.js'),
        import('../serve/serve.js'),
      ]);
      const deps = createDeps(config, {
        clock: systemClock,
        logger: createLogger({ level: config.logLevel }),
      });
      // Handlers first: a SIGTERM that arrives while starting still shuts down cleanly.
      const starting = serve(deps, {
        environments: o.env ? [o.env] : ['production', 'testing'],
        demo: Boolean(o.demo),
      });
      const stop = (signal: string) => {
        deps.logger.info({ signal }, 'shutting down');
        // SHUTDOWN_TIMEOUT_MS: in-flight requests, the usage flush and pool closing must fit in it.
        setTimeout(() => {
          deps.logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting');
          process.exit(1);
        }, config.shutdownTimeoutMs).unref();
        starting
          .then((server) => server.close())
          .then(
            () => process.exit(0),
            () => process.exit(1),
          );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      await starting;
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const { migrate } = await import('../db/migrate.js');
      const result = await withDeps((d) => migrate(d.db), { migrate: false });
      print(
        {
          json: { applied: result.applied.map((m) => m.version), current: result.current },
          text:
            result.applied.length === 0
              ? `Database is up to date (version ${result.current}).`
              : `Applied ${result.applied.map((m) => `${m.version} (${m.name})`).join(', ')}; now at version ${result.current}.`,
        },
        Boolean(o.json),
      );
    });

  program
    .command('seed')
    .description('upsert deterministic synthetic offers (demos, benchmarks); re-running is safe')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .requiredOption('--count <n>', 'number of offers', parsePositive(10_000_000))
    .option('--seed <n>', 'random seed (same seed and count, same offers)', parsePositive(2 ** 31), 42)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; count: number; seed: number; json?: boolean }) => {
      const started = performance.now();
      const { generateOffers } = await import('../offers/seed.js');
      const totals = await withDeps(async (d) => {
        const chunk = 10_000; // one store transaction (store-sql.ts BATCH_SIZE)
        let inserted = 0;
        let updated = 0;
        for (let start = 0; start < o.count; start += chunk) {
          const offers = [
            ...generateOffers({ count: Math.min(chunk, o.count - start), seed: o.seed, startIndex: start }),
          ];
          const r = await d.offers.upsertMany(o.env, offers);
          inserted += r.inserted;
          updated += r.updated;
          if (!o.json && o.count > chunk)
            streams.stderr.write(`\r  ${start + offers.length}/${o.count} offers`);
        }
        if (!o.json && o.count > chunk) streams.stderr.write('\n');
        await d.offers.optimize();
        return { inserted, updated };
      });
      const seconds = (performance.now() - started) / 1000;
      print(
        {
          json: { environment: o.env, ...totals, seconds: Number(seconds.toFixed(2)) },
          text: `Seeded ${o.env}: ${totals.inserted} inserted, ${totals.updated} updated in ${seconds.toFixed(1)} s.`,
        },
        Boolean(o.json),
      );
    });

  registerImportCommand(program, withDeps, parseEnv);
  registerAccountCommands(program, withDeps, parseEnv);
  registerAttributeCommands(program, withDeps, parseEnv);
  registerSearchSettingsCommands(program, withDeps, parseEnv);
  registerAuthCommands(program, withDeps, parseEnv);
  registerPortalCommands(program, withDeps);
  registerResetLinkCommands(program, withDeps);
  registerTwoFactorCommands(program, withDeps);
  registerSynonymCommands(program, withDeps, parseEnv);
  registerWebhookCommands(program, withDeps, parseEnv);
  await program.parseAsync(argv);
}
