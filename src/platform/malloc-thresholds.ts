/**
 * Whether glibc's malloc runs with its dynamic thresholds (issue 26, ADR 0044): on glibc, unless
 * `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` (or their `GLIBC_TUNABLES`) are set. glibc
 * reads them when the process starts, so the server can only say so (docs/deployment.md): left
 * dynamic, the memory of the search index's columns freed as they grow stays with the process.
 */
export function mallocThresholdsDynamic(env: NodeJS.ProcessEnv, glibc: string | undefined): boolean {
  if (glibc === undefined) return false;
  const tunables = env.GLIBC_TUNABLES ?? '';
  const set = (variable: string, tunable: string) =>
    env[variable] !== undefined || tunables.includes(`glibc.malloc.${tunable}=`);
  return !(
    set('MALLOC_MMAP_THRESHOLD_', 'mmap_threshold') && set('MALLOC_TRIM_THRESHOLD_', 'trim_threshold')
  );
}

/** The glibc version this process runs on; undefined on another C library or system. */
export function runtimeGlibc(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}
