import path from 'node:path';
import {
  parseBoolean,
  parseEnum,
  parseInteger,
  parseOrigin,
  parseString,
  parseUrlWithScheme,
} from './parsers.js';

/**
 * The one place that reads `process.env` (STYLE: config parsed once, at boot, with a schema).
 * Every variable is declared once here; the `Config` type, the validation and `docs/config.md`
 * are all derived from this table, so they cannot drift.
 */

interface VarSpec<T> {
  readonly env: string;
  /** Raw default, parsed like a given value; `undefined` means the setting is optional. */
  readonly fallback: string | undefined;
  readonly parse: (raw: string) => T;
  readonly doc: string;
}

function variable<T, const F extends string | undefined>(
  env: string,
  fallback: F,
  parse: (raw: string) => T,
  doc: string,
): VarSpec<T> & { readonly fallback: F } {
  return { env, fallback, parse, doc };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const CONFIG_SPEC = {
  port: variable(
    'PORT',
    '8080',
    parseInteger(0, 65535),
    'Port of the production listener (search API, auth server, portal, console).',
  ),
  testingPort: variable('TESTING_PORT', '8081', parseInteger(0, 65535), 'Port of the testing listener.'),
  host: variable(
    'HOST',
    '127.0.0.1',
    parseString,
    'Interface both listeners bind to. Use `0.0.0.0` in a container.',
  ),
  publicOrigin: variable(
    'PUBLIC_ORIGIN',
    undefined,
    parseOrigin,
    'Public origin of the production environment; `{base_url}` is `<origin>/v1`, `{auth_url}` is `<origin>/auth`. Default `http://localhost:$PORT`.',
  ),
  testingPublicOrigin: variable(
    'TESTING_PUBLIC_ORIGIN',
    undefined,
    parseOrigin,
    'Public origin of the testing environment. Default `http://localhost:$TESTING_PORT`.',
  ),
  dataDir: variable(
    'DATA_DIR',
    './data',
    parseString,
    'Directory of the embedded SQLite database (`vitrine.db`) and of locally generated secrets.',
  ),
  databaseUrl: variable(
    'DATABASE_URL',
    undefined,
    parseUrlWithScheme(['postgres:', 'postgresql:']),
    'PostgreSQL connection URL. Unset: the embedded SQLite database in `DATA_DIR`.',
  ),
  databasePoolMax: variable(
    'DATABASE_POOL_MAX',
    '10',
    parseInteger(1, 200),
    'Maximum PostgreSQL connections per process.',
  ),
  sqliteReadWorkers: variable(
    'SQLITE_READ_WORKERS',
    '2',
    parseInteger(0, 16),
    'SQLite only: worker threads running reads (searches) off the event loop, each with a read-only connection. 0 reads on the main thread.',
  ),
  redisUrl: variable(
    'REDIS_URL',
    undefined,
    parseUrlWithScheme(['redis:', 'rediss:']),
    'Redis URL for state shared by several instances. Validated now; used by the multi-instance work (rate limits, revocation broadcast).',
  ),
  logLevel: variable('LOG_LEVEL', 'info', parseEnum(LOG_LEVELS), 'Log level of the JSON logs on stdout.'),
  keyCacheRefreshMs: variable(
    'KEY_CACHE_REFRESH_MS',
    '500',
    parseInteger(50, 1000),
    'How often each process looks for revoked or changed API keys (ms). At most 1000, so a revocation is refused everywhere within one second (SPEC §3).',
  ),
  bodyLimitBytes: variable(
    'BODY_LIMIT_BYTES',
    '65536',
    parseInteger(1024, 10 * 1024 * 1024),
    'Largest request body accepted; larger bodies get `413 payload_too_large`.',
  ),
  trustProxy: variable(
    'TRUST_PROXY',
    'false',
    parseBoolean,
    'Trust `X-Forwarded-*` headers (set when behind a load balancer) for client addresses.',
  ),
} as const;

type Spec = typeof CONFIG_SPEC;
type Parsed<K extends keyof Spec> = ReturnType<Spec[K]['parse']>;
type Raw = { [K in keyof Spec]: Spec[K]['fallback'] extends string ? Parsed<K> : Parsed<K> | undefined };

export interface Config extends Omit<Raw, 'publicOrigin' | 'testingPublicOrigin'> {
  readonly publicOrigin: string;
  readonly testingPublicOrigin: string;
  /** Path of the SQLite file when `databaseUrl` is unset. */
  readonly sqlitePath: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_SPEC) as [string, VarSpec<unknown>][]) {
    const given = env[spec.env];
    const value = given === undefined || given === '' ? spec.fallback : given;
    if (value === undefined) continue;
    try {
      raw[key] = spec.parse(value);
    } catch (error) {
      problems.push(`${spec.env}=${JSON.stringify(value)}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const parsed = raw as Raw;
  return Object.freeze({
    ...parsed,
    publicOrigin: parsed.publicOrigin ?? `http://localhost:${parsed.port}`,
    testingPublicOrigin: parsed.testingPublicOrigin ?? `http://localhost:${parsed.testingPort}`,
    sqlitePath: path.resolve(parsed.dataDir, 'vitrine.db'),
  });
}
