import fs from 'node:fs';
import { createIndexReader } from '../src/offers/index-reader.js';
import type { Environment } from '../src/platform/environment.js';
import { DEFAULT_TUNING } from '../src/search/columns/tuning.js';
import { createSearchIndex, type Index } from '../src/search/index/search-index.js';
import { captureIndex, readIndex, writeIndex } from '../src/search/snapshot/snapshot.js';
import { snapshotHeader } from '../src/search/snapshot/snapshot-header.js';
import { openSnapshot, writeAtomically } from '../src/search/snapshot/snapshot-io.js';

/**
 * The search-index snapshot in process (ADR 0024), without HTTP or `serve`:
 *
 *   npx tsx bench/snapshot.ts write <sqlite file | postgres url> <snapshot file>
 *   npx tsx bench/snapshot.ts load <snapshot file>         (also a server's: read only)
 *
 * `write` builds the index as a start does (the worker read), then writes it while a 1 ms timer
 * runs: prints the write's wall time, size, the longest gap between timer ticks (the longest
 * the event loop was blocked) and the peak RSS. `load` (another process: its RSS is the load's)
 * reads it back: wall time, offers, peak RSS.
 */
const [mode, a, b] = process.argv.slice(2);
const round = (n: number) => Number(n.toFixed(2));
const mb = (n: number) => Math.round(n / 2 ** 20);

/** Samples the event loop's longest block and the peak RSS while `work` runs. */
async function watched<T>(
  work: () => Promise<T>,
): Promise<{ value: T; seconds: number; longestBlockMs: number; peakRssMb: number }> {
  let longest = 0;
  let peak = process.memoryUsage.rss();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 1);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      seconds: round((performance.now() - started) / 1000),
      longestBlockMs: round(longest),
      peakRssMb: mb(peak),
    };
  } finally {
    clearInterval(timer);
  }
}

if (mode === 'write' && a && b) {
  const reader = createIndexReader(
    /^postgres(ql)?:/.test(a) ? { dialect: 'postgres', url: a } : { dialect: 'sqlite', file: a },
  );
  const index = createSearchIndex() as Index;
  const built = performance.now();
  for await (const page of reader((process.env.BENCH_STARTUP_ENV ?? 'testing') as Environment))
    for (const doc of page) index.upsert(doc);
  index.compact();
  const buildSeconds = round((performance.now() - built) / 1000);
  const rssBeforeMb = mb(process.memoryUsage.rss());
  const capture = captureIndex(index);
  const run = await watched(() =>
    writeAtomically(b, async (writer) => {
      await writer.json(snapshotHeader(capture, { environment: 'testing', databaseId: 'bench', applied: 0 }));
      await writeIndex(writer, index, capture);
    }),
  );
  process.stdout.write(
    `${JSON.stringify({ mode, offers: index.size, buildSeconds, rssBeforeMb, writeSeconds: run.seconds, megabytes: mb(run.value), longestBlockMs: run.longestBlockMs, peakRssMb: run.peakRssMb })}\n`,
  );
} else if (mode === 'load' && a) {
  const run = await watched(async () => {
    const { reader, close } = await openSnapshot(a);
    try {
      await reader.json(); // the header
      return await readIndex(reader, DEFAULT_TUNING);
    } finally {
      await close();
    }
  });
  process.stdout.write(
    `${JSON.stringify({ mode, offers: run.value.size, loadSeconds: run.seconds, megabytes: mb(fs.statSync(a).size), longestBlockMs: run.longestBlockMs, peakRssMb: run.peakRssMb })}\n`,
  );
} else {
  throw new Error('usage: bench/snapshot.ts write <sqlite file | postgres url> <file> | load <file>');
}
