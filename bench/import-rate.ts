import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { admin, adminUrl } from './postgres-admin.js';

/**
 * Import rate (issue #3: ≥ 20 000 offers/s on SQLite, ≥ 10 000 on PostgreSQL). Writes the seed's
 * offers to an NDJSON file once (bench/import-data.ts), then runs `vitrine import --env testing
 * FILE --json` BENCH_IMPORT_RUNS times (default 3), each into a fresh empty database (a temp
 * DATA_DIR, or a database vitrine_bench_import_<pid> created and dropped on
 * BENCH_POSTGRES_ADMIN_URL), and prints each run's offers/s, the median, the spread and the
 * load average. Run by `BENCH_IMPORT=1 npm run bench` or `npx tsx bench/import-rate.ts`.
 */
const root = path.resolve(import.meta.dirname, '..');
const offers = Number(process.env.BENCH_OFFERS ?? 100_000);
const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const backend = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const file = path.join(os.tmpdir(), `vitrine-import-${offers}.ndjson`);

/** One import into an empty database; the rate is the command's own (`rowsPerSecond`). */
async function importOnce(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-import-'));
  const name = `vitrine_bench_import_${process.pid}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (backend === 'postgres') await admin(`CREATE DATABASE ${name}`);
  try {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/main.ts'), 'import', '--env', 'testing', file, '--json'],
      {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: backend === 'postgres' ? url.toString() : '',
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    return (JSON.parse(out) as { rowsPerSecond: number }).rowsPerSecond;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (backend === 'postgres') await admin(`DROP DATABASE IF EXISTS ${name}`);
  }
}

if (!fs.existsSync(file)) {
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/import-data.ts'), file, String(offers)],
    { stdio: 'inherit' },
  );
}
const rates: number[] = [];
for (let i = 0; i < runs; i += 1) {
  rates.push(await importOnce());
  console.log(`run ${i + 1}: ${rates.at(-1)} offers/s (load average ${os.loadavg()[0]?.toFixed(2)})`);
}
const sorted = [...rates].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
console.log(
  `${backend}, ${offers} offers: median ${median} offers/s, spread ${sorted[0]}–${sorted.at(-1)}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
