import path from 'node:path';
import {
  parseBoolean,
  parseDeprecations,
  parseDuration,
  parseDurationList,
  parseEnum,
  parseInteger,
  parseOrigin,
  parseSecret,
  parseString,
  parseSubset,
  parseTrustProxy,
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
    'SQLite only: worker threads running reads that may scan (listings, counts, portal and console pages) off the event loop, each with a read-only connection; reads by key (an API key, a search page of offers) stay on the event loop, where they take microseconds (ADR 0026). 0 reads everything on the main thread.',
  ),
  sqliteCacheMb: variable(
    'SQLITE_CACHE_MB',
    '8',
    parseInteger(2, 65_536),
    "SQLite only: page cache of each read connection (the one on the event loop and one per read worker), in MiB, filled as pages are read and then kept: the process's memory grows by up to this much per connection (ADR 0044). The rows of a search page are read by key on the event loop connection; a page not in this cache comes from the operating system's file cache (measured at 200 000 and 1M offers: the same CPU per search page with 2, 8, 32 or 256 MiB when the file is in that cache).",
  ),
  sqliteWriteCacheMb: variable(
    'SQLITE_WRITE_CACHE_MB',
    '16',
    parseInteger(2, 65_536),
    "SQLite only: page cache of `serve`'s write connection (HTTP imports, API writes), in MiB, filled as an import's transactions touch pages and then kept (ADR 0044). The CLI's commands (`vitrine import`, `vitrine seed`) write with at least 64 MiB, the size of their 10 000-offer transactions (ADR 0012).",
  ),
  redisUrl: variable(
    'REDIS_URL',
    undefined,
    parseUrlWithScheme(['redis:', 'rediss:']),
    'Redis URL for state shared by several instances: rate-limit counters and change broadcasts (key revocations). Unset: one instance, counters in memory. If Redis becomes unreachable, each instance falls back to its own in-memory limits and switches back when Redis returns.',
  ),
  redisKeyPrefix: variable(
    'REDIS_KEY_PREFIX',
    'vitrine:',
    parseString,
    'Prefix of every Redis key and pub/sub channel Vitrine uses, so several deployments can share one Redis.',
  ),
  rateLimitTesting: variable(
    'RATE_LIMIT_TESTING',
    '10',
    parseInteger(1, 1_000_000),
    'Default plan of testing keys, in requests per second (bursts of up to one second of requests are allowed). The plan of a key of its own (`vitrine keys set-plan`) overrides it.',
  ),
  rateLimitProduction: variable(
    'RATE_LIMIT_PRODUCTION',
    '50',
    parseInteger(1, 1_000_000),
    'Default plan of production keys, in requests per second (bursts of up to one second of requests are allowed).',
  ),
  rateLimitAuthFailures: variable(
    'RATE_LIMIT_AUTH_FAILURES',
    '60',
    parseInteger(1, 1_000_000),
    'Requests with a missing or bad API key allowed per client address per minute; past it the address gets `429 rate_limited` until the budget refills, whatever key it sends (slows key guessing).',
  ),
  rateLimiting: variable(
    'RATE_LIMITING',
    'true',
    parseBoolean,
    'Enforce the per-key and per-address rate limits. `false` only for benchmarks and trusted internal deployments.',
  ),
  usageMetering: variable(
    'USAGE_METERING',
    'true',
    parseBoolean,
    'Count requests per key, day and status class (`vitrine keys usage`).',
  ),
  usageFlushMs: variable(
    'USAGE_FLUSH_MS',
    '5000',
    parseInteger(100, 600_000),
    'How often the in-memory usage counters are added to the database (ms); they are also written on shutdown.',
  ),
  metricsToken: variable(
    'METRICS_TOKEN',
    undefined,
    parseString,
    '`/metrics` requires `Authorization: Bearer <METRICS_TOKEN>`. Unset: `/metrics` answers loopback callers only (Prometheus on the same host or a sidecar).',
  ),
  shutdownTimeoutMs: variable(
    'SHUTDOWN_TIMEOUT_MS',
    '10000',
    parseInteger(100, 600_000),
    'On SIGTERM: how long in-flight requests may take to finish (and usage counters to be written) before the process exits anyway with code 1.',
  ),
  apiDeprecations: variable(
    'API_DEPRECATIONS',
    undefined,
    parseDeprecations,
    'Versions marked deprecated, `version=deprecation-date/sunset-date` separated by commas, dates in ISO 8601, e.g. `v1=2027-01-01T00:00:00Z/2027-07-01T00:00:00Z`. Their responses carry `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers.',
  ),
  logLevel: variable('LOG_LEVEL', 'info', parseEnum(LOG_LEVELS), 'Log level of the JSON logs on stdout.'),
  keyCacheRefreshMs: variable(
    'KEY_CACHE_REFRESH_MS',
    '500',
    parseInteger(50, 1000),
    'How often each process looks for revoked or changed API keys (ms). At most 1000, so a revocation is refused everywhere within one second.',
  ),
  searchPollMs: variable(
    'SEARCH_POLL_MS',
    '250',
    parseInteger(20, 1000),
    'How often each serving process reads the offers change counter and applies new writes to its in-memory search index (ms). At most 1000, so a write by another process or the CLI is searchable everywhere within one second; with REDIS_URL a change message also triggers it at once.',
  ),
  searchCacheMb: variable(
    'SEARCH_CACHE_MB',
    '32',
    parseInteger(0, 4096),
    'Memory for recent search answers per process (MB, estimated). A cached answer is used only while it is exactly what a fresh search would return: no offer written and no offer expired since (ADR 0025). Kept from the second computation of a query on (ADR 0050). `0` computes every search.',
  ),
  heapGrowthPercent: variable(
    'HEAP_GROWTH_PERCENT',
    '25',
    parseInteger(0, 300),
    "How far the JavaScript heap may grow past what the last full collection kept before the next one, in percent, once the search indexes are built (ADR 0044). Left to itself Node lets a busy server's heap grow to about four times what is live between collections: under a stream of searches and writes, hundreds of MB of garbage. `0` leaves it to Node.",
  ),
  searchStartWorker: variable(
    'SEARCH_START_WORKER',
    'true',
    parseBoolean,
    'At start, read the offers for the in-memory search index in a worker thread with its own database connection while the main thread indexes them (ADR 0022). `false` reads them on the main thread (slower; for comparison).',
  ),
  searchSnapshot: variable(
    'SEARCH_SNAPSHOT',
    'true',
    parseBoolean,
    "Keep a snapshot of each environment's in-memory search index on local disk (ADR 0024): a start loads it and applies the writes made since, instead of analysing every offer again. Written after a full build, after many changes and at shutdown. A snapshot that is missing, damaged, of another version or of another database is ignored (a warning, then a full build). `false`: always a full build, nothing written.",
  ),
  searchSnapshotDir: variable(
    'SEARCH_SNAPSHOT_DIR',
    undefined,
    parseString,
    'Directory of the search-index snapshots (a cache: backups need not include it; instances of one deployment may share it). Default `$DATA_DIR/search-snapshots`.',
  ),
  bodyLimitBytes: variable(
    'BODY_LIMIT_BYTES',
    '65536',
    parseInteger(1024, 10 * 1024 * 1024),
    'Largest request body accepted; larger bodies get `413 payload_too_large`.',
  ),
  importMaxBytes: variable(
    'IMPORT_MAX_BYTES',
    String(50 * 1024 * 1024),
    parseInteger(1024, 1024 * 1024 * 1024),
    'Largest NDJSON body `POST {base_url}/offers/import` accepts (streamed, not held in memory); larger bodies get `413 payload_too_large` (issue 16).',
  ),
  importMaxFailedLines: variable(
    'IMPORT_MAX_FAILED_LINES',
    '10000',
    parseInteger(1, 100_000_000),
    'Invalid lines `POST {base_url}/offers/import` accepts in one body: past this many it stops with `422 import_too_many_invalid_lines`, keeping the valid lines before (issue 26).',
  ),
  rateLimitPublishableAddress: variable(
    'RATE_LIMIT_PUBLISHABLE_ADDRESS',
    '5',
    parseInteger(1, 1_000_000),
    "Requests per second one client address may make with one publishable key (bursts of up to one second's worth), besides the key's own plan: one visitor cannot spend a shop's whole budget (issue 16).",
  ),
  trustProxy: variable(
    'TRUST_PROXY',
    'false',
    parseTrustProxy,
    "`false`, or the load balancer's addresses/CIDRs (`10.0.0.0/8,127.0.0.1`, `loopback`): `X-Forwarded-For` is believed only from them. `true` is refused (any client could spoof its address).",
  ),
  accessTokenTtlMs: variable(
    'ACCESS_TOKEN_TTL',
    '10h',
    parseDuration(60_000, 86_400_000),
    'Lifetime of access tokens (JWT `exp` − `iat`), e.g. `10h`. From `1m` to `24h`.',
  ),
  refreshTokenTtlMs: variable(
    'REFRESH_TOKEN_TTL',
    '30d',
    parseDuration(3_600_000, 366 * 86_400_000),
    'Lifetime of refresh tokens, e.g. `30d`. From `1h` to `366d`.',
  ),
  refreshTokenRotation: variable(
    'REFRESH_TOKEN_ROTATION',
    'off',
    parseEnum(['off', 'on'] as const),
    '`on`: every refresh returns a new refresh token and a reused one revokes its whole family (after the grace period). `off`: the client keeps its refresh token.',
  ),
  refreshTokenReuseGraceMs: variable(
    'REFRESH_TOKEN_REUSE_GRACE',
    '30s',
    parseDuration(0, 300_000),
    'With rotation on: how long an already used refresh token is still accepted (concurrent refreshes, lost responses) before reuse counts as theft. At most `5m`.',
  ),
  signupEnvironments: variable(
    'SIGNUP_ENVIRONMENTS',
    'testing',
    parseSubset(['production', 'testing'] as const),
    'Environments whose end users may create their own account at `{auth_url}/signup` (`none`, `testing`, `production,testing`).',
  ),
  masterSecret: variable(
    'MASTER_SECRET',
    undefined,
    parseSecret,
    'Base64 secret (≥ 32 bytes) that encrypts token-signing keys at rest. Unset: generated once into `$DATA_DIR/master.key`. Every instance of a multi-node deployment must get the same value.',
  ),
  // Issue 5: the developer portal and the operator console.
  autoApproveTesting: variable(
    'AUTO_APPROVE_TESTING',
    'true',
    parseBoolean,
    'Approve applications for testing keys at once. `false`: they wait for an operator like production ones.',
  ),
  portalSessionIdleMs: variable(
    'PORTAL_SESSION_IDLE',
    '30m',
    parseDuration(60_000, 86_400_000),
    'Portal and console sessions end after this long without a request, e.g. `30m`. From `1m` to `24h`.',
  ),
  portalSessionMaxMs: variable(
    'PORTAL_SESSION_MAX',
    '12h',
    parseDuration(60_000, 30 * 86_400_000),
    'Portal and console sessions end this long after sign-in whatever the activity, e.g. `12h`. From `1m` to `30d`.',
  ),
  // Issue 27: mail, password reset, email verification, two-factor sign-in.
  smtpUrl: variable(
    'SMTP_URL',
    undefined,
    parseUrlWithScheme(['smtp:', 'smtps:']),
    'SMTP server for outgoing mail (password reset, email verification), e.g. `smtp://user:pass@host:587`; `smtps:` for implicit TLS. Unset: each message is written as an `.eml` file under `$DATA_DIR/outbox/` and the log names the file.',
  ),
  mailFrom: variable(
    'MAIL_FROM',
    'Vitrine <no-reply@localhost>',
    parseString,
    'Sender (`From:`) of the mail Vitrine sends.',
  ),
  userEmailVerification: variable(
    'USER_EMAIL_VERIFICATION',
    'optional',
    parseEnum(['optional', 'required'] as const),
    '`required`: an end user who signed up must follow the link mailed to them before they can sign in. `optional`: the link is mailed, signing in does not wait for it.',
  ),
  consoleRequire2fa: variable(
    'CONSOLE_REQUIRE_2FA',
    'false',
    parseBoolean,
    '`true`: an operator without two-factor sign-in must enrol an authenticator app at their next console sign-in before anything else.',
  ),
  // Issue 24: events as signed webhooks.
  webhookRetrySchedule: variable(
    'WEBHOOK_RETRY_SCHEDULE',
    '5s,30s,2m,10m,1h,6h,24h',
    parseDurationList(1000, 7 * 86_400_000, 20),
    'Waits between the attempts of a webhook delivery that failed (non-2xx, timeout, connection error): after the first failure the first wait, and so on; after the last, the delivery is marked failed. An endpoint failing for 5 days is disabled.',
  ),
  webhookAllowPrivate: variable(
    'WEBHOOK_ALLOW_PRIVATE',
    'false',
    parseBoolean,
    'Allow webhook URLs whose host resolves to a loopback, private, link-local or metadata address (checked at registration and at every delivery). Only for local development and tests.',
  ),
  webhookPollMs: variable(
    'WEBHOOK_POLL_MS',
    '250',
    parseInteger(20, 5000),
    'How often each serving process looks for webhook deliveries due and for offer writes to match against saved searches with alerts (ms).',
  ),
} as const;

type Spec = typeof CONFIG_SPEC;
type Parsed<K extends keyof Spec> = ReturnType<Spec[K]['parse']>;
type Raw = { [K in keyof Spec]: Spec[K]['fallback'] extends string ? Parsed<K> : Parsed<K> | undefined };

export interface Config extends Omit<Raw, 'publicOrigin' | 'testingPublicOrigin' | 'searchSnapshotDir'> {
  readonly publicOrigin: string;
  readonly testingPublicOrigin: string;
  readonly searchSnapshotDir: string;
  /** Path of the SQLite file when `databaseUrl` is unset. */
  readonly sqlitePath: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose values may hold a secret: named in config errors, their values never shown. */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'REDIS_URL', 'MASTER_SECRET', 'METRICS_TOKEN', 'SMTP_URL']);

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
      // Issue 13: a secret's value (a password inside DATABASE_URL) is never printed.
      const shown = SECRET_VARIABLES.has(spec.env) ? '(value hidden)' : JSON.stringify(value);
      problems.push(`${spec.env}=${shown}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const parsed = raw as Raw;
  return Object.freeze({
    ...parsed,
    publicOrigin: parsed.publicOrigin ?? `http://localhost:${parsed.port}`,
    testingPublicOrigin: parsed.testingPublicOrigin ?? `http://localhost:${parsed.testingPort}`,
    sqlitePath: path.resolve(parsed.dataDir, 'vitrine.db'),
    searchSnapshotDir: path.resolve(
      parsed.searchSnapshotDir ?? path.join(parsed.dataDir, 'search-snapshots'),
    ),
  });
}
