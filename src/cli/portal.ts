import type { Command } from 'commander';
import type { KeyApplication } from '../applications/model.js';
import type { AuditEntry } from '../audit/model.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../platform/usage-error.js';
import { cliActor } from './actor.js';
import { iso, print, readSecretFromStdin, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const applicationJson = (a: KeyApplication) => ({
  id: a.id,
  projectId: a.projectId,
  environment: a.environment,
  wantsRefresh: a.wantsRefresh,
  refreshReason: a.refreshReason,
  state: a.state,
  decisionReason: a.decisionReason,
  decidedBy: a.decidedBy,
  decidedAt: iso(a.decidedAt),
  keyId: a.keyId,
  keyWaitingForReveal: a.keyWaiting,
  createdAt: iso(a.createdAt),
});

const auditJson = (e: AuditEntry) => ({
  id: e.id,
  at: iso(e.at),
  actorKind: e.actorKind,
  actorId: e.actorId,
  actorEmail: e.actorEmail,
  action: e.action,
  targetType: e.targetType,
  targetId: e.targetId,
  detail: e.detail,
  clientIp: e.clientIp,
});

const STATES = ['pending', 'approved', 'rejected'] as const;

/**
 * The console's actions as commands: `operators`, `applications`, `audit`.
 * Key actions (`keys revoke|grant-refresh|revoke-refresh|set-plan`) live with the other key
 * commands and write the same audit entries.
 */
export function registerPortalCommands(program: Command, withDeps: WithDeps): void {
  const operators = program.command('operators').description('operator accounts (sign in to /console/)');
  operators
    .command('add')
    .description('create an operator account')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--name <name>', 'display name')
    .option('--password-stdin', 'read the password from standard input (required)')
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; name?: string; passwordStdin?: boolean; json?: boolean }) => {
      if (!o.passwordStdin) throw new UsageError('give the password on standard input with --password-stdin');
      const password = await readSecretFromStdin('password');
      const operator = await withDeps(async (d) => {
        return d.operatorActions.addOperator(cliActor(), { email: o.email, name: o.name, password });
      });
      print(
        {
          json: {
            id: operator.id,
            email: operator.email,
            name: operator.name,
            createdAt: iso(operator.createdAt),
          },
          text: `Created operator ${operator.id} <${operator.email}>`,
        },
        Boolean(o.json),
      );
    });
  operators
    .command('list')
    .description('list operator accounts')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withDeps((d) => d.operators.list());
      print(
        {
          json: {
            operators: list.map((x) => ({
              id: x.id,
              email: x.email,
              name: x.name,
              createdAt: iso(x.createdAt),
              disabledAt: iso(x.disabledAt),
            })),
          },
          text: table(
            ['id', 'email', 'name', 'created', 'disabled'],
            list.map((x) => [x.id, x.email, x.name, iso(x.createdAt), iso(x.disabledAt)]),
          ),
        },
        Boolean(o.json),
      );
    });

  operators
    .command('set-password <operatorId>')
    .description("set an operator's console password (read from standard input); their sessions end")
    .option('--password-stdin', 'read the password from standard input (required)')
    .option('--json', 'print one JSON object')
    .action(async (operatorId: string, o: { passwordStdin?: boolean; json?: boolean }) => {
      if (!o.passwordStdin) throw new UsageError('give the password on standard input with --password-stdin');
      const password = await readSecretFromStdin('password');
      const { endedSessions } = await withDeps((d) =>
        d.operatorActions.setOperatorPassword(cliActor(), operatorId, password),
      );
      print(
        {
          json: { id: operatorId, endedSessions },
          text: `Password of ${operatorId} changed; ${endedSessions} console session(s) ended`,
        },
        Boolean(o.json),
      );
    });
  operators
    .command('disable <operatorId>')
    .description('disable an operator account: no more sign-in, sessions end (never the last one)')
    .option('--json', 'print one JSON object')
    .action(async (operatorId: string, o: { json?: boolean }) => {
      const { endedSessions } = await withDeps((d) =>
        d.operatorActions.disableOperator(cliActor(), operatorId),
      );
      print(
        {
          json: { id: operatorId, disabled: true, endedSessions },
          text: `Disabled operator ${operatorId}; ${endedSessions} console session(s) ended`,
        },
        Boolean(o.json),
      );
    });

  const applications = program.command('applications').description('key applications from the portal');
  applications
    .command('list')
    .description('list applications (all, or those in one state)')
    .option('--state <state>', 'pending, approved or rejected')
    .option('--json', 'print one JSON object')
    .action(async (o: { state?: string; json?: boolean }) => {
      const state = STATES.find((s) => s === o.state);
      if (o.state !== undefined && !state)
        throw new UsageError('--state must be pending, approved or rejected');
      const list = await withDeps((d) => d.applications.list(state ? { state } : {}));
      print(
        {
          json: { applications: list.map(applicationJson) },
          text: table(
            ['id', 'project', 'env', 'state', 'refresh', 'applied', 'key'],
            list.map((a) => [
              a.id,
              a.projectId,
              a.environment,
              a.state,
              a.wantsRefresh ? 'asked' : 'no',
              iso(a.createdAt),
              a.keyId,
            ]),
          ),
        },
        Boolean(o.json),
      );
    });
  applications
    .command('approve')
    .description('approve: issues the key, which the developer reveals once in the portal')
    .argument('<applicationId>', 'application id (app_…)')
    .option('--grant-refresh', 'also grant the refresh permission')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { grantRefresh?: boolean; json?: boolean }) => {
      const a = await withDeps((d) =>
        d.operatorActions.approve(cliActor(), id, { grantRefresh: o.grantRefresh }),
      );
      print(
        {
          json: applicationJson(a),
          text: `Approved ${a.id}: key ${a.keyId} issued${o.grantRefresh ? ' with the refresh permission' : ''}; the developer reveals it in the portal`,
        },
        Boolean(o.json),
      );
    });
  applications
    .command('reject')
    .description('reject with a reason the developer sees')
    .argument('<applicationId>', 'application id (app_…)')
    .requiredOption('--reason <text>', 'why (shown to the developer)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { reason: string; json?: boolean }) => {
      const a = await withDeps((d) => d.operatorActions.reject(cliActor(), id, o.reason));
      print({ json: applicationJson(a), text: `Rejected ${a.id}` }, Boolean(o.json));
    });

  program
    .command('audit')
    .description('the audit log')
    .command('list')
    .description('newest entries first, optionally filtered')
    .option('--action <prefix>', 'action or its prefix (key., application.approve, …)')
    .option('--actor <idOrEmail>', 'who did it')
    .option('--target <id>', 'what it was done to')
    .option('--limit <n>', 'at most this many entries (≤ 1000)', '100')
    .option('--json', 'print one JSON object')
    .action(
      async (o: { action?: string; actor?: string; target?: string; limit: string; json?: boolean }) => {
        if (!/^\d{1,4}$/.test(o.limit) || Number(o.limit) < 1 || Number(o.limit) > 1000)
          throw new UsageError('--limit must be a whole number from 1 to 1000');
        const entries = await withDeps((d) =>
          d.audit.list({ action: o.action, actor: o.actor, target: o.target, limit: Number(o.limit) }),
        );
        print(
          {
            json: { entries: entries.map(auditJson) },
            text: table(
              ['at', 'actor', 'action', 'target', 'from'],
              entries.map((e) => [
                iso(e.at),
                `${e.actorKind}:${e.actorEmail ?? e.actorId ?? '-'}`,
                e.action,
                e.targetId,
                e.clientIp,
              ]),
            ),
          },
          Boolean(o.json),
        );
      },
    );
}
