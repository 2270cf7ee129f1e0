import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort, type Instance, startInstance } from '../support/processes.js';

/**
 * Issue 13, defect 4: compose.yaml trusted `X-Forwarded-For` from anyone (`TRUST_PROXY=true`
 * with no proxy in front), shipped `METRICS_TOKEN: change-me`, and its image's health check
 * probed `PORT`, so `--env testing` instances were never healthy.
 */
const root = path.resolve(import.meta.dirname, '../..');
const compose = fs.readFileSync(path.join(root, 'compose.yaml'), 'utf8');
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');

describe('compose.yaml defaults', () => {
  it('trusts no forwarded address and ships no default secret', () => {
    const settings = compose.split('\n').filter((line) => !line.trim().startsWith('#'));
    const value = (name: string) =>
      settings.filter((l) => l.trim().startsWith(`${name}:`)).map((l) => l.slice(l.indexOf(':') + 1).trim());
    expect(value('TRUST_PROXY')).toEqual(['"false"']);
    expect(compose).not.toContain('change-me');
    // Every secret comes from the operator's environment and is required (`${VAR:?…}`).
    for (const name of ['METRICS_TOKEN', 'MASTER_SECRET', 'POSTGRES_PASSWORD']) {
      for (const v of value(name)) expect(v, name).toMatch(/^\$\{VITRINE_[A-Z_]+:\?/);
    }
    for (const url of value('DATABASE_URL')) expect(url).toMatch(/:\$\{VITRINE_DB_PASSWORD:\?[^}]*\}@/);
  });
});

describe('the image', () => {
  it("runs the server with glibc's malloc thresholds fixed (ADR 0044)", () => {
    // The runtime stage's ENV: left dynamic, the index's freed columns stay in the process.
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1] ?? '';
    expect(env).toMatch(/\bMALLOC_MMAP_THRESHOLD_=131072\b/);
    expect(env).toMatch(/\bMALLOC_TRIM_THRESHOLD_=131072\b/);
  });
});

/** The Dockerfile's HEALTHCHECK command, run as the container would (exec or shell form). */
function healthcheck(env: NodeJS.ProcessEnv): number | null {
  const cmd = /HEALTHCHECK[^\n]*\\\n\s*CMD (.+)/.exec(dockerfile)?.[1]?.trim() ?? '';
  expect(cmd).not.toBe('');
  const argv: string[] = cmd.startsWith('[') ? JSON.parse(cmd) : ['sh', '-c', cmd];
  const [command = '', ...args] = argv;
  const run = spawnSync(command === 'node' ? process.execPath : command, args, {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    timeout: 20_000,
  });
  return run.status;
}

describe('the image health check', { timeout: 120_000 }, () => {
  let instance: Instance;
  let testingPort: string;
  let idlePort: string;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-health-'));
    instance = await startInstance({ DATA_DIR: dataDir });
    testingPort = new URL(instance.origin).port;
    idlePort = String(await freePort());
  });
  afterAll(async () => {
    await instance.stop();
  });

  it('reports a --env testing instance healthy, and nothing listening as unhealthy', () => {
    expect(healthcheck({ PORT: idlePort, TESTING_PORT: testingPort })).toBe(0);
    expect(healthcheck({ PORT: idlePort, TESTING_PORT: idlePort })).toBe(1);
  });
});

describe('TRUST_PROXY', () => {
  const seen = (t: TestContext, marker: string) =>
    t.logs
      .filter((l) => l.includes(marker) && l.includes('incoming request'))
      .map((l) => JSON.parse(l).req.remoteAddress as string);
  let plain: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    plain = await createTestContext('sqlite', {}, { environments: ['testing'] });
    proxied = await createTestContext(
      'sqlite',
      { TRUST_PROXY: '198.51.100.7' },
      { environments: ['testing'] },
    );
  });
  afterAll(async () => {
    await plain.close();
    await proxied.close();
  });

  const call = (t: TestContext, marker: string, remoteAddress: string) =>
    t.apps.testing.inject({
      url: `/healthz?m=${marker}`,
      remoteAddress,
      headers: { 'x-forwarded-for': '203.0.113.66' },
    });

  it('is off by default: a client cannot choose its address with X-Forwarded-For', async () => {
    await call(plain, 'plain1', '192.0.2.10');
    expect(seen(plain, 'plain1')).toEqual(['192.0.2.10']);
  });

  it('believes X-Forwarded-For only from the listed proxies', async () => {
    await call(proxied, 'via-proxy', '198.51.100.7');
    await call(proxied, 'direct', '192.0.2.10');
    expect(seen(proxied, 'via-proxy')).toEqual(['203.0.113.66']);
    expect(seen(proxied, 'direct')).toEqual(['192.0.2.10']);
  });
});
