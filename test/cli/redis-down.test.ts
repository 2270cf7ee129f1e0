import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vitrineArgv } from '../support/processes.js';

/**
 * Issue 13, defect 3: with `REDIS_URL` set and Redis down, every CLI command hung silently, and
 * `keys issue` created a live key whose secret was never shown. Redis is optional at every entry
 * point: the command warns on stderr, goes on (the database poll covers revocation) and exits.
 * A hang shows as a killed process (status null), not as a timed assertion.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-redis-down-'));
let redisUrl = '';
/** A port that accepts connections and never answers: a Redis that hangs rather than refuses. */
let silent: net.Server;
let silentUrl = '';

function vitrine(args: string[], url = redisUrl) {
  const result = spawnSync(process.execPath, vitrineArgv(...args), {
    cwd: root,
    input: '',
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, REDIS_URL: url },
    encoding: 'utf8',
    timeout: 45_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  // A port nobody listens on: bind, note it, close.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  redisUrl = `redis://127.0.0.1:${port}`;
  silent = net.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `redis://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the CLI with Redis down', { timeout: 180_000 }, () => {
  it('issues a key and shows it, warning that Redis is unreachable', () => {
    expect(vitrine(['developers', 'add', '--email', 'ada@example.com', '--name', 'Ada']).status).toBe(0);
    const project = vitrine([
      'projects',
      'add',
      '--name',
      'P',
      '--owner',
      'ada@example.com',
      '--redirect-uri',
      'https://app.example.com/cb',
      '--json',
    ]);
    expect(project.status, project.stderr).toBe(0);
    const projectId = JSON.parse(project.stdout).id;
    for (const url of [redisUrl, silentUrl]) {
      const issued = vitrine(['keys', 'issue', '--project', projectId, '--env', 'testing', '--json'], url);
      expect(issued.status, issued.stderr).toBe(0);
      expect(JSON.parse(issued.stdout).key).toMatch(/^vk_test_/);
      expect(issued.stderr).toMatch(/Redis/);
      const revoked = vitrine(['keys', 'revoke', JSON.parse(issued.stdout).id, '--json'], url);
      expect(revoked.status, revoked.stderr).toBe(0);
    }
  });
});
