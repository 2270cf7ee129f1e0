import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Tests that need PostgreSQL decide for themselves whether to skip (laptop) or fail (CI=true).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
