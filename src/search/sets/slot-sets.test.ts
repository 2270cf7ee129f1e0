import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Bytes of ArrayBuffers that writing to 10 000 value sets, and to the grid cells of 10 000 points,
 * allocates once each was built (`trim`). In a child process collected first: a collection of
 * other garbage while it runs (a test runner's) would hide what it allocates.
 */
function bytesAfterBuild(): { sets: number; grid: number; set: number[] } {
  const sets = new URL('./slot-sets.ts', import.meta.url).href;
  const grid = new URL('./geo-grid.ts', import.meta.url).href;
  const script = `
    const { ValueSets } = await import(${JSON.stringify(sets)});
    const { GeoGrid } = await import(${JSON.stringify(grid)});
    const bytes = (run) => {
      globalThis.gc();
      const before = process.memoryUsage().arrayBuffers;
      run();
      return process.memoryUsage().arrayBuffers - before;
    };
    const values = new ValueSets();
    values.add(0, 0);
    values.trim();
    const onSets = bytes(() => {
      for (let id = 0; id < 10_000; id += 1) values.add(id, 20_000 + id);
    });
    const cells = new GeoGrid();
    const at = (i) => [48 + (i % 100) * 0.004, 2 + Math.floor(i / 100) * 0.004];
    cells.add(0, ...at(0));
    cells.trim();
    const onGrid = bytes(() => {
      for (let i = 0; i < 10_000; i += 1) cells.add(20_000 + i, ...at(i));
    });
    process.stdout.write(JSON.stringify({ sets: onSets, grid: onGrid, set: values.get(0).toArray() }));
  `;
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  return JSON.parse(out);
}

describe('sets once built (issue 26)', () => {
  it('take a slot added after trim into its bitmap at once, keeping no batch buffer per set or grid cell', () => {
    const { sets, grid, set } = bytesAfterBuild();
    // Before: a 64-slot Uint32Array kept for each set written after the build (2.6 MB here), and
    // a 32-slot one for each cell and fine cell (0.8 MB).
    expect(sets).toBeLessThan(100_000);
    expect(grid).toBeLessThan(100_000);
    expect(set).toEqual([0, 20_000]);
  }, 60_000);
});
