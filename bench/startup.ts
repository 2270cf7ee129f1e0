import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverArgs } from './server-build.js';

/**
 * `npm run bench:startup` (issue 12, ADR 0022): how long `vitrine serve --env testing` takes from
 * spawn to `/readyz` 200 on an existing database, i.e. the in-memory search index built from the
 * rows. No seeding, no writes besides what `serve` does itself (migrations): point it at a copy.
 *
 *   DATA_DIR=/tmp/copy npm run bench:startup                 SQLite (DATA_DIR/vitrine.db)
 *   DATA_DIR=/tmp/copy DATABASE_URL=postgres://… npm run bench:startup
 *
 * Knobs: BENCH_STARTUP_RUNS (default 3), BENCH_STARTUP_ENV (default `testing`),
 * BENCH_STARTUP_KEY (an API key of that environment: then the first searches after ready are
 * timed, each twice: newest first, sort=price, one word; a first query that pays for work left
 * lazy by the build shows as a first time far above the second). Reports per run
 * the wall time to ready, the server's CPU time (user + system) of every thread and of its main
 * thread alone (on a loaded machine the wall time is mostly waiting for a core; the main thread's
 * CPU is the critical path on an idle one), its RSS at ready, and the load average before and
 * after; one JSON line per run on stdout, a summary on stderr.
 */
const root = path.resolve(import.meta.dirname, '..');
/** `node` arguments of the server under test: the deployed build by default (server-build.ts). */
const serverEntry = await serverArgs(root);
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const environment = process.env.BENCH_STARTUP_ENV ?? 'testing';
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required (a copy of a seeded data directory)');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * CPU time (user + system) in s: fields 14 and 15 of /proc/<pid>/stat (every thread of the
 * process), or of /proc/<pid>/task/<pid>/stat (its main thread: the event loop, which indexes).
 */
function cpuSeconds(pid: number, mainThread = false): number {
  const file = mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
  const fields = fs.readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

const load = () => os.loadavg().map((l) => l.toFixed(2));

/** With BENCH_STARTUP_KEY: ms of the first searches after ready, each run twice in a row. */
async function firstSearches(port: number): Promise<Record<string, number[]> | null> {
  const key = process.env.BENCH_STARTUP_KEY;
  if (!key) return null;
  const out: Record<string, number[]> = {};
  for (const [name, query] of [
    ['newest', 'limit=20'],
    ['price', 'sort=price&limit=20'],
    ['word', 'q=table&limit=20'],
  ] as const) {
    out[name] = [];
    for (let i = 0; i < 2; i += 1) {
      const t = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/v1/offers/?${query}`, {
        headers: { 'x-api-key': key },
      });
      if (!response.ok) throw new Error(`search ${query}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      out[name].push(Number((performance.now() - t).toFixed(1)));
    }
  }
  return out;
}

async function once(run: number): Promise<Record<string, unknown>> {
  const port = await freePort();
  const portVariable = `${environment.toUpperCase()}_PORT`;
  const loadBefore = load();
  const server = spawn(process.execPath, [...serverEntry, 'serve', '--env', environment], {
    env: { ...process.env, [portVariable]: String(port), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = performance.now();
  const pid = server.pid;
  if (!pid) throw new Error('serve did not start');
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`serve exited with ${server.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 600_000) throw new Error('not ready after 10 min');
      await new Promise((r) => setTimeout(r, 50));
    }
    const readySeconds = Number(((performance.now() - started) / 1000).toFixed(2));
    const cpuAtReady = cpuSeconds(pid);
    const mainAtReady = cpuSeconds(pid, true);
    const rssAtReady = rssMb(pid);
    const firstSearchesMs = await firstSearches(port);
    const result = {
      run,
      backend: process.env.DATABASE_URL ? 'postgres' : 'sqlite',
      readySeconds,
      serverCpuSeconds: cpuAtReady,
      mainThreadCpuSeconds: mainAtReady,
      rssMb: rssAtReady,
      ...(firstSearchesMs ? { firstSearchesMs } : {}),
      loadBefore,
      loadAfter: load(),
    };
    return result;
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

const results: Record<string, unknown>[] = [];
for (let run = 1; run <= runs; run += 1) {
  const result = await once(run);
  results.push(result);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
const ready = results.map((r) => r.readySeconds as number).sort((a, b) => a - b);
process.stderr.write(
  `\nready after ${ready.join(', ')} s (median ${ready[Math.floor(ready.length / 2)]}); ${os.cpus().length} cores, Node ${process.version}\n`,
);
