import { Agent, request } from 'undici';

/**
 * A closed-loop load generator: `connections` workers each send the next request as soon as the
 * previous answer arrived, for `durationMs`. Runs in the bench process, never in the server's.
 */
export interface Scenario {
  name: string;
  /** Paths to cycle through (a fixed, seeded mix). */
  paths: string[];
  headers?: Record<string, string>;
  /**
   * Where the next run continues the list, shared by every run of the scenario: a list of
   * never-repeated requests stays so across connection counts. Absent: each run starts over.
   */
  position?: { next: number };
}

export interface Result {
  name: string;
  connections: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function run(
  origin: string,
  scenario: Scenario,
  options: { connections: number; durationMs: number; warmupMs: number },
): Promise<Result> {
  const agent = new Agent({ connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const position = scenario.position ?? { next: 0 };
  const worker = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const path = scenario.paths[position.next++ % scenario.paths.length] ?? '/';
      const started = performance.now();
      const res = await request(`${origin}${path}`, { dispatcher: agent, headers: scenario.headers });
      await res.body.dump();
      const elapsed = performance.now() - started;
      if (!record) continue;
      if (res.statusCode !== 200) errors += 1;
      latencies.push(elapsed);
    }
  };
  const warm = performance.now() + options.warmupMs;
  await Promise.all(Array.from({ length: options.connections }, () => worker(warm, false)));
  const started = performance.now();
  const until = started + options.durationMs;
  await Promise.all(Array.from({ length: options.connections }, () => worker(until, true)));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    name: scenario.name,
    connections: options.connections,
    requests: latencies.length,
    errors,
    rps: Math.round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? Number.NaN),
  };
}
