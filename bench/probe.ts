import type { Scenario } from './load.js';

/**
 * Before the load: a few requests of each new scenario (bench/catalogue.ts), each once, to show
 * that the scenario measures answers and not refusals: how many answered 200, how many found
 * something (a search's `total`, facet-value search's values), one total as a sample, and the
 * first refusal's problem code. Reported on stderr and in the results file.
 */
export interface Probe {
  id: string;
  requests: number;
  ok: number;
  /** Answered 200 with a total above 0 (facet-value search: at least one value). */
  withResults: number;
  /** Answers per HTTP status. */
  statuses: Record<string, number>;
  sample: { path: string; total: number } | null;
  /** The first non-200 answer: status, code and detail of its problem. */
  refusal: string | null;
}

/** Up to `count` paths of `paths`, spread over the list (or its last ones: see run.ts's typing). */
export function spread(paths: string[], count: number): string[] {
  const step = Math.max(1, Math.floor(paths.length / count));
  return paths.filter((_, i) => i % step === 0).slice(0, count);
}

function found(body: { total?: { value?: number }; values?: { count: number }[] }): number {
  if (body.values) return body.values.reduce((n, v) => n + v.count, 0);
  return body.total?.value ?? 0;
}

export async function probe(
  origin: string,
  id: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<Probe> {
  const result: Probe = { id, requests: 0, ok: 0, withResults: 0, statuses: {}, sample: null, refusal: null };
  for (const path of paths) {
    const res = await fetch(`${origin}${path}`, { headers });
    result.requests += 1;
    result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
    if (res.status !== 200) {
      if (!result.refusal) {
        const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
        result.refusal = `${res.status} ${problem.code ?? ''}: ${problem.detail ?? ''} (${path})`;
      } else await res.arrayBuffer();
      continue;
    }
    result.ok += 1;
    const total = found((await res.json()) as Parameters<typeof found>[0]);
    if (total > 0) {
      result.withResults += 1;
      result.sample ??= { path, total };
    }
  }
  return result;
}

export function describeProbe(p: Probe): string {
  const sample = p.sample ? `; e.g. ${p.sample.total} for ${p.sample.path}` : '';
  const refused = p.refusal ? `; first refusal ${p.refusal}` : '';
  return `probe ${p.id}: ${p.ok}/${p.requests} answered 200, ${p.withResults} found something${sample}${refused}`;
}

/**
 * Issue 23's scenarios, each probed before the load (bench/probe.ts). `distinct` is skipped, with
 * the reason in the report, while the server refuses `distinct=publisher` (400): the bench runs
 * before and after the parameter lands.
 */
export async function probeCatalogue(
  origin: string,
  scenarios: (Scenario & { id: string })[],
  headers: Record<string, string>,
): Promise<{ probes: Probe[]; skipped: { id: string; reason: string }[] }> {
  const count = Number(process.env.BENCH_PROBE ?? 20);
  const probes: Probe[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const scenario of scenarios) {
    // Typing's last queries: its load starts at the first and never comes round to them.
    const paths = scenario.id === 'typing' ? scenario.paths.slice(-count) : spread(scenario.paths, count);
    const result = await probe(origin, scenario.id, paths, headers);
    process.stderr.write(`${describeProbe(result)}\n`);
    probes.push(result);
    if (scenario.id === 'distinct' && result.statuses[400] === result.requests) {
      skipped.push({
        id: 'distinct',
        reason: `the server answers 400 to distinct=publisher (${result.refusal}): not built in this version`,
      });
      process.stderr.write('distinct: skipped, the server refuses distinct=publisher\n');
    }
  }
  return { probes, skipped };
}
