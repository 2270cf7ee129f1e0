import path from 'node:path';
import { buildForTests } from '../test/support/cli-build.js';

/**
 * The server the benches start (bench/run.ts, bench/startup.ts). By default compiled JavaScript,
 * as a deployment runs it: `src/` transpiled one file per file with the layout `npm run build`
 * gives `dist/` (test/support/cli-build.ts, the build the CLI tests run), made once per bench
 * process under node_modules/.cache and removed when it exits (never the checkout's dist/, which
 * `bin/vitrine.js` would then prefer to the sources). Loading the sources through tsx's loader
 * took 1–2 s more of every start on a 2-core machine (ADR 0059), which no deployment pays.
 * BENCH_SERVER=sources starts src/main.ts through tsx instead, as `npm start` does.
 *
 * Resolves to the arguments after `node` (Node flags go before them).
 */
export async function serverArgs(root: string): Promise<string[]> {
  if (process.env.BENCH_SERVER === 'sources') return ['--import', 'tsx', path.join(root, 'src/main.ts')];
  if (process.env.BENCH_SERVER !== undefined && process.env.BENCH_SERVER !== 'build')
    throw new Error(`BENCH_SERVER: build or sources, not ${process.env.BENCH_SERVER}`);
  const { entry, remove } = await buildForTests();
  process.once('exit', remove);
  return [entry];
}
