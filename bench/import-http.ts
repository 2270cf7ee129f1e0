import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { admin, adminUrl } from './postgres-admin.js';
import { writerKey } from './soak-server.js';

/**
 * The HTTP import (issue 16): `POST /v1/offers/import` of a 100 000-line NDJSON body (the
 * seed's offers, ~75 MB, so IMPORT_MAX_BYTES is raised to 128 MiB for the run) into a real
 * `vitrine serve --env testing` on an empty database, with a secret key granted offers:write.
 * Reports offers/s, and the server's resident memory (VmRSS from /proc, sampled every 50 ms)
 * and JavaScript heap in use (`vitrine_nodejs_heap_size_used_bytes` from its `/metrics`,
 * sampled every 250 ms) before, at their peak during, and after the import; then sends the
 * same body again (every line unchanged: the idempotent path). RSS also holds SQLite's page
 * caches (`SQLITE_CACHE_MB` per read connection), which grow with the database, not the body;
 * the heap is where a buffered body would show. Run:
 *   npx tsx bench/import-http.ts                  # SQLite
 *   BENCH_BACKEND=postgres npx tsx bench/import-http.ts
 * Options: BENCH_OFFERS (default 100000).
 */
const root = path.resolve(import.meta.dirname, '..');
const offers = Number(process.env.BENCH_OFFERS ?? 100_000);
const backend = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const file = path.join(os.tmpdir(), `vitrine-import-${offers}.ndjson`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-import-http-'));
const dbName = `vitrine_bench_import_http_${process.pid}`;
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: backend === 'postgres' ? dbUrl.toString() : '',
  LOG_LEVEL: 'warn',
  RATE_LIMITING: 'false',
  USAGE_METERING: 'false',
  IMPORT_MAX_BYTES: String(128 * 1024 * 1024),
};

const vitrine = (args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function heapMiB(port: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  return Number(/^vitrine_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0) / 1024 / 1024;
}

const rssMiB = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
};

function post(port: number, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/offers/import',
        headers: {
          'x-api-key': key,
          'content-type': 'application/x-ndjson',
          'content-length': fs.statSync(file).size,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    fs.createReadStream(file).pipe(request);
  });
}

if (!fs.existsSync(file)) {
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/import-data.ts'), file, String(offers)],
    { stdio: 'inherit' },
  );
}
if (backend === 'postgres') await admin(`CREATE DATABASE ${dbName}`);
const port = await freePort();
let server: ReturnType<typeof spawn> | null = null;
try {
  vitrine(['migrate']);
  const issued = writerKey(vitrine).key;

  server = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/main.ts'), 'serve', '--env', 'testing'],
    {
      env: { ...env, TESTING_PORT: String(port), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const pid = server.pid as number;
  for (let i = 0; ; i += 1) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }

  const run = async (label: string) => {
    const before = rssMiB(pid);
    const heapBefore = await heapMiB(port);
    let peak = before;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const heapSampler = setInterval(() => {
      heapMiB(port).then(
        (h) => {
          heapPeak = Math.max(heapPeak, h);
        },
        () => undefined,
      );
    }, 250);
    const started = performance.now();
    const answer = await post(port, issued.key);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    clearInterval(heapSampler);
    const result = JSON.parse(answer.body) as Record<string, number>;
    const line = {
      backend,
      run: label,
      status: answer.status,
      lines: offers,
      bodyMiB: Number((fs.statSync(file).size / 1024 / 1024).toFixed(1)),
      seconds: Number(seconds.toFixed(2)),
      offersPerSecond: Math.round(offers / seconds),
      created: result.created,
      updated: result.updated,
      unchanged: result.unchanged,
      failed: result.failed,
      rssMiB: { before: Math.round(before), peak: Math.round(peak), after: Math.round(rssMiB(pid)) },
      heapMiB: {
        before: Math.round(heapBefore),
        peak: Math.round(heapPeak),
        after: Math.round(await heapMiB(port)),
      },
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    };
    console.log(JSON.stringify(line));
  };
  await run('first (all created)');
  await run('again (all unchanged)');
} finally {
  server?.kill('SIGTERM');
  if (server) await new Promise((resolve) => server?.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (backend === 'postgres') await admin(`DROP DATABASE IF EXISTS ${dbName}`);
}
