import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  resolve: {
    // The SDK is tested from its sources; its package exports point at dist/, built for publishing.
    alias: { '@vitrine/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    pool: 'forks',
    // Issue 26: Vitest's default is one worker fewer than the cores: one file at a time on a 2-core
    // machine, where many files spend much of their time waiting on processes, browsers and
    // PostgreSQL. At least two files at once, the longest first (test/support/sequencer.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
    // Issue 26: a larger young generation in the test processes (V8's default is 16 MiB a half):
    // the engine property files allocate fast, and collecting took a fifth of their CPU, 15 % with
    // this. Test processes only; the processes the tests start keep Node's defaults.
    execArgv: ['--max-semi-space-size=64'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // Tests that need PostgreSQL decide for themselves whether to skip (laptop) or fail (CI=true).
    globalSetup: ['test/support/global-setup.ts'],
    // Worker threads from the run's transpiled build, not through tsx (test/support/worker-build.ts).
    setupFiles: ['test/support/worker-build.ts'],
  },
});
