import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import type { KeyRecord } from '../keys/model.js';
import { describeFixedFilters, parseFixedFilters } from '../keys/publishable.js';
import { parseRollOverlap } from '../keys/roll-overlap.js';
import { keyScopes } from '../keys/scopes.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from '../projects/model.js';
import { cliActor } from './actor.js';
import { iso, parseTimestamp, print, readSecretFromStdin, table } from './io.js';
import { registerKeyLimitCommands } from './key-limits.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const projectJson = (p: Project) => ({
  id: p.id,
  developerId: p.developerId,
  name: p.name,
  description: p.description,
  website: p.website,
  redirectUris: p.redirectUris,
  createdAt: iso(p.createdAt),
});

export const keyJson = (k: KeyRecord) => ({
  id: k.id,
  projectId: k.projectId,
  environment: k.environment,
  hint: k.hint,
  state: k.state,
  kind: k.kind,
  scopes: keyScopes(k),
  ...(k.kind === 'publishable' ? { allowedOrigins: k.allowedOrigins, fixedFilters: k.fixedFilters } : {}),
  refreshAllowed: k.refreshAllowed,
  rateLimitRps: k.rateLimitRps,
  expiresAt: iso(k.expiresAt),
  createdAt: iso(k.createdAt),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

const collect = (value: string, previous: string[]) => [...previous, value];

/** `developers`, `projects` and `keys` commands (SPEC §10). */
export function registerAccountCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
) {
  const developers = program.command('developers').description('developer accounts (owners of projects)');
  developers
    .command('add')
    .description('create a developer account')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--name <name>', 'display name')
    .option('--password-stdin', 'read a portal password from standard input')
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; name?: string; passwordStdin?: boolean; json?: boolean }) => {
      const password = o.passwordStdin ? await readSecretFromStdin('password') : undefined;
      const developer = await withDeps(async (d) => {
        return d.operatorActions.addDeveloper(cliActor(), { email: o.email, name: o.name, password });
      });
      print(
        {
          json: {
            id: developer.id,
            email: developer.email,
            name: developer.name,
            createdAt: iso(developer.createdAt),
          },
          text: `Created developer ${developer.id} <${developer.email}>`,
        },
        Boolean(o.json),
      );
    });

  developers
    .command('list')
    .description('list developer accounts (the console search)')
    .option('--search <text>', 'only those whose id, email or name contains this')
    .option('--json', 'print one JSON object')
    .action(async (o: { search?: string; json?: boolean }) => {
      // Every match, page after page (the console shows them 50 at a time).
      const list = await withDeps(async (d) => {
        const search = d.consoleSearch;
        const all = [];
        for (let page = 1; ; page += 1) {
          const found = await search.developers(o.search ?? '', page);
          all.push(...found.items);
          if (page * found.pageSize >= found.total) return all;
        }
      });
      print(
        {
          json: {
            developers: list.map((x) => ({
              ...x,
              createdAt: iso(x.createdAt),
              disabledAt: iso(x.disabledAt),
            })),
          },
          text: table(
            ['ID', 'EMAIL', 'NAME', 'CREATED'],
            list.map((x) => [x.id, x.email, x.name, iso(x.createdAt)]),
          ),
        },
        Boolean(o.json),
      );
    });

  developers
    .command('disable <developerId>')
    .description(
      'disable a developer account: no more portal sign-in, sessions end; keys stay (revoke them apart)',
    )
    .option('--json', 'print one JSON object')
    .action(async (developerId: string, o: { json?: boolean }) => {
      const { endedSessions } = await withDeps((d) =>
        d.operatorActions.disableDeveloper(cliActor(), developerId),
      );
      print(
        {
          json: { id: developerId, disabled: true, endedSessions },
          text: `Disabled developer ${developerId}; ${endedSessions} portal session(s) ended. Their keys still work: revoke them with \`vitrine keys revoke\`.`,
        },
        Boolean(o.json),
      );
    });

  const projects = program.command('projects').description('projects: what keys belong to');
  projects
    .command('add')
    .description('create a project owned by a developer')
    .requiredOption('--name <name>', 'project name, shown on the login page')
    .requiredOption('--owner <email>', "owner's developer email")
    .option('--description <text>', 'what the project does')
    .option('--website <url>', 'public website')
    .option('--redirect-uri <url>', 'redirect destination for /connect (repeatable)', collect, [])
    .option('--json', 'print one JSON object')
    .action(
      async (o: {
        name: string;
        owner: string;
        description?: string;
        website?: string;
        redirectUri: string[];
        json?: boolean;
      }) => {
        const project = await withDeps(async (d) => {
          return d.operatorActions.addProject(cliActor(), {
            name: o.name,
            ownerEmail: o.owner,
            description: o.description,
            website: o.website,
            redirectUris: o.redirectUri,
          });
        });
        const uris = project.redirectUris.map((u) => `\n  redirect ${u}`).join('');
        print(
          { json: projectJson(project), text: `Created project ${project.id} "${project.name}"${uris}` },
          Boolean(o.json),
        );
      },
    );
  projects
    .command('list')
    .description('list projects')
    .option('--owner <email>', "only this developer's projects")
    .option('--json', 'print one JSON object')
    .action(async (o: { owner?: string; json?: boolean }) => {
      const list = await withDeps((d) => d.projects.list({ ownerEmail: o.owner }));
      print(
        {
          json: { projects: list.map(projectJson) },
          text: table(
            ['ID', 'NAME', 'OWNER', 'REDIRECT URIS'],
            list.map((p) => [p.id, p.name, p.developerId, p.redirectUris.join(' ') || null]),
          ),
        },
        Boolean(o.json),
      );
    });

  const keys = program.command('keys').description('API keys');
  keys
    .command('issue')
    .description('issue a key for a project; the key is printed once and only its hash is kept')
    .requiredOption('--project <id>', 'project id (prj_…)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--expires-at <date>', 'optional expiry (ISO 8601)')
    .option(
      '--publishable',
      'a publishable key (vk_pub_…) for browsers and apps: search only, needs --origin',
    )
    .option(
      '--origin <url>',
      'publishable: an allowed origin, exactly https://host[:port] (repeatable)',
      collect,
      [],
    )
    .option(
      '--filter <name=value>',
      'publishable: a filter fixed on every search (category, tag, city, country, currency, attr.NAME; repeatable)',
      collect,
      [],
    )
    .option('--json', 'print one JSON object')
    .action(
      async (o: {
        project: string;
        env: Environment;
        expiresAt?: string;
        publishable?: boolean;
        origin: string[];
        filter: string[];
        json?: boolean;
      }) => {
        const expiresAt = o.expiresAt === undefined ? null : parseTimestamp(o.expiresAt, '--expires-at');
        if (!o.publishable && (o.origin.length > 0 || o.filter.length > 0)) {
          throw new UsageError('--origin and --filter are for publishable keys: add --publishable');
        }
        const kind = o.publishable ? 'publishable' : 'secret';
        const issued = await withDeps(async (d) => {
          const key = await d.operatorActions.issueKey(cliActor(), {
            projectId: o.project,
            environment: o.env,
            expiresAt,
            kind,
            allowedOrigins: o.origin,
            fixedFilters: parseFixedFilters(o.filter),
          });
          return key;
        });
        const what = o.publishable ? 'publishable key' : 'key';
        print(
          {
            json: { ...keyJson(issued.record), key: issued.key },
            text: `Issued ${issued.record.environment} ${what} ${issued.record.id} for ${issued.record.projectId}.\nKey (shown once, store it now): ${issued.key}`,
          },
          Boolean(o.json),
        );
      },
    );
  keys
    .command('list')
    .description('list keys (never the secrets)')
    .option('--project <id>', 'only this project')
    .option('--env <environment>', 'only this environment', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { project?: string; env?: Environment; json?: boolean }) => {
      const list = await withDeps((d) => d.keys.list({ projectId: o.project, environment: o.env }));
      print(
        {
          json: { keys: list.map(keyJson) },
          text: table(
            ['ID', 'PROJECT', 'ENV', 'KEY', 'KIND', 'STATE', 'REFRESH', 'CREATED', 'LAST USED'],
            list.map((k) => [
              k.id,
              k.projectId,
              k.environment,
              k.hint,
              k.kind === 'publishable'
                ? ['publishable', ...k.allowedOrigins, ...describeFixedFilters(k.fixedFilters)].join(' ')
                : k.writeAllowed
                  ? 'secret+write'
                  : 'secret',
              k.state,
              k.refreshAllowed ? 'yes' : 'no',
              iso(k.createdAt),
              iso(k.lastUsedAt),
            ]),
          ),
        },
        Boolean(o.json),
      );
    });
  keys
    .command('revoke')
    .description('revoke a key; every instance refuses it within one second')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withDeps((d) => d.operatorActions.revoke(cliActor(), keyId));
      print({ json: keyJson(key), text: `Revoked key ${key.id}` }, Boolean(o.json));
    });
  keys
    .command('roll')
    .description('a new secret for a key, printed once; the old one keeps working for the overlap')
    .argument('<keyId>', 'key id (key_…)')
    .option('--overlap <overlap>', 'how long the old secret still works: none, 1h, 24h or 7d', 'none')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { overlap: string; json?: boolean }) => {
      const overlap = parseRollOverlap(o.overlap);
      const issued = await withDeps((d) => d.operatorActions.rollKey(cliActor(), keyId, overlap));
      print(
        {
          json: { ...keyJson(issued.record), key: issued.key, overlap },
          text: `Rolled key ${issued.record.id} (the old secret ${overlap === 'none' ? 'no longer works' : `works for ${overlap} more`}). The new secret, shown once:\n\n  ${issued.key}\n`,
        },
        Boolean(o.json),
      );
    });
  keys
    .command('grant-refresh')
    .description('grant the refresh permission: logins through this key also get refresh tokens')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withDeps((d) => d.operatorActions.grantRefresh(cliActor(), keyId));
      print({ json: keyJson(key), text: `Key ${key.id} may now obtain refresh tokens` }, Boolean(o.json));
    });
  keys
    .command('revoke-refresh')
    .description('withdraw the refresh permission and revoke every refresh token the key obtained')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const r = await withDeps((d) => d.operatorActions.revokeRefresh(cliActor(), keyId));
      print(
        {
          json: { ...keyJson(r.key), revokedRefreshTokens: r.revokedRefreshTokens },
          text: `Key ${r.key.id} may no longer refresh; ${r.revokedRefreshTokens} refresh token(s) revoked`,
        },
        Boolean(o.json),
      );
    });
  keys
    .command('grant-write')
    .description('grant offers:write: the key may import and withdraw its project’s offers over HTTP')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withDeps((d) => d.operatorActions.grantWrite(cliActor(), keyId));
      print(
        { json: keyJson(key), text: `Key ${key.id} may now write its project's offers` },
        Boolean(o.json),
      );
    });
  keys
    .command('revoke-write')
    .description('withdraw offers:write')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withDeps((d) => d.operatorActions.revokeWrite(cliActor(), keyId));
      print({ json: keyJson(key), text: `Key ${key.id} may no longer write offers` }, Boolean(o.json));
    });
  registerKeyLimitCommands(keys, withDeps);
}
