import { type Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../deps.js';
import type { Environment } from '../platform/environment.js';
import { formatRankBy, parseRankBy, type RankBy } from '../search-settings/model.js';
import { cliActor } from './actor.js';
import { print } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

/** `attr.NAME:desc|asc`, or `none` (null) to clear. */
function rankByOption(value: string): RankBy | null {
  if (value === 'none') return null;
  const parsed = parseRankBy(value);
  if (!parsed) throw new InvalidArgumentError('must be attr.NAME:desc, attr.NAME:asc or none');
  return parsed;
}

/**
 * `vitrine settings set|show --env ENV` (issue 23): the search settings beside the declared
 * attributes; today the ranking tie-break after the text rules. Audited; re-indexes in the
 * background on every serving process.
 */
export function registerSearchSettingsCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
): void {
  const settings = program.command('settings').description("an environment's search settings");
  settings
    .command('set')
    .description('change search settings (re-indexes in the background)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .requiredOption(
      '--rank-by <attr.NAME:desc|asc|none>',
      'a --sort number attribute ordering matches the text rules leave tied, before the newest; none: clear',
      rankByOption,
    )
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; rankBy: RankBy | null; json?: boolean }) => {
      const rankBy = await withDeps((d) => d.searchSettings.setRankBy(cliActor(), o.env, o.rankBy));
      const shown = rankBy ? formatRankBy(rankBy) : null;
      print(
        {
          json: { environment: o.env, rankBy: shown },
          text: shown
            ? `Ties after the text rules in ${o.env} go by ${shown}, then the newest; serving processes re-index in the background.`
            : `No tie-break in ${o.env}: ties after the text rules go to the newest.`,
        },
        Boolean(o.json),
      );
    });
  settings
    .command('show')
    .description("an environment's search settings")
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; json?: boolean }) => {
      const read = await withDeps((d) => d.searchSettings.read(o.env));
      const shown = read.rankBy ? formatRankBy(read.rankBy) : null;
      print(
        {
          json: { environment: o.env, version: read.version, rankBy: shown },
          text: `rank-by: ${shown ?? 'none (newest first)'}`,
        },
        Boolean(o.json),
      );
    });
}
