import { type Result, run, type Scenario } from './load.js';

/**
 * Issue #3: the trivial authenticated route's req/s as a share of the bare route's, on the same
 * server. On a machine shared with other work, two 5-second windows measured one after the
 * other differ by more than the effect (docs/benchmarks.md saw 0.43–0.90 for one build), so
 * this measures both in alternating short rounds (A B, then B A, …) and reports the median of
 * the per-round ratios, with their spread.
 */
export interface OverheadComparison {
  connections: number;
  rounds: number;
  bareRps: number[];
  trivialRps: number[];
  /** trivial ÷ bare of each round. */
  ratios: number[];
  /** Median of `ratios`. */
  ratio: number;
  /**
   * The server's CPU time (user + system) per request, medians over the rounds: steadier than
   * req/s when other work competes for the cores. `cpuRatio` = bare ÷ trivial, the throughput
   * ratio a server-bound, unshared machine would show.
   */
  bareCpuMicros: number | null;
  trivialCpuMicros: number | null;
  cpuRatio: number | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

export async function compareOverhead(options: {
  origin: string;
  bare: Scenario;
  trivial: Scenario;
  connections: number[];
  rounds: number;
  secondsPerRound: number;
  /** CPU time the server process has used so far, in µs (from /proc); absent, not reported. */
  serverCpuMicros?: () => number;
}): Promise<OverheadComparison[]> {
  const out: OverheadComparison[] = [];
  for (const connections of options.connections) {
    const cpu = new Map<Scenario, number[]>([
      [options.bare, []],
      [options.trivial, []],
    ]);
    const measure = async (scenario: Scenario): Promise<Result> => {
      const before = options.serverCpuMicros?.();
      // No warm-up inside the round: it would count in the CPU time but not in the requests.
      const r = await run(options.origin, scenario, {
        connections,
        durationMs: options.secondsPerRound * 1000,
        warmupMs: 0,
      });
      if (r.errors > 0) throw new Error(`${r.errors} errors on ${scenario.name}`);
      const after = options.serverCpuMicros?.();
      if (before !== undefined && after !== undefined) cpu.get(scenario)?.push((after - before) / r.requests);
      return r;
    };
    // One unrecorded round of each: JIT warm-up.
    await measure(options.bare);
    await measure(options.trivial);
    for (const samples of cpu.values()) samples.length = 0;
    const bareRps: number[] = [];
    const trivialRps: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      // Alternate which goes first, so a trend in background load favours neither.
      const order = round % 2 ? [options.trivial, options.bare] : [options.bare, options.trivial];
      const rps = new Map<Scenario, number>();
      for (const scenario of order) rps.set(scenario, (await measure(scenario)).rps);
      const bare = rps.get(options.bare) ?? Number.NaN;
      const trivial = rps.get(options.trivial) ?? Number.NaN;
      bareRps.push(bare);
      trivialRps.push(trivial);
      ratios.push(Number((trivial / bare).toFixed(3)));
    }
    const ratio = Number(median(ratios).toFixed(3));
    const cpuOf = (s: Scenario) => {
      const samples = cpu.get(s) ?? [];
      return samples.length ? Number(median(samples).toFixed(1)) : null;
    };
    const bareCpuMicros = cpuOf(options.bare);
    const trivialCpuMicros = cpuOf(options.trivial);
    const cpuRatio =
      bareCpuMicros !== null && trivialCpuMicros !== null
        ? Number((bareCpuMicros / trivialCpuMicros).toFixed(3))
        : null;
    out.push({
      connections,
      rounds: options.rounds,
      bareRps,
      trivialRps,
      ratios,
      ratio,
      bareCpuMicros,
      trivialCpuMicros,
      cpuRatio,
    });
    process.stderr.write(
      `overhead c=${connections}: bare ${median(bareRps)} req/s, trivial ${median(trivialRps)} req/s, ratio median ${ratio} (rounds ${Math.min(...ratios)}–${Math.max(...ratios)}); server CPU ${bareCpuMicros} vs ${trivialCpuMicros} µs/request (ratio ${cpuRatio})\n`,
    );
  }
  return out;
}
