import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

/** The `vitrine` command as users run it: a process, its stdout, stderr and exit code. */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-'));

function vitrine(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    input: options.input ?? '',
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(args: string[], input?: string) {
  const result = vitrine([...args, '--json'], { input });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('vitrine CLI', () => {
  it('migrates a fresh database, then reports it up to date', () => {
    expect(json(['migrate'])).toEqual({ applied: [1, 2, 10], current: 10 });
    expect(json(['migrate'])).toEqual({ applied: [], current: 10 });
  });

  let projectId = '';
  let keyId = '';

  it('adds a developer, reading the password from stdin and storing only its argon2id hash', () => {
    const password = 'correct horse battery staple';
    const developer = json(
      ['developers', 'add', '--email', 'Ada@Example.com', '--name', 'Ada', '--password-stdin'],
      `${password}\n`,
    );
    expect(developer).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    expect(developer.id).toMatch(/^dev_/);
    const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'), { readonly: true });
    const row = db.prepare('SELECT password_hash FROM developers WHERE id = ?').get(developer.id) as {
      password_hash: string;
    };
    db.close();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(password);
  });

  it('refuses a duplicate developer and an empty stdin password with exit code 2', () => {
    const dup = vitrine(['developers', 'add', '--email', 'ada@example.com']);
    expect(dup.status).toBe(2);
    expect(dup.stderr).toContain('already exists');
    const empty = vitrine(['developers', 'add', '--email', 'bob@example.com', '--password-stdin'], {
      input: '',
    });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('no password on standard input');
  });

  it('adds a project with normalised redirect URIs', () => {
    const project = json([
      'projects',
      'add',
      '--name',
      'Shop app',
      '--owner',
      'ada@example.com',
      '--redirect-uri',
      'https://App.Example.com:443/cb',
      '--redirect-uri',
      'http://localhost:3000/cb',
    ]);
    expect(project.id).toMatch(/^prj_/);
    expect(project.redirectUris).toEqual(['https://app.example.com/cb', 'http://localhost:3000/cb']);
    projectId = project.id;
    const listed = json(['projects', 'list', '--owner', 'ada@example.com']);
    expect(listed.projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
  });

  it('refuses an open-redirect-prone URI and an unknown owner', () => {
    const bad = vitrine([
      'projects',
      'add',
      '--name',
      'X',
      '--owner',
      'ada@example.com',
      '--redirect-uri',
      'http://evil.example/cb',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('must use https');
    const owner = vitrine(['projects', 'add', '--name', 'X', '--owner', 'nobody@example.com']);
    expect(owner.status).toBe(2);
    expect(owner.stderr).toContain('no developer with email');
  });

  it('issues a key shown once, lists keys without secrets, and revokes', () => {
    const issued = json(['keys', 'issue', '--project', projectId, '--env', 'testing']);
    expect(issued.key).toMatch(/^vk_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(issued).toMatchObject({ environment: 'testing', state: 'active', refreshAllowed: false });
    keyId = issued.id;
    const text = vitrine(['keys', 'issue', '--project', projectId, '--env', 'production']);
    expect(text.stdout).toMatch(/Key \(shown once, store it now\): vk_prod_/);
    const listed = vitrine(['keys', 'list', '--project', projectId, '--json']);
    expect(listed.stdout).not.toContain(issued.key);
    expect(JSON.parse(listed.stdout).keys).toHaveLength(2);
    expect(json(['keys', 'revoke', keyId])).toMatchObject({ id: keyId, state: 'revoked' });
  });

  it('refuses bad arguments with exit code 2', () => {
    expect(vitrine(['keys', 'issue', '--project', projectId, '--env', 'staging']).status).toBe(2);
    expect(vitrine(['keys', 'issue', '--project', 'prj_missing', '--env', 'testing']).stderr).toContain(
      'no project',
    );
    expect(vitrine(['keys', 'revoke', 'key_missing']).status).toBe(2);
    expect(vitrine(['seed', '--env', 'testing', '--count', '0']).status).toBe(2);
  });

  it('seeds deterministically and safely re-runs', () => {
    expect(json(['seed', '--env', 'testing', '--count', '30'])).toMatchObject({ inserted: 30, updated: 0 });
    expect(json(['seed', '--env', 'testing', '--count', '40'])).toMatchObject({ inserted: 10, updated: 30 });
  });

  it('stops on invalid configuration, naming the variable', () => {
    const result = vitrine(['migrate'], { env: { PORT: 'eighty' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('PORT="eighty"');
  });
});
