import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type Result, run, type Scenario } from './load.js';

/**
 * Issue #6: what rate limiting + usage metering cost on the trivial authenticated route. Two
 * servers on the same database, one with `RATE_LIMITING=false USAGE_METERING=false`, measured
 * in alternating rounds (A B A B …) so that noise from other work on a shared machine hits both
 * alike; the ratio of the medians is reported. Target: limits on ≥ 90 % of limits off.
 */
export interface LimitsComparison {
  connections: number;
  rounds: number;
  offRps: number[];
  onRps: number[];
  /** Median on ÷ median off. */
  ratio: number;
  redis: boolean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

export async function compareLimits(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  ports: [number, number];
  scenario: Scenario;
  connections: number[];
  rounds: number;
  secondsPerRound: number;
  waitReady: (origin: string) => Promise<void>;
  redisUrl?: string;
}): Promise<LimitsComparison[]> {
  const start = (port: number, extra: NodeJS.ProcessEnv): ChildProcess =>
    spawn(
      process.execPath,
      ['--import', 'tsx', path.join(options.root, 'src/main.ts'), 'serve', '--env', 'testing'],
      {
        env: { ...options.env, TESTING_PORT: String(port), ...extra },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  const redis = options.redisUrl
    ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `vitrine-bench:${process.pid}:` }
    : {};
  const off = start(options.ports[0], { RATE_LIMITING: 'false', USAGE_METERING: 'false' });
  const on = start(options.ports[1], { RATE_LIMITING: 'true', USAGE_METERING: 'true', ...redis });
  const origins = options.ports.map((p) => `http://127.0.0.1:${p}`) as [string, string];
  const out: LimitsComparison[] = [];
  try {
    await Promise.all(origins.map(options.waitReady));
    for (const connections of options.connections) {
      const offRps: number[] = [];
      const onRps: number[] = [];
      for (let round = 0; round < options.rounds; round += 1) {
        const measure = (origin: string): Promise<Result> =>
          run(origin, options.scenario, {
            connections,
            durationMs: options.secondsPerRound * 1000,
            warmupMs: 300,
          });
        // Alternate which goes first, so a trend in background load favours neither.
        const order = round % 2 ? ([1, 0] as const) : ([0, 1] as const);
        for (const i of order) {
          const r = await measure(origins[i]);
          if (r.errors > 0) throw new Error(`${r.errors} errors on ${i ? 'limits on' : 'limits off'}`);
          (i ? onRps : offRps).push(r.rps);
        }
      }
      const ratio = Number((median(onRps) / median(offRps)).toFixed(3));
      out.push({
        connections,
        rounds: options.rounds,
        offRps,
        onRps,
        ratio,
        redis: Boolean(options.redisUrl),
      });
      process.stderr.write(
        `limits ${options.redisUrl ? '(Redis)' : '(memory)'} c=${connections}: off ${median(offRps)} req/s, on ${median(onRps)} req/s, ratio ${ratio}\n`,
      );
    }
  } finally {
    for (const child of [off, on]) child.kill('SIGTERM');
    await Promise.all(
      [off, on].map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(null)))),
    );
  }
  return out;
}
