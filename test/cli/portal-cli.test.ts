import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/**
 * CLI parity with the console (SPEC §4, §10; issue 5): operators, applications and the audit
 * log as commands with --json, and the key commands writing audit entries too.
 */
const { run: vitrine, json, dataDir } = vitrineCli('portal-cli');

/** Inserts a pending application as the portal would (the CLI has no "apply": developers do that). */
function pendingApplication(projectId: string, environment: string): string {
  const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'));
  const id = `app_${Math.random().toString(36).slice(2, 12)}`;
  db.prepare(
    "INSERT INTO key_applications (id, project_id, environment, wants_refresh, refresh_reason, state, created_at) VALUES (?, ?, ?, 1, 'sync', 'pending', ?)",
  ).run(id, projectId, environment, Date.now());
  db.close();
  return id;
}

describe('vitrine CLI: operators, applications, audit', { timeout: 120_000 }, () => {
  let projectId = '';

  it('adds an operator from stdin, storing only an argon2id hash; refuses a password in argv', async () => {
    const password = 'operator secret 42';
    const operator = await json(
      ['operators', 'add', '--email', 'Ops@Example.com', '--password-stdin'],
      `${password}\n`,
    );
    expect(operator).toMatchObject({ email: 'ops@example.com' });
    expect(operator.id).toMatch(/^opr_/);
    const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'), { readonly: true });
    const row = db.prepare('SELECT password_hash FROM operators WHERE id = ?').get(operator.id) as {
      password_hash: string;
    };
    db.close();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const without = await vitrine(['operators', 'add', '--email', 'x@example.com']);
    expect(without.status).toBe(2);
    expect((await json(['operators', 'list'])).operators).toHaveLength(1);
  });

  it('approves and rejects applications, with JSON output', async () => {
    await json(['developers', 'add', '--email', 'dev@example.com']);
    projectId = (await json(['projects', 'add', '--name', 'P', '--owner', 'dev@example.com'])).id;
    const approveId = pendingApplication(projectId, 'production');
    const rejectId = pendingApplication(projectId, 'production');
    const pending = (await json(['applications', 'list', '--state', 'pending'])).applications;
    expect(pending.map((a: { id: string }) => a.id).sort()).toEqual([approveId, rejectId].sort());

    const approved = await json(['applications', 'approve', approveId, '--grant-refresh']);
    expect(approved).toMatchObject({ id: approveId, state: 'approved', keyWaitingForReveal: true });
    const keys = (await json(['keys', 'list', '--project', projectId])).keys;
    expect(JSON.stringify(keys)).toContain(approved.keyId);

    const rejected = await json([
      'applications',
      'reject',
      rejectId,
      '--reason',
      'Tell us more about the app',
    ]);
    expect(rejected).toMatchObject({ state: 'rejected', decisionReason: 'Tell us more about the app' });
    const again = await vitrine(['applications', 'approve', rejectId]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already rejected');

    expect((await json(['developers', 'list', '--search', 'DEV@'])).developers).toMatchObject([
      { email: 'dev@example.com' },
    ]);
    await json(['keys', 'set-plan', approved.keyId, '--rate', '9']);
    await json(['keys', 'revoke', approved.keyId]);
  });

  it('lists the audit log, filtered, with every CLI action in it', async () => {
    const all = (await json(['audit', 'list'])).entries.map((e: { action: string }) => e.action);
    expect(all).toEqual([
      'key.revoke',
      'key.set_plan',
      'application.reject',
      'key.grant_refresh',
      'application.approve',
      'project.create',
      'developer.create',
      'operator.create',
    ]);
    const keyOnly = (await json(['audit', 'list', '--action', 'key.'])).entries;
    expect(keyOnly).toHaveLength(3);
    expect(keyOnly[0]).toMatchObject({ actorKind: 'cli', targetType: 'key', clientIp: null });
  });
});
