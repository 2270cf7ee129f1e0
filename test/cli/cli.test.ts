import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteMigrations } from '../../src/db/migrations/sqlite.js';
import { runCommand } from '../support/cli.js';
import { vitrineArgv } from '../support/processes.js';

/**
 * The `vitrine` commands, run in this process (test/support/cli.ts) on a DATA_DIR of their own;
 * the last cases run it as a process, as users do.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-'));

function vitrine(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runCommand(args, { PATH: process.env.PATH, DATA_DIR: dataDir, ...options.env }, options.input);
}

/** The same command as users run it: a process of the built `vitrine`, its streams and exit code. */
function vitrineProcess(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, vitrineArgv(...args), {
    cwd: root,
    input: '',
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function json(args: string[], input?: string) {
  const result = await vitrine([...args, '--json'], { input });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('vitrine CLI', { timeout: 240_000 }, () => {
  it('migrates a fresh database, then reports it up to date', async () => {
    const versions = sqliteMigrations.map((m) => m.version);
    const latest = Math.max(...versions);
    expect(await json(['migrate'])).toEqual({ applied: versions, current: latest });
    expect(await json(['migrate'])).toEqual({ applied: [], current: latest });
  });

  let projectId = '';
  let keyId = '';

  it('adds a developer, reading the password from stdin and storing only its argon2id hash', async () => {
    const password = 'correct horse battery staple';
    const developer = await json(
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

  it('refuses a duplicate developer and an empty stdin password with exit code 2', async () => {
    const dup = await vitrine(['developers', 'add', '--email', 'ada@example.com']);
    expect(dup.status).toBe(2);
    expect(dup.stderr).toContain('already exists');
    const empty = await vitrine(['developers', 'add', '--email', 'bob@example.com', '--password-stdin'], {
      input: '',
    });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('no password on standard input');
  });

  it('adds a project with normalised redirect URIs', async () => {
    const project = await json([
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
    const listed = await json(['projects', 'list', '--owner', 'ada@example.com']);
    expect(listed.projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
  });

  it('refuses an open-redirect-prone URI and an unknown owner', async () => {
    const bad = await vitrine([
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
    const owner = await vitrine(['projects', 'add', '--name', 'X', '--owner', 'nobody@example.com']);
    expect(owner.status).toBe(2);
    expect(owner.stderr).toContain('no developer with email');
  });

  it('issues a key shown once, lists keys without secrets, and revokes', async () => {
    const issued = await json(['keys', 'issue', '--project', projectId, '--env', 'testing']);
    expect(issued.key).toMatch(/^vk_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(issued).toMatchObject({ environment: 'testing', state: 'active', refreshAllowed: false });
    keyId = issued.id;
    const text = await vitrine(['keys', 'issue', '--project', projectId, '--env', 'production']);
    expect(text.stdout).toMatch(/Key \(shown once, store it now\): vk_prod_/);
    const listed = await vitrine(['keys', 'list', '--project', projectId, '--json']);
    expect(listed.stdout).not.toContain(issued.key);
    expect(JSON.parse(listed.stdout).keys).toHaveLength(2);
    expect(await json(['keys', 'revoke', keyId])).toMatchObject({ id: keyId, state: 'revoked' });
  });

  it('grants and withdraws the refresh permission', async () => {
    const issued = await json(['keys', 'issue', '--project', projectId, '--env', 'testing']);
    expect(await json(['keys', 'grant-refresh', issued.id])).toMatchObject({
      id: issued.id,
      refreshAllowed: true,
    });
    expect(await json(['keys', 'revoke-refresh', issued.id])).toMatchObject({
      id: issued.id,
      refreshAllowed: false,
      revokedRefreshTokens: 0,
    });
    expect((await vitrine(['keys', 'grant-refresh', keyId])).stderr).toContain('is revoked');
  });

  it('issues publishable keys with origins and filters, and grants and withdraws offers:write (issue 16)', async () => {
    const pub = await json([
      'keys',
      'issue',
      '--project',
      projectId,
      '--env',
      'testing',
      '--publishable',
      '--origin',
      'https://shop.example',
      '--origin',
      'http://localhost:5173',
      '--filter',
      'category=books',
      '--filter',
      'country=fr',
    ]);
    expect(pub.key).toMatch(/^vk_pub_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(pub).toMatchObject({
      kind: 'publishable',
      scopes: ['search'],
      allowedOrigins: ['https://shop.example', 'http://localhost:5173'],
      fixedFilters: { category: ['books'], country: 'FR' },
    });
    expect((await vitrine(['keys', 'list', '--project', projectId])).stdout).toContain(
      'publishable https://shop.example http://localhost:5173 category=books country=FR',
    );
    const bad = await vitrine([
      'keys',
      'issue',
      '--project',
      projectId,
      '--env',
      'testing',
      '--publishable',
      '--origin',
      'https://*.example',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('without path, query or wildcard');
    expect(
      (
        await vitrine([
          'keys',
          'issue',
          '--project',
          projectId,
          '--env',
          'testing',
          '--origin',
          'https://a.example',
        ])
      ).stderr,
    ).toContain('add --publishable');
    expect((await vitrine(['keys', 'grant-write', pub.id])).stderr).toContain(
      'only secret keys may write offers',
    );
    const secret = await json(['keys', 'issue', '--project', projectId, '--env', 'testing']);
    expect((await json(['keys', 'grant-write', secret.id])).scopes).toEqual([
      'search',
      'auth',
      'api',
      'offers:write',
    ]);
    const audit = await json(['audit', 'list', '--target', secret.id]);
    expect(JSON.stringify(audit)).toContain('key.grant_write');
    expect((await json(['keys', 'revoke-write', secret.id])).scopes).toEqual(['search', 'auth', 'api']);
  });

  it('manages end users: add (password from stdin only), list, set-password, disable', async () => {
    const password = 'end-user-password-1';
    const user = await json(
      ['users', 'add', '--env', 'testing', '--email', 'Eve@Example.com', '--password-stdin'],
      password,
    );
    expect(user).toMatchObject({ environment: 'testing', email: 'eve@example.com', state: 'active' });
    expect(user.id).toMatch(/^usr_/);
    expect(
      (
        await vitrine(
          ['users', 'add', '--env', 'testing', '--email', 'eve@example.com', '--password-stdin'],
          {
            input: password,
          },
        )
      ).stderr,
    ).toContain('already exists');
    expect(
      (
        await vitrine(
          ['users', 'add', '--env', 'testing', '--email', 'short@example.com', '--password-stdin'],
          {
            input: 'short',
          },
        )
      ).status,
    ).toBe(2);
    expect(
      (await vitrine(['users', 'add', '--env', 'testing', '--email', 'argv@example.com', '--password', 'x']))
        .status,
    ).toBe(2);
    // Same email, other environment: a separate account.
    await json(
      ['users', 'add', '--env', 'production', '--email', 'eve@example.com', '--password-stdin'],
      password,
    );
    expect(
      (await json(['users', 'list', '--env', 'testing'])).users.map((u: { email: string }) => u.email),
    ).toEqual(['eve@example.com']);
    expect(
      await json(['users', 'set-password', user.id, '--password-stdin'], 'another-password-2'),
    ).toMatchObject({
      revokedRefreshTokens: 0,
    });
    expect(await json(['users', 'disable', user.id])).toMatchObject({ id: user.id, state: 'disabled' });
    expect((await vitrine(['users', 'disable', 'usr_missing'])).status).toBe(2);
  });

  it('rotates signing keys, keeping the retired one published until its tokens expire', async () => {
    const first = (await json(['signing-keys', 'rotate', '--env', 'testing'])).rotated[0];
    expect(first.id).toMatch(/^sig_/);
    const second = (await json(['signing-keys', 'rotate', '--env', 'testing'])).rotated[0];
    expect(second.retired.kid).toBe(first.id);
    expect(Date.parse(second.retired.unpublishAt) - Date.parse(second.retired.retiredAt)).toBe(
      10 * 3_600_000 + 60_000,
    );
    const listed = (await json(['signing-keys', 'list', '--env', 'testing'])).signingKeys;
    expect(listed.map((k: { kid: string }) => k.kid)).toEqual([second.id, first.id]);
    const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'), { readonly: true });
    const rows = db.prepare('SELECT kid, private_key_sealed FROM signing_keys').all() as {
      kid: string;
      private_key_sealed: string | null;
    }[];
    db.close();
    expect(rows.find((r) => r.kid === first.id)?.private_key_sealed).toBeNull();
    expect(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
  });

  it("sets a key's plan and clears it back to the default", async () => {
    expect(await json(['keys', 'set-plan', keyId, '--rate', '25'])).toEqual({
      id: keyId,
      environment: 'testing',
      rateLimitRps: 25,
    });
    expect((await vitrine(['keys', 'set-plan', keyId, '--rate', '25'])).stdout).toBe(
      `Key ${keyId} may send 25 requests per second.\n`,
    );
    expect((await json(['keys', 'set-plan', keyId, '--default'])).rateLimitRps).toBeNull();
    expect((await vitrine(['keys', 'set-plan', keyId])).status).toBe(2);
    expect((await vitrine(['keys', 'set-plan', keyId, '--rate', '0'])).status).toBe(2);
    expect((await vitrine(['keys', 'set-plan', 'key_missing', '--rate', '5'])).status).toBe(2);
  });

  it('shows the usage of a key per UTC day', async () => {
    const usage = await json(['keys', 'usage', keyId, '--days', '3']);
    expect(usage.id).toBe(keyId);
    expect(usage.days).toHaveLength(3);
    expect(usage.days[2]).toMatchObject({ requests: 0, errors: 0 });
    expect((await vitrine(['keys', 'usage', keyId])).stdout).toMatch(/^DAY\s+REQUESTS\s+ERRORS/);
    expect((await vitrine(['keys', 'usage', 'key_missing'])).status).toBe(2);
  });

  it('refuses bad arguments with exit code 2', async () => {
    expect((await vitrine(['keys', 'issue', '--project', projectId, '--env', 'staging'])).status).toBe(2);
    expect(
      (await vitrine(['keys', 'issue', '--project', 'prj_missing', '--env', 'testing'])).stderr,
    ).toContain('no project');
    expect((await vitrine(['keys', 'revoke', 'key_missing'])).status).toBe(2);
    expect((await vitrine(['seed', '--env', 'testing', '--count', '0'])).status).toBe(2);
  });

  it('seeds deterministically and safely re-runs', async () => {
    expect(await json(['seed', '--env', 'testing', '--count', '30'])).toMatchObject({
      inserted: 30,
      updated: 0,
    });
    expect(await json(['seed', '--env', 'testing', '--count', '40'])).toMatchObject({
      inserted: 10,
      updated: 30,
    });
  });

  it('stops on invalid configuration, naming the variable', async () => {
    const result = await vitrine(['migrate'], { env: { PORT: 'eighty' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('PORT="eighty"');
  });
});

/**
 * What only a process shows: the exit code the shell sees, stdout and stderr apart, and a
 * command ending by itself once its work is done (a handle left open would hang it: spawnSync's
 * timeout then answers status null).
 */
describe('vitrine as a process', { timeout: 120_000 }, () => {
  it('prints its result on stdout and exits 0, by itself', () => {
    const result = vitrineProcess(['keys', 'list', '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('keys');
  });

  it('exits 2 on a usage error and 2 on bad configuration, the reason on stderr only', () => {
    const usage = vitrineProcess(['keys', 'revoke', 'key_missing']);
    expect(usage.status).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toMatch(/^vitrine: /);
    const config = vitrineProcess(['migrate'], { PORT: 'eighty' });
    expect(config.status).toBe(2);
    expect(config.stderr).toContain('PORT="eighty"');
  });

  it('answers --version and --help with exit code 0', () => {
    expect(vitrineProcess(['--version'])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/),
    });
    const help = vitrineProcess(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: vitrine');
  });
});
