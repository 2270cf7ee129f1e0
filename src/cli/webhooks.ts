import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { ProblemError } from '../http/errors.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { WebhookEndpoint } from '../webhooks/model.js';
import { describeEndpoint } from '../webhooks/routes.js';
import { SUBSCRIBABLE_EVENTS } from '../webhooks/service.js';
import { cliActor } from './actor.js';
import { print, table } from './io.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

const collect = (value: string, previous: string[]) => [...previous, value];

/** Runs a webhook action for the project, with the service's refusals as usage errors (exit 2). */
async function forProject<T>(d: Deps, projectId: string, work: () => Promise<T>): Promise<T> {
  if (!(await d.projects.get(projectId)))
    throw new UsageError(`no project with id ${projectId}`, 'not_found');
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProblemError) {
      throw new UsageError(error.detail, error.code === 'webhook_not_found' ? 'not_found' : undefined);
    }
    throw error;
  }
}

const row = (e: WebhookEndpoint) => [
  e.id,
  e.environment,
  e.state,
  e.eventTypes.length ? e.eventTypes.join(',') : 'all',
  e.url,
];

/** `vitrine webhooks add|list|remove|rotate-secret|test` (issue 24): the same service as the API and the portal. */
export function registerWebhookCommands(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (value: string) => Environment,
): void {
  const webhooks = program.command('webhooks').description("a project's webhook endpoints (signed events)");
  webhooks
    .command('add')
    .description('register an endpoint; prints its signing secret (whsec_…) once')
    .requiredOption('--project <id>', 'project id (prj_…)')
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .requiredOption('--url <url>', 'https URL (http allowed on testing)')
    .option(
      '--event <type>',
      `an event type, repeatable; none: all (${SUBSCRIBABLE_EVENTS.join(', ')})`,
      collect,
      [],
    )
    .option('--json', 'print one JSON object')
    .action(
      async (o: { project: string; env: Environment; url: string; event: string[]; json?: boolean }) => {
        const { endpoint, secret } = await withDeps((d) =>
          forProject(d, o.project, () =>
            d.webhooks.service.add(
              cliActor(),
              { projectId: o.project, environment: o.env },
              { url: o.url, eventTypes: o.event },
            ),
          ),
        );
        print(
          {
            json: { ...describeEndpoint(endpoint), secret },
            text: `Endpoint ${endpoint.id} added for ${endpoint.environment}.\nSigning secret (shown once, keep it safe): ${secret}`,
          },
          Boolean(o.json),
        );
      },
    );
  webhooks
    .command('list')
    .description("a project's endpoints")
    .requiredOption('--project <id>', 'project id (prj_…)')
    .option('--env <environment>', 'only this environment', parseEnv)
    .option('--json', 'print one JSON object')
    .action(async (o: { project: string; env?: Environment; json?: boolean }) => {
      const list = await withDeps((d) =>
        forProject(d, o.project, () => d.webhooks.service.list({ projectId: o.project, environment: o.env })),
      );
      print(
        {
          json: { data: list.map(describeEndpoint) },
          text: list.length ? table(['ID', 'ENV', 'STATE', 'EVENTS', 'URL'], list.map(row)) : 'No endpoints.',
        },
        Boolean(o.json),
      );
    });
  const byId = (name: string, description: string) =>
    webhooks
      .command(name)
      .description(description)
      .argument('<endpointId>', 'endpoint id (whe_…)')
      .requiredOption('--project <id>', 'project id (prj_…)')
      .option('--json', 'print one JSON object');
  byId('remove', 'remove an endpoint and its delivery log').action(
    async (id: string, o: { project: string; json?: boolean }) => {
      await withDeps((d) =>
        forProject(d, o.project, () => d.webhooks.service.remove(cliActor(), { projectId: o.project }, id)),
      );
      print({ json: { id, removed: true }, text: `Endpoint ${id} removed.` }, Boolean(o.json));
    },
  );
  byId('rotate-secret', 'a new signing secret, shown once; the old one also signs for 24 hours').action(
    async (id: string, o: { project: string; json?: boolean }) => {
      const { endpoint, secret } = await withDeps((d) =>
        forProject(d, o.project, () =>
          d.webhooks.service.rotateSecret(cliActor(), { projectId: o.project }, id),
        ),
      );
      const until = new Date(endpoint.previousSecretUntil ?? 0).toISOString();
      print(
        {
          json: { id, secret, previousSecretUntil: until },
          text: `New signing secret (shown once): ${secret}\nThe previous secret also signs until ${until}.`,
        },
        Boolean(o.json),
      );
    },
  );
  byId('test', 'queue a webhook.test event for the endpoint (a serving instance delivers it)').action(
    async (id: string, o: { project: string; json?: boolean }) => {
      const messageId = await withDeps((d) =>
        forProject(d, o.project, () => d.webhooks.service.test(cliActor(), { projectId: o.project }, id)),
      );
      print({ json: { id, messageId }, text: `Test event ${messageId} queued for ${id}.` }, Boolean(o.json));
    },
  );
}
