import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Bounds the JavaScript heap's growth between full collections (issue 26, ADR 0044): past a full
 * collection V8 lets the heap grow by a factor it picks from its collection and allocation
 * speeds, up to 4× what survived on a 64-bit machine with memory to spare. Under a stream of
 * searches (each a few hundred kB of short-lived objects, some promoted) that is hundreds of MB
 * of garbage between collections. A fixed factor of `1 + percent / 100` collects sooner; 0 keeps
 * V8's own rule. V8 reads the flag at each collection, so setting it while running takes effect
 * from the next one, and the limit the last collection set stays until then: one full collection
 * now, so that the bound holds from the start (the search indexes' build left a limit of its own:
 * at 1M offers the heap grew to 384 MiB in the first 100 s of searches before its first full
 * collection after ready).
 */
export function boundHeapGrowth(percent: number): void {
  if (percent <= 0) return;
  v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
  collectGarbage();
}

/**
 * One full collection. Node offers `gc` only with `--expose-gc`; the flag set now gives it to a
 * context made after it (not to the main one).
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
