import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running one module of this code base, type-checked like the rest (issue 14):
 * in the build its compiled `.js`; from the sources (tsx, vitest) its `.ts`, loaded through
 * tsx's loader, which a worker thread does not inherit from its parent. The build never takes
 * the second path, so tsx stays a development dependency.
 */
export function startModuleWorker(module: URL, options: WorkerOptions = {}): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, options);
  const built = builtModule(module);
  if (built) return new Worker(built, options);
  // Resolved here: a worker's eval source would resolve bare specifiers from the working directory.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The module `name` beside the calling module `of` (its `import.meta.url`), in the same form: `.ts` or `.js`. */
export function siblingModule(name: string, of: string): URL {
  return new URL(`./${name}${of.endsWith('.ts') ? '.ts' : '.js'}`, of);
}

/**
 * Where worker modules are taken from a transpiled copy of `src/` instead of through tsx: the test
 * run's build (test/support/cli-build.ts, the same sources esbuild-transpiled one file per file,
 * as its CLI processes run). Starting a worker through tsx's loader cost ~0.3 s, paid by every
 * SQLite test database's read worker (issue 26). Null: through tsx.
 */
let builtSources: { src: string; build: URL } | null = null;

export function useBuiltWorkerModules(src: URL, build: URL | null): void {
  builtSources = build ? { src: src.href, build } : null;
}

function builtModule(module: URL): URL | null {
  if (!builtSources || !module.href.startsWith(builtSources.src)) return null;
  return new URL(module.href.slice(builtSources.src.length).replace(/\.ts$/, '.js'), builtSources.build);
}
