import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server the benches start (bench/run.ts, bench/startup.ts). By default the build a
 * deployment runs: the TypeScript compiled to JavaScript as `npm run build` compiles it for the
 * Dockerfile's image, made once per bench process into bench/.server-build (not the checkout's
 * dist/, which `bin/vitrine.js` would then prefer to the sources). Loading the sources through
 * tsx's loader took 1–2 s more of every start on a 2-core machine (ADR 0059), which no deployment
 * pays. BENCH_SERVER=sources starts src/main.ts through tsx instead, as `npm start` does.
 *
 * Returns the arguments after `node` (Node flags go before them).
 */
export function serverArgs(root: string): string[] {
  if (process.env.BENCH_SERVER === 'sources') return ['--import', 'tsx', path.join(root, 'src/main.ts')];
  if (process.env.BENCH_SERVER !== undefined && process.env.BENCH_SERVER !== 'build')
    throw new Error(`BENCH_SERVER: build or sources, not ${process.env.BENCH_SERVER}`);
  const out = path.join(root, 'bench', '.server-build');
  fs.rmSync(out, { recursive: true, force: true });
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(out, 'dist')], {
    stdio: 'inherit',
  });
  // What the compiled code reads beside itself: the web assets, and the version from package.json.
  fs.cpSync(path.join(root, 'src/web/assets'), path.join(out, 'dist/web/assets'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
  return [path.join(out, 'dist', 'main.js')];
}
