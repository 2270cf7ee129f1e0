import { type Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../deps.js';
import { MAX_PLAN_RPS } from '../keys/service.js';
import { UsageError } from '../platform/usage-error.js';
import { cliActor } from './actor.js';
import { print, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

function wholeNumber(max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    }
    return Number(value);
  };
}

/** `keys set-plan` and `keys usage` (§10; issue #6). */
export function registerKeyLimitCommands(keys: Command, withDeps: WithDeps): void {
  keys
    .command('set-plan')
    .description("set a key's own rate limit (requests per second), or --default to use its environment's")
    .argument('<keyId>', 'key id (key_…)')
    .option('--rate <n>', 'requests per second (bursts of up to this many)', wholeNumber(MAX_PLAN_RPS))
    .option('--default', 'clear the key plan: RATE_LIMIT_TESTING or RATE_LIMIT_PRODUCTION applies')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { rate?: number; default?: boolean; json?: boolean }) => {
      if ((o.rate === undefined) === !o.default) throw new UsageError('give either --rate N or --default');
      const key = await withDeps((d) => d.operatorActions.setPlan(cliActor(), keyId, o.rate ?? null));
      print(
        {
          json: { id: key.id, environment: key.environment, rateLimitRps: key.rateLimitRps },
          text:
            key.rateLimitRps === null
              ? `Key ${key.id} uses the default plan of ${key.environment}.`
              : `Key ${key.id} may send ${key.rateLimitRps} requests per second.`,
        },
        Boolean(o.json),
      );
    });
  keys
    .command('usage')
    .description('requests per UTC day of a key, with errors (4xx, 5xx); today lags by USAGE_FLUSH_MS')
    .argument('<keyId>', 'key id (key_…)')
    .option('--days <n>', 'how many days back, today included', wholeNumber(366), 7)
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { days: number; json?: boolean }) => {
      const days = await withDeps(async (d) => {
        if (!(await d.keys.list()).some((k) => k.id === keyId)) {
          throw new UsageError(`no key with id ${keyId}`, 'not_found');
        }
        return d.usage.forKey(keyId, { days: o.days });
      });
      print(
        {
          json: { id: keyId, days },
          text: table(
            ['DAY', 'REQUESTS', 'ERRORS', '2XX', '4XX', '5XX'],
            days.map((u) => [
              u.day,
              String(u.requests),
              String(u.errors),
              String(u.byStatusClass['2xx'] ?? 0),
              String(u.byStatusClass['4xx'] ?? 0),
              String(u.byStatusClass['5xx'] ?? 0),
            ]),
          ),
        },
        Boolean(o.json),
      );
    });
}
