import { describe, expect, it } from 'vitest';
import { BULK_WRITE_CACHE_MB, forCommands } from './command-config.js';
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

  it("gives serve's SQLite writer a small page cache and the CLI's commands the bulk one, or more when set (ADR 0044), and commands no read workers", () => {
    expect(loadConfig({}).sqliteWriteCacheMb).toBe(16);
    expect(forCommands(loadConfig({})).sqliteWriteCacheMb).toBe(BULK_WRITE_CACHE_MB);
    expect(forCommands(loadConfig({ SQLITE_WRITE_CACHE_MB: '256' })).sqliteWriteCacheMb).toBe(256);
    expect(forCommands(loadConfig({ PORT: '9000' })).port).toBe(9000);
    expect(loadConfig({}).sqliteReadWorkers).toBe(2);
    expect(forCommands(loadConfig({ SQLITE_READ_WORKERS: '4' })).sqliteReadWorkers).toBe(0);
  });

  it('parses given values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@db:5432/vitrine',
      PUBLIC_ORIGIN: 'https://api.example.com',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u:p@db:5432/vitrine',
      publicOrigin: 'https://api.example.com',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
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

  it('trusts no proxy by default, and only listed proxy addresses otherwise (issue 13)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback,fd00::/8' }).trustProxy).toEqual(['loopback', 'fd00::/8']);
    for (const bad of ['true', '1', 'yes', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/2', ',']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
  });

  it('names a bad secret variable without printing its value (issue 13)', () => {
    try {
      loadConfig({
        DATABASE_URL: 'mysql://admin:hunter2-db-password@db/vitrine',
        MASTER_SECRET: 'short-master-secret-value',
        REDIS_URL: 'http://:redis-password@cache',
        PORT: 'eighty',
      });
      expect.unreachable();
    } catch (error) {
      const message = (error as ConfigError).message;
      for (const name of ['DATABASE_URL', 'MASTER_SECRET', 'REDIS_URL']) expect(message).toContain(name);
      for (const secret of ['hunter2-db-password', 'short-master-secret-value', 'redis-password']) {
        expect(message).not.toContain(secret);
      }
      expect(message).toContain('PORT="eighty"');
    }
  });
});
