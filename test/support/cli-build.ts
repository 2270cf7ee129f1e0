import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Issue 26: the `vitrine` processes the tests start run a transpiled copy of `src/` (esbuild, no
 * bundling: one `.js` per `.ts`, as `npm run build` lays out `dist/`), made once per test run by
 * the global setup, instead of `tsx` compiling the sources again in every process: a process
 * starts about three times faster, which is most of a CLI test's time. The code is the same
 * (type-checked by `npm run typecheck`); what users run (`bin/vitrine.js`, `npm start`) is
 * tested by the serve and terminal tests, which keep tsx.
 */
const root = path.resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The transpiled `main.js` of this run, or null (the build failed: tests fall back to tsx). */
    vitrineEntry: string | null;
  }
}

/** Transpiles `src/` under node_modules/.cache (so packages resolve); returns main.js and a cleanup. */
export async function buildForTests(): Promise<{ entry: string; remove(): void }> {
  const cache = path.join(root, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true }); // absent after a fresh `npm ci`
  const home = fs.mkdtempSync(path.join(cache, 'vitrine-test-build-'));
  const out = path.join(home, 'dist');
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) sources.push(file);
    }
  };
  walk(path.join(root, 'src'));
  await build({
    entryPoints: sources,
    outdir: out,
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  // What the build reads beside its modules: the assets, and ../../package.json (the version).
  fs.cpSync(path.join(root, 'src/web/assets'), path.join(out, 'web/assets'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(home, 'package.json'));
  return {
    entry: path.join(out, 'main.js'),
    remove: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}
