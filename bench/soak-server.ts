import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { admin, adminUrl } from './postgres-admin.js';

/**
 * A `vitrine serve --env testing` of its own for the soak and the invalid-import benches (issue
 * 26): a fresh SQLite file or PostgreSQL database, `seed` offers, a secret key granted
 * offers:write; the server's RSS from /proc; a streamed NDJSON POST. Everything is removed after.
 */
const root = path.resolve(import.meta.dirname, '..');

export interface BenchServer {
  origin: string;
  pid: number;
  key: string;
  projectId: string;
  rssMiB(): number;
  /** CPU time the server has used (user + system, all threads), seconds. */
  cpuSeconds(): number;
  /**
   * The server's resident memory from /proc, MiB: anonymous (heaps, caches), file-backed, and the
   * main thread's malloc heap (`brk`, the `[heap]` mapping: SQLite's page caches of the event
   * loop's connections, better-sqlite3's statements; worker threads allocate from arenas of their
   * own).
   */
  residentMiB(): { rss: number; anon: number; file: number; brk: number };
  /** Streams `body` to `POST /v1/offers/import`; resolves to the status and answer. */
  importNdjson(body: Readable): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** The Dockerfile's `ENV` for glibc's malloc (ADR 0044): the server as the image runs it. */
export const IMAGE_MALLOC = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startBenchServer(options: {
  name: string;
  backend: 'sqlite' | 'postgres';
  seed: number;
  env?: NodeJS.ProcessEnv;
}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-${options.name}-`));
  const dbName = `vitrine_bench_${options.name.replace(/\W/g, '_')}_${process.pid}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const env = {
    // The image's malloc thresholds (Dockerfile, ADR 0044) unless the caller sets them;
    // SOAK_MALLOC=dynamic runs the server with glibc's own (dynamic) thresholds instead.
    ...(process.env.SOAK_MALLOC === 'dynamic' ? {} : IMAGE_MALLOC),
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: options.backend === 'postgres' ? dbUrl.toString() : '',
    LOG_LEVEL: 'warn',
    RATE_LIMITING: 'false',
    USAGE_METERING: 'false',
    IMPORT_MAX_BYTES: String(256 * 1024 * 1024),
    ...options.env,
  };
  const vitrine = (args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  if (options.backend === 'postgres') await admin(`CREATE DATABASE ${dbName}`);
  vitrine(['migrate']);
  if (options.seed > 0) vitrine(['seed', '--env', 'testing', '--count', String(options.seed), '--json']);
  const { projectId, key: issued } = writerKey(vitrine);
  const port = await freePort();
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/main.ts'), 'serve', '--env', 'testing'],
    {
      env: { ...env, TESTING_PORT: String(port), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (
      (await fetch(`${origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      )) === true
    )
      break;
    if (i > 6000) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = server.pid as number;
  return {
    origin,
    pid,
    key: issued.key,
    projectId,
    rssMiB() {
      return procStatusMiB(pid, 'VmRSS');
    },
    cpuSeconds() {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks (100 a second).
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    residentMiB() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) =>
        Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
      const smaps = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
      const brk = Number(/\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps)?.[1] ?? 0) / 1024;
      return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile'), brk };
    },
    importNdjson(body) {
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/offers/import',
            headers: { 'x-api-key': issued.key, 'content-type': 'application/x-ndjson' },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        request.on('error', reject);
        body.pipe(request);
      });
    },
    async close() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (options.backend === 'postgres') await admin(`DROP DATABASE IF EXISTS ${dbName}`);
    },
  };
}

function procStatusMiB(pid: number, name: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

/** A developer, a project and a testing key granted offers:write, through the CLI (`vitrine`). */
export function writerKey(vitrine: (args: string[]) => string): {
  projectId: string;
  key: { id: string; key: string };
} {
  vitrine(['developers', 'add', '--email', 'bench@example.com']);
  const projectId = JSON.parse(
    vitrine(['projects', 'add', '--name', 'Bench', '--owner', 'bench@example.com', '--json']),
  ).id as string;
  const key = JSON.parse(
    vitrine(['keys', 'issue', '--project', projectId, '--env', 'testing', '--json']),
  ) as {
    id: string;
    key: string;
  };
  vitrine(['keys', 'grant-write', key.id]);
  return { projectId, key };
}

/** p-th percentile of sorted numbers. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
