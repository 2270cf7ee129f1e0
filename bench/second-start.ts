import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { cpuMicros, rssMb, waitReady } from './server-process.js';

/**
 * Ready time from a snapshot (ADR 0024): a second `vitrine serve --env testing` on the same data,
 * once the first server (which writes its snapshot right after its full build, and waits for
 * that write at shutdown) has exited. Wall ms from spawn to `/readyz` 200, polled every 20 ms;
 * the server's log says whether the testing index came from the snapshot or from the database.
 */
export interface SecondStart {
  readyMs: number;
  cpuSeconds: number | null;
  rssAtReadyMb: number | null;
  /** A snapshot file of the testing environment was there before the start. */
  snapshotFile: boolean;
  /** The testing index was loaded from it (log `search index: loaded snapshot`). */
  fromSnapshot: boolean;
  /** The testing environment's `search index: …` log lines, and any about a snapshot. */
  log: string[];
}

export async function secondStart(options: {
  /** The server's arguments after `node` (server-build.ts). */
  server: readonly string[];
  env: NodeJS.ProcessEnv;
  origin: string;
}): Promise<SecondStart> {
  const dir =
    options.env.SEARCH_SNAPSHOT_DIR || path.join(options.env.DATA_DIR ?? 'data', 'search-snapshots');
  const snapshotFile = fs.existsSync(path.join(dir, 'testing.snapshot'));
  const server = spawn(
    process.execPath,
    [...options.server, 'serve', '--env', 'testing'],
    // Info level for the index's own lines; the only requests are the readiness polls.
    { env: { ...options.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const spawned = performance.now();
  const log: string[] = [];
  let fromSnapshot = false;
  readline.createInterface({ input: server.stdout }).on('line', (line) => {
    let entry: { msg?: string; environment?: string; seconds?: number; caughtUp?: number };
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    const msg = entry.msg ?? '';
    const ours = msg.startsWith('search index') && entry.environment === 'testing';
    if ((!ours && !msg.includes('snapshot')) || msg === 'search index: progress') return;
    if (ours && msg === 'search index: loaded snapshot') fromSnapshot = true;
    log.push(`${msg}${entry.seconds === undefined ? '' : ` (${entry.seconds} s)`}`);
  });
  // 'close': the process has exited and every line of its output has been read.
  const closed = new Promise((resolve) => server.once('close', resolve));
  let ready: Pick<SecondStart, 'readyMs' | 'cpuSeconds' | 'rssAtReadyMb'>;
  try {
    await waitReady(options.origin, 20);
    ready = {
      readyMs: Math.round(performance.now() - spawned),
      cpuSeconds: server.pid ? Math.round(cpuMicros(server.pid) / 10_000) / 100 : null,
      rssAtReadyMb: server.pid ? rssMb(server.pid) : null,
    };
  } finally {
    server.kill('SIGTERM');
    await closed;
  }
  return { ...ready, snapshotFile, fromSnapshot, log };
}
