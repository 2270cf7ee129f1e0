import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import type { Environment } from '../platform/environment.js';
import type { Synonym } from '../synonyms/model.js';
import { cliActor } from './actor.js';
import { iso, print, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const synonymJson = (s: Synonym) => ({
  id: s.id,
  environment: s.environment,
  oneWay: s.oneWay,
  words: s.words,
  createdAt: iso(s.createdAt),
});

const describe = (s: Synonym) =>
  s.oneWay ? `${s.words[0]} → ${s.words.slice(1).join(', ')}` : s.words.join(' ↔ ');

/** `synonyms add|list|remove` (issue 23): an environment's search synonyms, applied within a second. */
export function registerSynonymCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
) {
  const synonyms = program.command('synonyms').description("an environment's search synonyms");
  synonyms
    .command('add')
    .description(
      'words that find each other (or, with --one-way, the first finds the others); quote a word of several words',
    )
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--one-way', 'the first word finds the others, not the reverse')
    .argument('<words...>', 'two words or more, e.g. tv "television set"')
    .option('--json', 'print one JSON object')
    .action(async (words: string[], o: { env: Environment; oneWay?: boolean; json?: boolean }) => {
      const s = await withDeps((d) => d.synonyms.add(cliActor(), o.env, words, Boolean(o.oneWay)));
      print(
        { json: synonymJson(s), text: `Added ${o.env} synonym ${s.id}: ${describe(s)}` },
        Boolean(o.json),
      );
    });
  synonyms
    .command('list')
    .description("list an environment's synonyms")
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; json?: boolean }) => {
      const list = await withDeps((d) => d.synonyms.list(o.env));
      print(
        {
          json: { synonyms: list.map(synonymJson) },
          text: table(
            ['ID', 'KIND', 'WORDS', 'CREATED'],
            list.map((s) => [s.id, s.oneWay ? 'one-way' : 'multi-way', describe(s), iso(s.createdAt)]),
          ),
        },
        Boolean(o.json),
      );
    });
  synonyms
    .command('remove')
    .description('remove a synonym rule')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .argument('<id>', 'synonym id (syn_…)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { env: Environment; json?: boolean }) => {
      const s = await withDeps((d) => d.synonyms.remove(cliActor(), o.env, id));
      print(
        { json: { ...synonymJson(s), removed: true }, text: `Removed ${o.env} synonym ${s.id}` },
        Boolean(o.json),
      );
    });
}
