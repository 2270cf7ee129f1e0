import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The SDK is tested from its sources; its package exports point at dist/, built for publishing.
    alias: { '@vitrine/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // Tests that need PostgreSQL decide for themselves whether to skip (laptop) or fail (CI=true).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
