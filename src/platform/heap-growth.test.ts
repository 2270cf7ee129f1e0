import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The heap's peak size in a child process that keeps a live set and churns promoted garbage (as
 * a busy server does), with `boundHeapGrowth(percent)` called first. A child of its own: the flag
 * is process-wide and would change this test process's collections.
 */
function peakHeapMiB(percent: number): number {
  const module = new URL('./heap-growth.ts', import.meta.url).href;
  const script = `
    const { boundHeapGrowth } = await import(${JSON.stringify(module)});
    boundHeapGrowth(${percent});
    globalThis.live = Array.from({ length: 300_000 }, (_, i) => ({ a: i, b: 'x' + i }));
    let peak = 0;
    let kept = [];
    for (let round = 0; round < 400; round += 1) {
      for (let i = 0; i < 10_000; i += 1) kept.push({ s: 'offer ' + i + ' ' + round, n: [i, round] });
      if (kept.length >= 100_000) kept = [];
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    process.stdout.write(String(Math.round(peak / 2 ** 20)));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return Number(out);
}

/** heapUsed in a child process right after `boundHeapGrowth(percent)`, called once a large set died. */
function heapUsedAfterMiB(percent: number): number {
  const module = new URL('./heap-growth.ts', import.meta.url).href;
  const script = `
    const { boundHeapGrowth } = await import(${JSON.stringify(module)});
    // About 100 MiB that lives through collections (promoted, as a build's structures are), then dies.
    let built = Array.from({ length: 1_000_000 }, (_, i) => ({ a: i, b: 'x' + i }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    built = null;
    boundHeapGrowth(${percent});
    process.stdout.write(String(Math.round(process.memoryUsage().heapUsed / 2 ** 20)));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return Number(out);
}

describe('boundHeapGrowth (HEAP_GROWTH_PERCENT)', () => {
  it('collects once when set, so the bound holds from then on and not from the next collection', () => {
    const left = heapUsedAfterMiB(0);
    const collected = heapUsedAfterMiB(25);
    expect(left).toBeGreaterThan(60);
    expect(collected).toBeLessThan(left / 3);
  }, 60_000);

  it('collects before the heap grows far past what is live; 0 leaves V8 its own rule', () => {
    const unbounded = peakHeapMiB(0);
    const bounded = peakHeapMiB(25);
    // Measured: about 210 MiB against 110 MiB.
    expect(bounded).toBeLessThan(0.75 * unbounded);
  }, 60_000);
});
