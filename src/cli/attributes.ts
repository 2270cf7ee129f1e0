import { type Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../deps.js';
import type { Environment } from '../platform/environment.js';
import { ATTRIBUTE_TYPES, type AttributeType, formatRankBy } from '../search-settings/model.js';
import { cliActor } from './actor.js';
import { print, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

function attributeType(value: string): AttributeType {
  if (!(ATTRIBUTE_TYPES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${ATTRIBUTE_TYPES.join(', ')}`);
  return value as AttributeType;
}

/**
 * `vitrine attributes set|list|remove --env ENV` (issue 23): the attributes search knows. A change
 * is audited and re-indexes the environment in the background on every serving process.
 */
export function registerAttributeCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
): void {
  const attributes = program
    .command('attributes')
    .description('the offer attributes search filters, facets and sorts on, per environment');
  attributes
    .command('set')
    .description('declare an attribute, or change a declared one (re-indexes in the background)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .argument('<name>', "the key in offers' attributes: a letter, then letters, digits or _")
    .requiredOption('--type <type>', ATTRIBUTE_TYPES.join(', '), attributeType)
    .option('--facet', 'facets=attr.NAME counts its values (numbers: also min, max, avg, sum)')
    .option('--sort', 'sort=attr.NAME / -attr.NAME (numbers and booleans)')
    .option('--searchable', 'q matches its words, ranked between the title and the description (strings)')
    .option('--json', 'print one JSON object')
    .action(
      async (
        name: string,
        o: {
          env: Environment;
          type: AttributeType;
          facet?: boolean;
          sort?: boolean;
          searchable?: boolean;
          json?: boolean;
        },
      ) => {
        const declared = await withDeps((d) =>
          d.searchSettings.setAttribute(cliActor(), o.env, {
            name,
            type: o.type,
            facet: Boolean(o.facet),
            sort: Boolean(o.sort),
            searchable: Boolean(o.searchable),
          }),
        );
        print(
          {
            json: { environment: o.env, attribute: declared },
            text: `Declared ${declared.name} (${declared.type}) in ${o.env}; serving processes re-index in the background.`,
          },
          Boolean(o.json),
        );
      },
    );
  attributes
    .command('list')
    .description('the declared attributes of an environment')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { env: Environment; json?: boolean }) => {
      const settings = await withDeps((d) => d.searchSettings.read(o.env));
      const yes = (b: boolean) => (b ? 'yes' : '-');
      print(
        {
          json: {
            environment: o.env,
            version: settings.version,
            attributes: settings.attributes,
            rankBy: settings.rankBy ? formatRankBy(settings.rankBy) : null,
          },
          text: table(
            ['NAME', 'TYPE', 'FACET', 'SORT', 'SEARCHABLE'],
            settings.attributes.map((a) => [a.name, a.type, yes(a.facet), yes(a.sort), yes(a.searchable)]),
          ),
        },
        Boolean(o.json),
      );
    });
  attributes
    .command('remove')
    .description('forget a declared attribute (re-indexes in the background; offers keep the value)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .argument('<name>', 'a declared attribute')
    .option('--json', 'print one JSON object')
    .action(async (name: string, o: { env: Environment; json?: boolean }) => {
      await withDeps((d) => d.searchSettings.removeAttribute(cliActor(), o.env, name));
      print(
        { json: { environment: o.env, removed: name }, text: `Removed ${name} from ${o.env}.` },
        Boolean(o.json),
      );
    });
}
