import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { catalogueTypes, declareCatalogue } from './catalogue.js';
import { hostSpeedMs } from './host-speed.js';
import { compareLimits, type LimitsComparison } from './limits.js';
import { limitsMicro } from './limits-micro.js';
import { type Result, run, type Scenario } from './load.js';
import { DEEP_PAGE, SEARCH_MIX } from './mix.js';
import { compareOverhead, type OverheadComparison } from './overhead.js';
import { admin, adminUrl } from './postgres-admin.js';
import { probeCatalogue } from './probe.js';
import { overheadRatios, round2, table } from './report.js';
import { secondStart } from './second-start.js';
import { serverArgs } from './server-build.js';
import { cpuMicros, rssMb, waitReady } from './server-process.js';
import { variedMix } from './varied.js';

/**
 * `npm run bench`: seeds a fresh SQLite database with `vitrine seed`, starts `vitrine serve
 * --env testing` as its own process, and measures it over HTTP from this process with a real
 * API key. See bench/README.md for the method. Environment knobs:
 *   BENCH_OFFERS (default 100000), BENCH_SECONDS per scenario (default 5),
 *   BENCH_CONNECTIONS (default "1,8"), BENCH_BACKEND (sqlite | postgres; postgres creates and
 *   drops its own database through BENCH_POSTGRES_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 *   BENCH_LIMITS_ONLY=1 runs only the rate-limit/metering comparison (bench/limits.ts);
 *   BENCH_LIMITS_ROUNDS (default 5), BENCH_REDIS_URL also compares with Redis-backed limits.
 *   BENCH_IMPORT=1 measures only `vitrine import` (bench/import-rate.ts, BENCH_IMPORT_RUNS).
 *   BENCH_WEBHOOKS=1 measures only saved-search alerts during an import (bench/webhooks.ts).
 *   BENCH_REUSE=1 keeps the seeded data (a fixed DATA_DIR under the temp dir, a database
 *   vitrine_bench_<backend>_<offers>) and reuses it on the next run: 1M offers take minutes to seed.
 *   BENCH_SCENARIOS=bare,key runs only the scenarios named (ids below; `limits` for the
 *   rate-limit comparison), e.g. the overhead lines of issue #3 in a minute with BENCH_OFFERS=2000.
 *   With both `bare` and `key`, the overhead ratio is also measured in BENCH_OVERHEAD_ROUNDS
 *   (default 7) alternating rounds of BENCH_OVERHEAD_SECONDS (default 1) each (bench/overhead.ts).
 *   Issue 23: five attributes and a few synonyms declared through the CLI before serving, the
 *   catalogue scenarios of bench/catalogue.ts, each probed with BENCH_PROBE (default 20) requests
 *   first (`distinct` skipped while the server refuses it), and after the load a second start on
 *   the same data (ready from the snapshot the first server wrote; BENCH_SNAPSHOT_START=0 skips it).
 *   BENCH_DECLARE=0 declares nothing.
 *   BENCH_DATASET names the reused data (default `vitrine-bench-<backend>-<offers>`: the temp dir,
 *   and with `-` as `_` the PostgreSQL database): a branch with a new migration measures on a
 *   copy of its own, not on the data set other checkouts reuse.
 *   BENCH_SERVER_NODE_ARGS: Node flags for the server process only (space-separated, e.g.
 *   `--trace-gc`); BENCH_SERVER_LOG: a file for the server's standard output (else discarded).
 */
const root = path.resolve(import.meta.dirname, '..');
/** `node` arguments of the server under test: the deployed build by default (server-build.ts). */
const serverEntry = await serverArgs(root);
const offers = Number(process.env.BENCH_OFFERS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connectionsList = (process.env.BENCH_CONNECTIONS ?? '1,8').split(',').map(Number);
const limitsOnly = process.env.BENCH_LIMITS_ONLY === '1';
const limitsRounds = Number(process.env.BENCH_LIMITS_ROUNDS ?? 5);
const benchRedisUrl = process.env.BENCH_REDIS_URL;
const backend = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const reuse = process.env.BENCH_REUSE === '1';
/** The six search types of the query mix. */
const SEARCH_TYPES = ['word', 'two-words', 'filter', 'common-word', 'geo', 'deep-page'];
/** Scenario ids to run (see `scenarios` below, plus `limits`); unset: all of them. */
const only = process.env.BENCH_SCENARIOS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const selected = (id: string) => !only || only.includes(id);
const overheadRounds = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 7);
const overheadSeconds = Number(process.env.BENCH_OVERHEAD_SECONDS ?? 1);
const dataset = process.env.BENCH_DATASET ?? `vitrine-bench-${backend}-${offers}`;
const dataDir = reuse
  ? path.join(os.tmpdir(), dataset)
  : fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
/**
 * A port nobody listens on: a fixed one can be taken by another checkout's bench on the same
 * machine, whose server would then answer (with other keys) instead of ours.
 */
const port = await new Promise<number>((resolve, reject) => {
  const probe = net.createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const address = probe.address();
    probe.close(() => resolve(typeof address === 'object' && address ? address.port : 18_581));
  });
});
const pgName = reuse ? dataset.replaceAll('-', '_') : `vitrine_bench_${process.pid}`;
/** What a reused run needs from the run that seeded: the key and the seed rate. */
const preparedFile = path.join(dataDir, 'bench-prepared.json');
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${pgName}`;
  return url.toString();
})();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  TESTING_PORT: String(port),
  LOG_LEVEL: 'warn',
  DATABASE_URL: backend === 'postgres' ? databaseUrl : '',
};

function vitrine(args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

function sqliteBytes(): number {
  return ['vitrine.db', 'vitrine.db-wal']
    .map((f) => path.join(dataDir, f))
    .reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

async function postgresBytes(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_database_size(current_database()) AS n');
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function prepare(): Promise<{ key: string; importRate: number }> {
  if (reuse && fs.existsSync(preparedFile)) {
    process.stderr.write(`reusing the ${offers} offers seeded in ${dataDir}\n`);
    vitrine(['migrate', '--json']); // a newer build may have migrations to apply
    return JSON.parse(fs.readFileSync(preparedFile, 'utf8'));
  }
  fs.mkdirSync(dataDir, { recursive: true });
  if (backend === 'postgres') {
    if (reuse) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${pgName}`);
  }
  process.stderr.write(`seeding ${offers} offers (${backend})…\n`);
  const seed = JSON.parse(vitrine(['seed', '--env', 'testing', '--count', String(offers), '--json']));
  const importRate = Math.round(offers / seed.seconds);
  vitrine(['developers', 'add', '--email', 'bench@example.com', '--json']);
  const project = JSON.parse(
    vitrine(['projects', 'add', '--name', 'bench', '--owner', 'bench@example.com', '--json']),
  );
  const issued = JSON.parse(
    vitrine(['keys', 'issue', '--project', project.id, '--env', 'testing', '--json']),
  );
  const key = issued.key as string;
  // A plan far above what this machine can serve: the bench measures speed, not the limiter refusing.
  vitrine(['keys', 'set-plan', issued.id, '--rate', '1000000', '--json']);
  const prepared = { key, importRate };
  if (reuse) fs.writeFileSync(preparedFile, JSON.stringify(prepared));
  return prepared;
}

async function main(): Promise<void> {
  // BENCH_IMPORT=1: only the import rate (bench/import-rate.ts), no server and no load.
  // BENCH_WEBHOOKS=1: only saved-search alerts during an import (bench/webhooks.ts).
  if (process.env.BENCH_WEBHOOKS === '1') {
    await import('./webhooks.js');
    return;
  }
  if (process.env.BENCH_IMPORT === '1') {
    if (!reuse) fs.rmSync(dataDir, { recursive: true, force: true });
    await import('./import-rate.js');
    return;
  }
  const { key, importRate } = await prepare();
  try {
    // BENCH_DECLARE=0: none (a reused data set keeps what it has), e.g. to see a snapshot start.
    if (process.env.BENCH_DECLARE !== '0') declareCatalogue(vitrine);
    const measured = await measure(key, importRate);
    // ADR 0024: the first server wrote its snapshot after its build (and waited for it on exit).
    const snapshotStart =
      limitsOnly || process.env.BENCH_SNAPSHOT_START === '0'
        ? null
        : await secondStart({ server: serverEntry, env, origin: `http://127.0.0.1:${port}` });
    if (snapshotStart)
      process.stderr.write(
        `second start: ready in ${snapshotStart.readyMs} ms, ${snapshotStart.fromSnapshot ? 'from the snapshot' : 'not from a snapshot'} (${snapshotStart.log.join('; ')})\n`,
      );
    const summary = { ...measured, snapshotStart };
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const suffix = limitsOnly ? '-limits' : only ? `-${only.join('-')}` : '';
    const out = path.join(root, 'bench/results', `${backend}-${offers}${suffix}.json`);
    fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(`${table(summary)}\nwrote ${path.relative(root, out)}\n`);
  } finally {
    if (!reuse) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      // Only the database this run created.
      if (backend === 'postgres') await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    }
  }
}

/** One server: started, measured scenario by scenario, stopped. */
async function measure(key: string, importRate: number) {
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const log = process.env.BENCH_SERVER_LOG ? fs.openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore';
  const server: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, ...serverEntry, 'serve', '--env', 'testing'],
    { env, stdio: ['ignore', log, 'inherit'] },
  );
  const origin = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  try {
    await waitReady(origin);
    // Issue 12: process start to ready, the in-memory search index built from the database.
    const startupSeconds = round2((performance.now() - spawned) / 1000);
    const rssAtReadyMb = server.pid ? rssMb(server.pid) : null;
    // CPU time to ready: on a shared machine the wall time is mostly waiting for a core.
    const startupCpuSeconds = server.pid ? round2(cpuMicros(server.pid) / 1_000_000) : null;
    process.stderr.write(
      `ready in ${startupSeconds} s (server CPU ${startupCpuSeconds} s), RSS ${rssAtReadyMb} MB\n`,
    );
    const headers = { 'x-api-key': key };
    const firstResponse = await fetch(`${origin}/v1/offers/?limit=100`, { headers });
    if (!firstResponse.ok)
      throw new Error(`first search: ${firstResponse.status} ${await firstResponse.text()}`);
    const first = (await firstResponse.json()) as { data: { id: string }[] };
    const ids = first.data.map((o) => o.id);
    // A deep page: follow the cursor 20 pages into a filter-only query.
    let cursor = '';
    for (let i = 1; i < DEEP_PAGE.page; i += 1) {
      const page = (await (
        await fetch(`${origin}/v1/offers/?${DEEP_PAGE.query}${cursor}`, { headers })
      ).json()) as { nextCursor: string | null };
      if (!page.nextCursor) break;
      cursor = `&cursor=${page.nextCursor}`;
    }
    const all: (Scenario & { id: string })[] = [
      { id: 'bare', name: 'bare route, no auth (/healthz)', paths: ['/healthz'] },
      // Issue #3: HTTP + API-key check + rate limit + metering, and nothing else.
      { id: 'key', name: 'trivial authenticated (/v1/key)', paths: ['/v1/key'], headers },
      { id: 'offer', name: 'offer by id', paths: ids.map((id) => `/v1/offers/${id}`), headers },
      ...SEARCH_MIX.map((type) => ({
        id: type.id,
        name: type.name,
        paths: type.queries.map((q) => `/v1/offers/?${q}`),
        headers,
      })),
      {
        id: DEEP_PAGE.id,
        name: DEEP_PAGE.name,
        paths: [`/v1/offers/?${DEEP_PAGE.query}${cursor}`],
        headers,
      },
    ];
    // The "mix": every search above, interleaved (one type after another), so a slow
    // type shares the server with the cheap ones as it would in production.
    const searches = all.filter((s) => SEARCH_TYPES.includes(s.id));
    const longest = Math.max(...searches.map((s) => s.paths.length));
    all.push({
      id: 'mix',
      name: 'the search mix (all six types interleaved)',
      paths: Array.from({ length: longest }, (_, i) =>
        searches.map((s) => s.paths[i % s.paths.length] ?? '/'),
      ).flat(),
      headers,
    });
    // The same five types with every request different: what the engine does without the cache.
    all.push({ id: 'varied', name: 'the mix, no search repeated', paths: variedMix(), headers });
    // Issue 23: the catalogue-search query types; typing continues its list from run to run.
    const typing = { next: 0 };
    const catalogue = catalogueTypes();
    for (const type of catalogue)
      all.push({ ...type, headers, ...(type.id === 'typing' ? { position: typing } : {}) });
    const typingScenario = all.find((s) => s.id === 'typing');
    if (only) {
      const unknown = only.filter((id) => id !== 'limits' && !all.some((s) => s.id === id));
      if (unknown.length > 0)
        throw new Error(
          `BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${all.map((s) => s.id).join(', ')}, limits)`,
        );
    }
    const { probes, skipped } = await probeCatalogue(
      origin,
      all.filter((s) => selected(s.id) && catalogue.some((c) => c.id === s.id)),
      headers,
    );
    const scenarios = all.filter((s) => selected(s.id) && !skipped.some((k) => k.id === s.id));
    const results: Result[] = [];
    const trivial = all[1] as Scenario;
    const limitsRuns: LimitsComparison[] = [];
    const loadBefore = os.loadavg();
    const hostSpeed = hostSpeedMs();
    process.stderr.write(`host speed: ${hostSpeed} ms (bench/host-speed.ts)\n`);
    for (const redisUrl of selected('limits') ? [undefined, ...(benchRedisUrl ? [benchRedisUrl] : [])] : []) {
      limitsRuns.push(
        ...(await compareLimits({
          root,
          env,
          ports: [port + 1, port + 2],
          scenario: trivial,
          connections: connectionsList,
          rounds: limitsRounds,
          secondsPerRound: Math.max(1, Math.round(seconds / 2)),
          waitReady,
          redisUrl,
        })),
      );
    }
    const micro = selected('limits') ? await limitsMicro() : null;
    if (micro)
      process.stderr.write(
        `hot-path cost in process: limits ${micro.limitsMicros} µs, metering ${micro.meterMicros} µs per request\n`,
      );
    for (const connections of limitsOnly ? [] : connectionsList) {
      for (const scenario of scenarios) {
        const result = await run(origin, scenario, {
          connections,
          durationMs: seconds * 1000,
          warmupMs: 1000,
        });
        results.push(result);
        process.stderr.write(
          `${scenario.name.padEnd(38)} c=${connections} ${result.rps} req/s p50 ${result.p50} p99 ${result.p99} ms errors ${result.errors}\n`,
        );
      }
    }
    const overhead: OverheadComparison[] =
      !limitsOnly && selected('bare') && selected('key') && overheadRounds > 0
        ? await compareOverhead({
            origin,
            bare: all[0] as Scenario,
            trivial,
            connections: connectionsList,
            rounds: overheadRounds,
            secondsPerRound: overheadSeconds,
            serverCpuMicros: server.pid ? () => cpuMicros(server.pid as number) : undefined,
          })
        : [];
    const dbBytes = backend === 'sqlite' ? sqliteBytes() : await postgresBytes();
    return {
      date: new Date().toISOString(),
      backend,
      offers,
      secondsPerScenario: seconds,
      importRatePerSecond: importRate,
      databaseMb: Math.round(dbBytes / 1024 / 1024),
      serverRssMb: server.pid ? rssMb(server.pid) : null,
      startupSeconds,
      startupCpuSeconds,
      rssAtReadyMb,
      scenarios: only ?? 'all',
      /** `uptime`'s 1-, 5- and 15-minute load averages before and after: this machine is shared. */
      loadAverage: { before: loadBefore.map(round2), after: os.loadavg().map(round2) },
      overheadSingleWindow: overheadRatios(results, connectionsList),
      overhead,
      limits: limitsRuns,
      limitsMicro: micro,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      /** bench/host-speed.ts: a fixed piece of work's time on this machine now (ms, lower is faster). */
      hostSpeedMs: hostSpeed,
      results,
      probes,
      skipped,
      typing:
        typingScenario && selected('typing')
          ? { distinct: typingScenario.paths.length, sent: typing.next }
          : null,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
