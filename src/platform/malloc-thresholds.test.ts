import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mallocThresholdsDynamic, runtimeGlibc } from './malloc-thresholds.js';

describe('glibc malloc thresholds', () => {
  it('are dynamic on glibc unless both are set, by variable or tunable', () => {
    expect(mallocThresholdsDynamic({}, '2.36')).toBe(true);
    expect(mallocThresholdsDynamic({ MALLOC_MMAP_THRESHOLD_: '131072' }, '2.36')).toBe(true);
    expect(
      mallocThresholdsDynamic({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' }, '2.36'),
    ).toBe(false);
    expect(
      mallocThresholdsDynamic(
        { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072' },
        '2.36',
      ),
    ).toBe(false);
  });

  it('are no concern on another C library', () => {
    expect(mallocThresholdsDynamic({}, undefined)).toBe(false);
  });

  it('reads the running glibc from the process report', () => {
    // glibc's C library is mapped into this process as libc.so.6 (musl's is ld-musl-*.so.1).
    const onGlibc =
      process.platform === 'linux' && fs.readFileSync('/proc/self/maps', 'utf8').includes('/libc.so.6');
    if (onGlibc) expect(runtimeGlibc()).toMatch(/^\d+\.\d+/);
    else expect(runtimeGlibc()).toBeUndefined();
  });
});
