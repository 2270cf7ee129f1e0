import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/** Issue 27: `vitrine users|developers|operators reset-link ID` as a process, `--json` and text. */
const { run: vitrine, json } = vitrineCli('reset-link', { PUBLIC_ORIGIN: 'https://vitrine.example' });

describe('reset-link commands', { timeout: 180_000 }, () => {
  it('prints a single-use link for a user, a developer and an operator; refuses an unknown id', async () => {
    const user = await json(
      ['users', 'add', '--env', 'production', '--email', 'u@example.com', '--password-stdin'],
      'user password 123\n',
    );
    const dev = await json(['developers', 'add', '--email', 'd@example.com']);
    const ops = await json(
      ['operators', 'add', '--email', 'o@example.com', '--password-stdin'],
      'operator pass 123\n',
    );

    const forUser = await json(['users', 'reset-link', user.id]);
    expect(forUser).toMatchObject({
      kind: 'user',
      id: user.id,
      email: 'u@example.com',
      environment: 'production',
    });
    expect(forUser.link).toMatch(/^https:\/\/vitrine\.example\/auth\/reset\?token=[\w-]{43}$/);
    expect((await json(['developers', 'reset-link', dev.id])).link).toMatch(
      /^https:\/\/vitrine\.example\/portal\/reset\?token=/,
    );
    const text = await vitrine(['operators', 'reset-link', ops.id]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /Reset link for o@example\.com .*\nhttps:\/\/vitrine\.example\/console\/reset\?token=/,
    );

    const unknown = await vitrine(['users', 'reset-link', 'usr_nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('usr_nope');
    // Two-factor for an end user from the CLI: enrol, confirm with the app's code, reset.
    const enrolment = await json(['users', 'two-factor-enrol', user.id]);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
    const code = generateSync({ secret: enrolment.secret });
    const confirmed = await json(['users', 'two-factor-confirm', user.id, '--code', code]);
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(await json(['users', 'two-factor-reset', user.id])).toEqual({ id: user.id, removed: true });
    expect(await json(['operators', 'two-factor-reset', ops.id])).toEqual({ id: ops.id, removed: false });

    const actions = (await json(['audit', 'list'])).entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'user.reset_link',
        'developer.reset_link',
        'operator.reset_link',
        'user.2fa_enrol',
        'user.2fa_reset',
      ]),
    );
  });
});
