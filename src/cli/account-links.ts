import type { Command } from 'commander';
import QRCode from 'qrcode';
import type { AccountKind, AccountRef } from '../accounts/model.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../platform/usage-error.js';
import { iso, print } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const GROUPS: { group: string; kind: AccountKind; prefix: string }[] = [
  { group: 'users', kind: 'user', prefix: 'usr_' },
  { group: 'developers', kind: 'developer', prefix: 'dev_' },
  { group: 'operators', kind: 'operator', prefix: 'opr_' },
];

/**
 * Issue 27: `vitrine users|developers|operators reset-link ID` prints a password-reset link for an
 * operator to hand over (it is not mailed): single use, 30 minutes, audited. Registered after the
 * groups exist (main.ts).
 */
export function registerResetLinkCommands(program: Command, withDeps: WithDeps): void {
  for (const { group, kind, prefix } of GROUPS) {
    const parent = program.commands.find((c) => c.name() === group);
    if (!parent) throw new Error(`no "${group}" command group to add reset-link to`);
    parent
      .command('reset-link')
      .description('print a single-use password-reset link (30 minutes) to hand over; nothing is mailed')
      .argument('<id>', `account id (${prefix}…)`)
      .option('--json', 'print one JSON object')
      .action(async (id: string, o: { json?: boolean }) => {
        const issued = await withDeps((d) => d.accountRecovery.resetLink({ kind }, id));
        print(
          {
            json: {
              kind,
              id: issued.account.id,
              email: issued.account.email,
              ...(issued.account.environment ? { environment: issued.account.environment } : {}),
              link: issued.link,
              expiresAt: iso(issued.expiresAt),
            },
            text: `Reset link for ${issued.account.email} (valid until ${iso(issued.expiresAt)}, once):\n${issued.link}`,
          },
          Boolean(o.json),
        );
      });
  }
}

/**
 * Issue 27: `vitrine users|developers|operators two-factor-reset ID` removes an account's second
 * factor (a lost phone and no recovery code), audited as a reset; and, end users having no page
 * of their own on the auth server, `vitrine users two-factor-enrol ID` (prints the key, its
 * `otpauth:` URI and a QR code for the terminal) then `two-factor-confirm ID --code N` (prints the
 * ten recovery codes once).
 */
export function registerTwoFactorCommands(program: Command, withDeps: WithDeps): void {
  const cli = { kind: 'cli' as const, id: null, email: null, ip: null };
  for (const { group, kind, prefix } of GROUPS) {
    const parent = program.commands.find((c) => c.name() === group) as Command;
    parent
      .command('two-factor-reset')
      .description('remove the account’s two-factor sign-in (audited); it signs in with its password again')
      .argument('<id>', `account id (${prefix}…)`)
      .option('--json', 'print one JSON object')
      .action(async (id: string, o: { json?: boolean }) => {
        const removed = await withDeps(async (d) => {
          const account = await accountRef(d, kind, id);
          return d.secondFactors.remove(account, cli, 'reset');
        });
        print(
          {
            json: { id, removed },
            text: removed ? `Two-factor sign-in removed for ${id}` : `${id} had no two-factor sign-in`,
          },
          Boolean(o.json),
        );
      });
  }
  const users = program.commands.find((c) => c.name() === 'users') as Command;
  users
    .command('two-factor-enrol')
    .description('start two-factor sign-in for an end user: prints the key and a QR code for their app')
    .argument('<userId>', 'user id (usr_…)')
    .option('--json', 'print one JSON object')
    .action(async (userId: string, o: { json?: boolean }) => {
      const enrolment = await withDeps(async (d) =>
        d.secondFactors.begin(await accountRef(d, 'user', userId)),
      );
      const qr = o.json ? '' : await QRCode.toString(enrolment.uri, { type: 'terminal', small: true });
      print(
        {
          json: { id: userId, secret: enrolment.secret, uri: enrolment.uri },
          text: `${qr}\nKey: ${enrolment.secret}\n${enrolment.uri}\nThen: vitrine users two-factor-confirm ${userId} --code <the app's code>`,
        },
        Boolean(o.json),
      );
    });
  users
    .command('two-factor-confirm')
    .description('confirm an end user’s enrolment with a code from their app; prints the recovery codes once')
    .argument('<userId>', 'user id (usr_…)')
    .requiredOption('--code <code>', 'the 6-digit code the app shows now')
    .option('--json', 'print one JSON object')
    .action(async (userId: string, o: { code: string; json?: boolean }) => {
      const codes = await withDeps(async (d) =>
        d.secondFactors.confirm(await accountRef(d, 'user', userId), o.code, cli),
      );
      if (!codes)
        throw new UsageError(
          'that code is not right (or nothing to confirm): check the time and try the next one',
        );
      print(
        {
          json: { id: userId, recoveryCodes: codes },
          text: `Two-factor sign-in is on. Recovery codes (shown once):\n${codes.join('\n')}`,
        },
        Boolean(o.json),
      );
    });
}

async function accountRef(d: Deps, kind: AccountKind, id: string): Promise<AccountRef> {
  if (kind === 'user') {
    const user = await d.users.get(id);
    if (!user) throw new UsageError(`no user ${id}`, 'not_found');
    return { kind, id, email: user.email, environment: user.environment };
  }
  const found = kind === 'developer' ? await d.developers.get(id) : await d.operators.get(id);
  if (!found) throw new UsageError(`no ${kind} ${id}`, 'not_found');
  return { kind, id, email: found.email };
}
