import type { Command } from 'commander';
import type { AccountKind } from '../accounts/model.js';
import type { Deps } from '../deps.js';
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
