import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { toOfferRecord } from '../src/offers/offer-record.js';
import { generateOffers } from '../src/offers/seed.js';
import { IMAGE_MALLOC, writerKey } from './soak-server.js';

/**
 * What the writer's page cache costs an HTTP import (issue 26, ADR 0044; ADR 0012 sized it for
 * bulk CLI loads): one SQLite database seeded with BENCH_OFFERS offers (default 1M), then for each
 * size of BENCH_WRITE_CACHES (MiB, default `64,16,8`, each BENCH_ROUNDS times, interleaved) a
 * fresh process on a copy of it imports BENCH_IMPORT new offers (default 20 000) through the HTTP
 * import's service (`POST /v1/offers/import` without HTTP: 2 000 offers a transaction, no search
 * index), with the image's malloc thresholds. Reports the process's CPU and wall time for the
 * import and its main malloc heap (`[heap]`, where the writer's cache lives) before and after.
 *   npx tsx bench/import-write-cache.ts
 */
const root = path.resolve(import.meta.dirname, '..');
const [child, childDir, childMb, childCount] = process.argv.slice(2);

if (child === '--child') {
  const count = Number(childCount);
  process.env.DATA_DIR = childDir;
  process.env.SQLITE_WRITE_CACHE_MB = childMb;
  process.env.IMPORT_MAX_BYTES = String(256 * 2 ** 20);
  process.env.LOG_LEVEL = 'warn';
  const [{ loadConfig }, { createDeps }, { createLogger }, { systemClock }] = await Promise.all([
    import('../src/config/config.js'),
    import('../src/deps.js'),
    import('../src/http/logger.js'),
    import('../src/platform/clock.js'),
  ]);
  const deps = createDeps(loadConfig(), {
    clock: systemClock,
    logger: createLogger({ level: 'warn', stream: process.stderr }),
  });
  const projectId = fs.readFileSync(path.join(childDir as string, 'project-id'), 'utf8');
  const lines = [...generateOffers({ count, seed: 2601 })].map((offer, i) =>
    JSON.stringify({ ...toOfferRecord(offer), externalId: `soak-${i}`, status: 'active', expiresAt: null }),
  );
  const body = Readable.from(
    (function* () {
      for (let i = 0; i < lines.length; i += 500) yield `${lines.slice(i, i + 500).join('\n')}\n`;
    })(),
  );
  const brk = () =>
    Number(
      /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/smaps', 'utf8'))?.[1] ?? 0,
    ) / 1024;
  const brkBefore = brk();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await deps.offerImports.importNdjson({ environment: 'testing', projectId, body });
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  const brkAfter = brk();
  await deps.close();
  console.log(
    JSON.stringify({
      writeCacheMb: Number(childMb),
      created: result.created,
      cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
      wallSeconds: Number(wall.toFixed(2)),
      offersPerSecond: Math.round(count / wall),
      brkMiB: [Math.round(brkBefore), Math.round(brkAfter)],
      load: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    }),
  );
  process.exit(0);
}

const seeded = Number(process.env.BENCH_OFFERS ?? 1_000_000);
const importCount = Number(process.env.BENCH_IMPORT ?? 20_000);
const sizes = (process.env.BENCH_WRITE_CACHES ?? '64,16,8').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const template = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-write-cache-'));
const env = { ...IMAGE_MALLOC, ...process.env, DATA_DIR: template, DATABASE_URL: '', LOG_LEVEL: 'warn' };
const vitrine = (args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
try {
  vitrine(['migrate']);
  vitrine(['seed', '--env', 'testing', '--count', String(seeded), '--json']);
  fs.writeFileSync(path.join(template, 'project-id'), writerKey(vitrine).projectId);
  for (let round = 0; round < rounds; round += 1) {
    for (const mb of sizes) {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-write-cache-run-'));
      try {
        fs.cpSync(template, copy, { recursive: true });
        const out = execFileSync(
          process.execPath,
          ['--import', 'tsx', import.meta.filename, '--child', copy, String(mb), String(importCount)],
          { env: { ...env, DATA_DIR: copy }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
        );
        process.stdout.write(out);
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    }
  }
} finally {
  fs.rmSync(template, { recursive: true, force: true });
}
