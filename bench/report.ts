import type { LimitsComparison } from './limits.js';
import type { Result } from './load.js';
import type { OverheadComparison } from './overhead.js';
import { describeProbe, type Probe } from './probe.js';
import type { SecondStart } from './second-start.js';

/** The Markdown report of `npm run bench` (run.ts) on stdout. */

export const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Issue #3's overhead target: the trivial authenticated route's req/s as a share of the bare
 * route's, per connection count, both measured in this run (the machine is shared: only ratios
 * from one run compare).
 */
export function overheadRatios(
  results: Result[],
  connectionsList: number[],
): { connections: number; ratio: number }[] {
  return connectionsList.flatMap((connections) => {
    const bare = results.find((r) => r.name.startsWith('bare') && r.connections === connections);
    const key = results.find((r) => r.name.startsWith('trivial') && r.connections === connections);
    return bare && key ? [{ connections, ratio: round2(key.rps / bare.rps) }] : [];
  });
}

export function table(s: {
  backend: string;
  offers: number;
  importRatePerSecond: number;
  databaseMb: number | null;
  serverRssMb: number | null;
  startupSeconds: number;
  startupCpuSeconds: number | null;
  rssAtReadyMb: number | null;
  loadAverage: { before: number[]; after: number[] };
  overheadSingleWindow: { connections: number; ratio: number }[];
  overhead: OverheadComparison[];
  results: Result[];
  limits: LimitsComparison[];
  limitsMicro: { limitsMicros: number; meterMicros: number } | null;
  probes: Probe[];
  skipped: { id: string; reason: string }[];
  typing: { distinct: number; sent: number } | null;
  snapshotStart: SecondStart | null;
}): string {
  const bare = s.results.find((r) => r.name.startsWith('bare') && r.connections === 1);
  const lines = [
    `${s.backend}, ${s.offers} offers — seed ${s.importRatePerSecond} offers/s, database ${s.databaseMb ?? '?'} MB, server ready in ${s.startupSeconds} s (${s.startupCpuSeconds} s of its CPU) with RSS ${s.rssAtReadyMb} MB, RSS ${s.serverRssMb} MB at the end`,
    '',
    '| scenario | conns | req/s | p50 ms | p95 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|---|',
    ...s.results.map(
      (r) => `| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`,
    ),
  ];
  for (const skipped of s.skipped) lines.push('', `Skipped ${skipped.id}: ${skipped.reason}.`);
  if (s.probes.length > 0)
    lines.push(
      '',
      'Before the load, each new scenario probed once per listed request:',
      '',
      ...s.probes.map((p) => `- ${describeProbe(p)}`),
    );
  if (s.typing)
    lines.push(
      '',
      s.typing.sent <= s.typing.distinct
        ? `Typing: ${s.typing.sent} requests (warm-up included) of ${s.typing.distinct} distinct queries: none repeated.`
        : `Typing: ${s.typing.sent} requests (warm-up included) for ${s.typing.distinct} distinct queries: the list came round again, some were repeated.`,
    );
  if (s.snapshotStart) {
    const r = s.snapshotStart;
    lines.push(
      '',
      `Second start on the same data: ready in ${r.readyMs} ms (${r.cpuSeconds} s of its CPU), RSS ${r.rssAtReadyMb} MB, ${r.fromSnapshot ? 'from the snapshot' : `NOT from a snapshot (${r.snapshotFile ? 'a snapshot file was there' : 'the first server wrote none; ADR 0029: an environment with declared attributes is neither written to nor loaded from a snapshot'}): built from the database`}. Its index log: ${r.log.join('; ') || 'none'}.`,
    );
  }
  if (s.overheadSingleWindow.length > 0)
    lines.push(
      '',
      `Trivial authenticated ÷ bare route req/s, from the table's single windows: ${s.overheadSingleWindow.map((o) => `${o.ratio} at ${o.connections} conn`).join(', ')}.`,
    );
  if (s.overhead.length > 0)
    lines.push(
      '',
      'Trivial authenticated ÷ bare route req/s in alternating rounds (issue #3 target ≥ 0.85):',
      '',
      '| conns | rounds | bare req/s (each round) | trivial req/s (each round) | ratio median | ratio min–max | server CPU µs/req bare / trivial (ratio) |',
      '|---|---|---|---|---|---|---|',
      ...s.overhead.map(
        (o) =>
          `| ${o.connections} | ${o.rounds} | ${o.bareRps.join(', ')} | ${o.trivialRps.join(', ')} | ${o.ratio} | ${Math.min(...o.ratios)}–${Math.max(...o.ratios)} | ${o.bareCpuMicros} / ${o.trivialCpuMicros} (${o.cpuRatio}) |`,
      ),
    );
  lines.push(
    '',
    `Load average (1, 5, 15 min) before ${s.loadAverage.before.join(' ')}, after ${s.loadAverage.after.join(' ')}.`,
  );
  if (s.limitsMicro)
    lines.push(
      '',
      'Rate limiting + usage metering on the trivial authenticated route (median of alternating rounds):',
      '',
      '| limiter | conns | off req/s | on req/s | on/off |',
      '|---|---|---|---|---|',
      ...s.limits.map(
        (l) =>
          `| ${l.redis ? 'Redis' : 'memory'} | ${l.connections} | ${l.offRps.join(', ')} | ${l.onRps.join(', ')} | ${l.ratio} |`,
      ),
      '',
      `In process, without HTTP: limits ${s.limitsMicro.limitsMicros} µs and metering ${s.limitsMicro.meterMicros} µs per request.`,
    );
  if (bare)
    lines.push(
      '',
      `Bare route at 1 connection: ${bare.rps} req/s (the floor the other scenarios compare to).`,
    );
  return lines.join('\n');
}
