import type { Command } from 'commander';
import { unlockAccount } from '../auth/login-throttle.js';
import type { Deps } from '../deps.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { User } from '../users/model.js';
import { cliActor } from './actor.js';
import { iso, print, readSecretFromStdin, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const userJson = (u: User) => ({
  id: u.id,
  environment: u.environment,
  email: u.email,
  name: u.name,
  state: u.state,
  createdAt: iso(u.createdAt),
  passwordChangedAt: iso(u.passwordChangedAt),
  disabledAt: iso(u.disabledAt),
});

/** `users` and `signing-keys` commands: end users and the auth server's keys. */
export function registerAuthCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
) {
  const users = program.command('users').description('end-user accounts of one environment');
  users
    .command('add')
    .description('create an end user (the password is read from standard input)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .requiredOption('--email <email>', 'sign-in email')
    .option('--name <name>', 'display name')
    .requiredOption(
      '--password-stdin',
      'read the password from standard input (required: never on the command line)',
    )
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; email: string; name?: string; json?: boolean }) => {
      const password = await readSecretFromStdin('password');
      const user = await withDeps((d) =>
        d.users.add({ environment: o.env, email: o.email, password, name: o.name }),
      );
      print(
        { json: userJson(user), text: `Created ${o.env} user ${user.id} <${user.email}>` },
        Boolean(o.json),
      );
    });
  users
    .command('list')
    .description('list the end users of an environment')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; json?: boolean }) => {
      const list = await withDeps((d) => d.users.list(o.env));
      print(
        {
          json: { users: list.map(userJson) },
          text: table(
            ['ID', 'EMAIL', 'NAME', 'STATE', 'CREATED'],
            list.map((u) => [u.id, u.email, u.name || null, u.state, iso(u.createdAt)]),
          ),
        },
        Boolean(o.json),
      );
    });
  users
    .command('disable')
    .description('disable an end user: refresh tokens are revoked and access tokens refused at once')
    .argument('<userId>', 'user id (usr_…)')
    .option('--json', 'print one JSON object')
    .action(async (userId: string, o: { json?: boolean }) => {
      const r = await withDeps((d) => d.users.disable(userId));
      print(
        {
          json: { ...userJson(r.user), revokedRefreshTokens: r.revokedRefreshTokens },
          text: `Disabled user ${r.user.id}; ${r.revokedRefreshTokens} refresh token(s) revoked`,
        },
        Boolean(o.json),
      );
    });
  users
    .command('set-password')
    .description("set an end user's password (from standard input); ends all their sessions")
    .argument('<userId>', 'user id (usr_…)')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .option('--json', 'print one JSON object')
    .action(async (userId: string, o: { json?: boolean }) => {
      const password = await readSecretFromStdin('password');
      const r = await withDeps((d) => d.users.setPassword(userId, password));
      print(
        {
          json: { ...userJson(r.user), revokedRefreshTokens: r.revokedRefreshTokens },
          text: `Password of ${r.user.id} changed; ${r.revokedRefreshTokens} refresh token(s) revoked`,
        },
        Boolean(o.json),
      );
    });

  users
    .command('unlock')
    .description(
      'clear a sign-in lockout at once on every running instance (through Redis); audited. End users with --env, developers or operators with --area',
    )
    .requiredOption('--email <email>', 'the account to unlock')
    .option('--env <environment>', 'an end-user account of this environment', parseEnv)
    .option('--area <area>', 'portal (a developer) or console (an operator)')
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; env?: Environment; area?: string; json?: boolean }) => {
      if ((o.env === undefined) === (o.area === undefined))
        throw new UsageError('give exactly one of --env or --area');
      const account = unlockAccount(o.env ? `connect:${o.env}` : (o.area ?? ''), o.email);
      if (!account) throw new UsageError('--area must be portal or console, and --email an email address');
      const announced = await withDeps(async (d) => {
        // Each instance keeps its own counts: only the change bus (Redis) reaches them.
        const reached = d.redis?.state === 'ready';
        await d.operatorActions.unlockLogin(cliActor(), account);
        return reached;
      });
      print(
        {
          json: { account, announced },
          text: announced
            ? `Unlocked sign-in of ${account} on every running instance.`
            : `Recorded the unlock of ${account}, but without Redis no running instance could be told: unlock it in the console (/console/developers), or wait for the lockout to end (at most 15 minutes).`,
        },
        Boolean(o.json),
      );
    });

  const signing = program
    .command('signing-keys')
    .description('keys that sign access tokens (one active per environment)');
  const summaryJson = (k: Awaited<ReturnType<Deps['signingKeys']['list']>>[number]) => ({
    kid: k.kid,
    environment: k.environment,
    createdAt: iso(k.createdAt),
    retiredAt: iso(k.retiredAt),
    unpublishAt: iso(k.unpublishAt),
  });
  signing
    .command('rotate')
    .description(
      'make a new signing key active; the old public key stays in the JWKS until its tokens expire',
    )
    .option('--env <environment>', 'only this environment (default: both)', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env?: Environment; json?: boolean }) => {
      const envs: Environment[] = o.env ? [o.env] : ['production', 'testing'];
      const rotated = await withDeps(async (d) => {
        const out = [];
        for (const env of envs) out.push(await d.signingKeys.rotate(env));
        return out;
      });
      print(
        {
          json: {
            rotated: rotated.map((r) => ({
              environment: r.active.environment,
              id: r.active.kid,
              active: summaryJson(r.active),
              retired: r.retired ? summaryJson(r.retired) : null,
            })),
          },
          text: rotated
            .map(
              (r) =>
                `${r.active.environment}: now signing with ${r.active.kid}${
                  r.retired ? `; ${r.retired.kid} stays published until ${iso(r.retired.unpublishAt)}` : ''
                }`,
            )
            .join('\n'),
        },
        Boolean(o.json),
      );
    });
  signing
    .command('list')
    .description('list signing keys (public information only)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; json?: boolean }) => {
      const list = await withDeps((d) => d.signingKeys.list(o.env));
      print(
        {
          json: { signingKeys: list.map(summaryJson) },
          text: table(
            ['KID', 'CREATED', 'RETIRED', 'PUBLISHED UNTIL'],
            list.map((k) => [
              k.kid,
              iso(k.createdAt),
              iso(k.retiredAt),
              k.retiredAt === null ? 'active' : iso(k.unpublishAt),
            ]),
          ),
        },
        Boolean(o.json),
      );
    });
}
