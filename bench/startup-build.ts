import fs from 'node:fs';
import os from 'node:os';
import { createIndexReader } from '../src/offers/index-reader.js';
import type { Environment } from '../src/platform/environment.js';
import { createSearchIndex } from '../src/search/index/search-index.js';

/**
 * The start-up build in process (ADR 0022), without HTTP or `serve`: the worker read of
 * offers/index-reader.ts feeding the engine's `upsert` on this thread, as `serve` does.
 *
 *   npx tsx bench/startup-build.ts /path/to/vitrine.db          (SQLite file, read only)
 *   npx tsx bench/startup-build.ts postgres://…/database         (PostgreSQL, read only)
 *
 * Knobs: BENCH_STARTUP_ENV (default `testing`), BENCH_STARTUP_PAGE (rows per page, default the
 * reader's). Prints the wall time, how long the main thread waited for pages (the rest it spent
 * indexing), the main thread's CPU, the process's CPU (every thread) and the load average.
 */
const target = process.argv[2];
if (!target) throw new Error('usage: bench/startup-build.ts <sqlite file | postgres url>');
const environment = (process.env.BENCH_STARTUP_ENV ?? 'testing') as Environment;
const pageSize = process.env.BENCH_STARTUP_PAGE ? Number(process.env.BENCH_STARTUP_PAGE) : undefined;

/** CPU seconds of this process's main thread: /proc/self/task/<pid>/stat, fields 14 and 15. */
function mainThreadCpu(): number {
  const fields =
    fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const reader = createIndexReader(
  /^postgres(ql)?:/.test(target) ? { dialect: 'postgres', url: target } : { dialect: 'sqlite', file: target },
  { pageSize },
);
const index = createSearchIndex();
const loadBefore = os.loadavg();
const mainBefore = mainThreadCpu();
const cpuBefore = process.cpuUsage();
const started = performance.now();
let waited = 0;
let mark = started;
for await (const page of reader(environment)) {
  const now = performance.now();
  waited += now - mark;
  for (const doc of page) index.upsert(doc);
  mark = performance.now();
}
const cpu = process.cpuUsage(cpuBefore);
const round = (n: number) => Number(n.toFixed(2));
process.stdout.write(
  `${JSON.stringify({
    offers: index.size,
    wallSeconds: round((performance.now() - started) / 1000),
    waitedSeconds: round(waited / 1000),
    mainThreadCpuSeconds: round(mainThreadCpu() - mainBefore),
    processCpuSeconds: round((cpu.user + cpu.system) / 1e6),
    loadBefore: loadBefore.map(round),
    loadAfter: os.loadavg().map(round),
  })}\n`,
);
