import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../support/cli.js';

/** `vitrine webhooks add|list|remove|rotate-secret|test` with --json (issue 24), in process (test/support/cli.ts). */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-webhooks-cli-'));

function vitrine(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCommand(args, { PATH: process.env.PATH, DATA_DIR: dataDir, ...env });
}

async function json(args: string[], env?: NodeJS.ProcessEnv) {
  const result = await vitrine([...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('vitrine webhooks', { timeout: 120_000 }, () => {
  it('adds, lists, rotates, tests and removes an endpoint; the secret is shown once and stored sealed', async () => {
    await json(['developers', 'add', '--email', 'hooks@example.com']);
    const project = await json(['projects', 'add', '--name', 'Hooks', '--owner', 'hooks@example.com']);
    const allowed = { WEBHOOK_ALLOW_PRIVATE: 'true' };
    const added = await json(
      [
        'webhooks',
        'add',
        ...['--project', project.id, '--env', 'testing', '--url', 'http://127.0.0.1:9/hook'],
        ...['--event', 'key.revoked', '--event', 'key.rolled'],
      ],
      allowed,
    );
    expect(added).toMatchObject({
      environment: 'testing',
      eventTypes: ['key.revoked', 'key.rolled'],
      state: 'enabled',
    });
    expect(added.secret).toMatch(/^whsec_/);
    const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'), { readonly: true });
    const stored = db.prepare('SELECT secret_sealed FROM webhook_endpoints').get() as {
      secret_sealed: string;
    };
    db.close();
    expect(stored.secret_sealed).not.toContain(added.secret.slice(6));

    const listed = await json(['webhooks', 'list', '--project', project.id]);
    expect(listed.data).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const rotated = await json(['webhooks', 'rotate-secret', added.id, '--project', project.id]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    expect((await json(['webhooks', 'test', added.id, '--project', project.id])).messageId).toMatch(/^msg_/);
    expect(await json(['webhooks', 'remove', added.id, '--project', project.id])).toEqual({
      id: added.id,
      removed: true,
    });
    expect((await json(['webhooks', 'list', '--project', project.id])).data).toEqual([]);
  });

  it('refuses a private address without WEBHOOK_ALLOW_PRIVATE, and an unknown endpoint, with exit 2', async () => {
    const projectId = ((await json(['projects', 'list'])).projects as { id: string }[])[0]?.id ?? 'prj_none';
    const refused = await vitrine([
      'webhooks',
      'add',
      ...['--project', projectId, '--env', 'testing', '--url', 'http://169.254.169.254/latest'],
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('169.254.169.254');
    const unknown = await vitrine(['webhooks', 'remove', 'whe_nothing', '--project', projectId]);
    expect(unknown.status).toBe(2);
  });
});
