import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has working defaults for the embedded set-up', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      testingPort: 8081,
      host: '127.0.0.1',
      publicOrigin: 'http://localhost:8080',
      testingPublicOrigin: 'http://localhost:8081',
      keyCacheRefreshMs: 500,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqlitePath).toMatch(/data\/vitrine\.db$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('parses given values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@db:5432/vitrine',
      PUBLIC_ORIGIN: 'https://api.example.com',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u:p@db:5432/vitrine',
      publicOrigin: 'https://api.example.com',
      trustProxy: true,
    });
  });

  it('reports every bad variable at once, by name', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_ORIGIN: 'https://x.com/path',
        KEY_CACHE_REFRESH_MS: '5000',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_ORIGIN', 'KEY_CACHE_REFRESH_MS'])
        expect(problems).toContain(name);
    }
  });
});
