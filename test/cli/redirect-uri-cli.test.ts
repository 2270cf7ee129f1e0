import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 25: `vitrine projects add-redirect-uri|remove-redirect-uri` (an example app on another
 * port than the demo's needs its destination allowed), with `--json`, audited as `project.update`.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-redirect-cli-'));

function vitrine(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const json = (args: string[]) => {
  const result = vitrine([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
};

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('vitrine projects add-redirect-uri / remove-redirect-uri', () => {
  it('adds and removes one destination, refuses bad ones, and audits each change', () => {
    json(['developers', 'add', '--email', 'ada@example.com']);
    const project = json(['projects', 'add', '--name', 'Shop', '--owner', 'ada@example.com']);
    expect(project.redirectUris).toEqual([]);
    const added = json([
      'projects',
      'add-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'http://localhost:3000/callback',
    ]);
    expect(added.redirectUris).toEqual(['http://localhost:3000/callback']);
    // Adding it again changes nothing.
    expect(
      json([
        'projects',
        'add-redirect-uri',
        '--project',
        project.id,
        '--uri',
        'http://localhost:3000/callback',
      ]).redirectUris,
    ).toEqual(['http://localhost:3000/callback']);

    const insecure = vitrine([
      'projects',
      'add-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'http://shop.example.com/cb',
    ]);
    expect(insecure.status).not.toBe(0);
    expect(insecure.stderr).toMatch(/https/);
    const unknown = vitrine([
      'projects',
      'remove-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'https://nowhere.example.com/',
    ]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('not a redirect URI');

    const removed = json([
      'projects',
      'remove-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'http://localhost:3000/callback',
    ]);
    expect(removed.redirectUris).toEqual([]);
    const updates = json(['audit', 'list', '--action', 'project.update']).entries;
    expect(updates).toHaveLength(3);
    expect(updates[0]).toMatchObject({ actorKind: 'cli', targetType: 'project', targetId: project.id });
  }, 240_000);
});
