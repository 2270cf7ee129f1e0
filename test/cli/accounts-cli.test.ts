import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/** `vitrine operators set-password|disable` and `vitrine developers disable` (issue 15) as processes. */
const { run: vitrine, json } = vitrineCli('accounts');

describe('account commands', { timeout: 180_000 }, () => {
  it('sets an operator password, disables operators but never the last, disables developers', async () => {
    const ada = await json(
      ['operators', 'add', '--email', 'ada@ops.example', '--password-stdin'],
      'first passphrase ok\n',
    );
    const bob = await json(
      ['operators', 'add', '--email', 'bob@ops.example', '--password-stdin'],
      'first passphrase ok\n',
    );
    expect(
      await json(['operators', 'set-password', ada.id, '--password-stdin'], 'second passphrase ok\n'),
    ).toEqual({ id: ada.id, endedSessions: 0 });
    expect(await json(['operators', 'disable', ada.id])).toEqual({
      id: ada.id,
      disabled: true,
      endedSessions: 0,
    });
    const last = await vitrine(['operators', 'disable', bob.id]);
    expect(last.status).toBe(2);
    expect(last.stderr).toContain('last enabled operator');
    const listed = (await json(['operators', 'list'])).operators;
    expect(listed.find((o: { id: string }) => o.id === ada.id).disabledAt).toEqual(expect.any(String));
    expect(listed.find((o: { id: string }) => o.id === bob.id).disabledAt).toBeNull();

    const dev = await json(['developers', 'add', '--email', 'dee@example.com']);
    expect(await json(['developers', 'disable', dev.id])).toEqual({
      id: dev.id,
      disabled: true,
      endedSessions: 0,
    });
    // keys roll: a new secret printed once, the same key id.
    const project = await json(['projects', 'add', '--name', 'Rolling', '--owner', 'dee@example.com']);
    const issued = await json(['keys', 'issue', '--project', project.id, '--env', 'testing']);
    const rolled = await json(['keys', 'roll', issued.id, '--overlap', '24h']);
    expect(rolled).toMatchObject({ id: issued.id, overlap: '24h', key: expect.stringMatching(/^vk_test_/) });
    expect(rolled.key).not.toBe(issued.key);
    expect((await vitrine(['keys', 'roll', issued.id, '--overlap', '2h'])).status).toBe(2);
    const actions = (await json(['audit', 'list'])).entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['operator.set_password', 'operator.disable', 'developer.disable']),
    );
  });
});
