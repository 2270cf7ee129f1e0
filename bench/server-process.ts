import fs from 'node:fs';

/** The served process as the bench sees it from outside: readiness, CPU time and RSS (Linux /proc). */

/** Until /readyz answers 200: the database answers and the search index is built (up to 5 min at 1M+ offers). */
export async function waitReady(origin: string, everyMs = 100): Promise<void> {
  const until = performance.now() + 300_000;
  while (performance.now() < until) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error('server did not become ready');
}

/** CPU time (user + system) a process has used, in µs: fields 14 and 15 of /proc/<pid>/stat, in clock ticks. */
export function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticksPerSecond = 100; // USER_HZ on Linux
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}
