import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/**
 * Issue 25: `vitrine projects add-redirect-uri|remove-redirect-uri` (an example app on another
 * port than the demo's needs its destination allowed), with `--json`, audited as `project.update`.
 */
const { run: vitrine, json } = vitrineCli('redirect-cli');

describe('vitrine projects add-redirect-uri / remove-redirect-uri', () => {
  it('adds and removes one destination, refuses bad ones, and audits each change', async () => {
    await json(['developers', 'add', '--email', 'ada@example.com']);
    const project = await json(['projects', 'add', '--name', 'Shop', '--owner', 'ada@example.com']);
    expect(project.redirectUris).toEqual([]);
    const added = await json([
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
      (
        await json([
          'projects',
          'add-redirect-uri',
          '--project',
          project.id,
          '--uri',
          'http://localhost:3000/callback',
        ])
      ).redirectUris,
    ).toEqual(['http://localhost:3000/callback']);

    const insecure = await vitrine([
      'projects',
      'add-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'http://shop.example.com/cb',
    ]);
    expect(insecure.status).not.toBe(0);
    expect(insecure.stderr).toMatch(/https/);
    const unknown = await vitrine([
      'projects',
      'remove-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'https://nowhere.example.com/',
    ]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('not a redirect URI');

    const removed = await json([
      'projects',
      'remove-redirect-uri',
      '--project',
      project.id,
      '--uri',
      'http://localhost:3000/callback',
    ]);
    expect(removed.redirectUris).toEqual([]);
    const updates = (await json(['audit', 'list', '--action', 'project.update'])).entries;
    expect(updates).toHaveLength(3);
    expect(updates[0]).toMatchObject({ actorKind: 'cli', targetType: 'project', targetId: project.id });
  }, 240_000);
});
