import type { Actor, AuditLog } from '../audit/service.js';
import type { Queryable } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { EVENT_TYPES, type EventType, type PlatformEvent, type RecordEvent } from '../platform/events.js';
import { newId } from '../platform/ids.js';
import type { SecretBox } from '../platform/secret-box.js';
import { checkWebhookUrl, RefusedUrlError, type Resolver } from './address-guard.js';
import type { Births } from './dispatcher.js';
import type { EndpointWithSecret, WebhookDelivery, WebhookEndpoint } from './model.js';
import { generateWebhookSecret } from './signing.js';
import type { WebhookStore } from './store.js';

/** Endpoints per project and environment. */
export const MAX_ENDPOINTS = 20;
/** How long the previous secret's signature is still sent after a rotation, by default. */
export const DEFAULT_ROTATION_OVERLAP_MS = 86_400_000;
export const MAX_URL_LENGTH = 2048;
/** The event types an endpoint can subscribe to (`webhook.test` reaches every endpoint on demand). */
export const SUBSCRIBABLE_EVENTS = EVENT_TYPES.filter((t) => t !== 'webhook.test');

/** Which project (and environment, for an API key) an action is for: look-ups outside it are "not found". */
export interface WebhookScope {
  projectId: string;
  environment?: Environment;
}

/**
 * A project's webhook endpoints (issue 24): registration with its URL checks, the secret shown
 * once, rotation, removal, test events, the delivery log and resends. Every action names the
 * project it acts for, and is audited. The same service serves the API, the portal and the CLI.
 */
export interface WebhookService {
  add(
    actor: Actor,
    scope: WebhookScope & { environment: Environment },
    input: { url: string; eventTypes?: readonly string[] },
  ): Promise<EndpointWithSecret>;
  list(scope: WebhookScope): Promise<WebhookEndpoint[]>;
  get(scope: WebhookScope, id: string): Promise<WebhookEndpoint>;
  remove(actor: Actor, scope: WebhookScope, id: string): Promise<void>;
  /** A new secret, shown once; the previous one's signature is sent too for `overlapMs`. */
  rotateSecret(
    actor: Actor,
    scope: WebhookScope,
    id: string,
    overlapMs?: number,
  ): Promise<EndpointWithSecret>;
  /** Queues a `webhook.test` event for this endpoint; resolves to its message id. */
  test(actor: Actor, scope: WebhookScope, id: string): Promise<string>;
  deliveries(scope: WebhookScope, id: string, limit?: number): Promise<WebhookDelivery[]>;
  resend(actor: Actor, scope: WebhookScope, endpointId: string, deliveryId: string): Promise<void>;
  /** For the capabilities that cause events: records one inside the cause's transaction. */
  readonly recordEvent: RecordEvent;
  /**
   * Several at once, in a few statements (a round of saved-search alerts). When this process's
   * dispatcher runs, they are recorded claimed by it: resolves to them, to hand it after the
   * commit (`Dispatcher.nudge`; dropped if the transaction rolls back).
   */
  recordEvents(tx: Queryable, events: readonly PlatformEvent[]): Promise<Births | undefined>;
}

function invalid(parameter: string, message: string): ProblemError {
  return new ProblemError('invalid_parameter', `${parameter} ${message}`, {
    errors: [{ parameter, message }],
  });
}

export function createWebhookService(deps: {
  store: WebhookStore;
  box: SecretBox;
  clock: Clock;
  audit: AuditLog;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** After an event was recorded and committed (a dispatcher pass soon). */
  onRecorded?: () => void;
  /** The claim `recordEvents` records with (the dispatcher's `claimAtBirth`); none: unclaimed. */
  claimAtBirth?: () => { by: string; until: number } | null;
  resolve?: Resolver;
}): WebhookService {
  const { store, box, clock, audit } = deps;
  async function owned(scope: WebhookScope, id: string) {
    const endpoint = await store.endpoint(id);
    if (
      !endpoint ||
      endpoint.projectId !== scope.projectId ||
      (scope.environment !== undefined && endpoint.environment !== scope.environment)
    ) {
      throw new ProblemError('webhook_not_found', `No webhook endpoint ${id}.`);
    }
    return endpoint;
  }
  const target = (id: string) => ({ type: 'webhook', id });
  const strip = ({
    secretSealed: _s,
    previousSecretSealed: _p,
    ...endpoint
  }: WebhookEndpoint & { secretSealed?: string; previousSecretSealed?: string | null }) => endpoint;
  const recordEvent: RecordEvent = async (tx, event) => {
    await store.recordEvent(tx, event, clock.now());
  };
  return {
    recordEvent,
    async recordEvents(tx, events) {
      const claim = deps.claimAtBirth?.() ?? null;
      const deliveries = await store.recordEvents(tx, events, clock.now(), claim ?? undefined);
      return claim === null || deliveries.length === 0 ? undefined : { until: claim.until, deliveries };
    },
    async add(actor, scope, input) {
      if (input.url.length > MAX_URL_LENGTH)
        throw invalid('url', `must have at most ${MAX_URL_LENGTH} characters`);
      try {
        await checkWebhookUrl(input.url, {
          allowHttp: scope.environment === 'testing',
          allowPrivate: deps.allowPrivate,
          resolve: deps.resolve,
        });
      } catch (error) {
        if (error instanceof RefusedUrlError) throw invalid('url', error.message);
        throw error;
      }
      const types = [...new Set(input.eventTypes ?? [])];
      const unknown = types.find((t) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(t));
      if (unknown !== undefined) {
        throw invalid(
          'eventTypes',
          `has an unknown event type ${JSON.stringify(unknown)} (known: ${SUBSCRIBABLE_EVENTS.join(', ')})`,
        );
      }
      if ((await store.endpoints(scope.projectId, scope.environment)).length >= MAX_ENDPOINTS) {
        throw new ProblemError(
          'limit_reached',
          `A project has at most ${MAX_ENDPOINTS} webhook endpoints per environment.`,
        );
      }
      const secret = generateWebhookSecret();
      const endpoint: WebhookEndpoint = {
        id: newId('whe'),
        projectId: scope.projectId,
        environment: scope.environment,
        url: input.url,
        eventTypes: types as EventType[],
        state: 'enabled',
        disabledReason: null,
        failingSince: null,
        previousSecretUntil: null,
        createdAt: clock.now(),
      };
      await store.insertEndpoint(endpoint, box.seal(secret));
      await audit.record(actor, 'webhook.add', target(endpoint.id), {
        projectId: endpoint.projectId,
        environment: endpoint.environment,
        url: endpoint.url,
        eventTypes: endpoint.eventTypes,
      });
      return { endpoint, secret };
    },
    list: (scope) => store.endpoints(scope.projectId, scope.environment),
    get: async (scope, id) => strip(await owned(scope, id)),
    async remove(actor, scope, id) {
      const endpoint = await owned(scope, id);
      await store.removeEndpoint(id);
      await audit.record(actor, 'webhook.remove', target(id), {
        projectId: endpoint.projectId,
        url: endpoint.url,
      });
    },
    async rotateSecret(actor, scope, id, overlapMs = DEFAULT_ROTATION_OVERLAP_MS) {
      await owned(scope, id);
      const secret = generateWebhookSecret();
      await store.rotateSecret(id, box.seal(secret), clock.now() + overlapMs);
      await audit.record(actor, 'webhook.rotate_secret', target(id), { overlapMs });
      return { endpoint: strip(await owned(scope, id)), secret };
    },
    async test(actor, scope, id) {
      const endpoint = await owned(scope, id);
      if (endpoint.state !== 'enabled') {
        throw new ProblemError(
          'webhook_disabled',
          `Webhook endpoint ${id} is disabled: ${endpoint.disabledReason ?? ''}`,
        );
      }
      const messageId = await store.recordOne(
        {
          projectId: endpoint.projectId,
          environment: endpoint.environment,
          type: 'webhook.test',
          data: { endpointId: id, message: 'A test event from Vitrine.' },
        },
        clock.now(),
      );
      await audit.record(actor, 'webhook.test', target(id), { messageId });
      deps.onRecorded?.();
      return messageId;
    },
    async deliveries(scope, id, limit = 50) {
      await owned(scope, id);
      return store.deliveries(id, limit);
    },
    async resend(actor, scope, endpointId, deliveryId) {
      await owned(scope, endpointId);
      if (!(await store.resend(endpointId, deliveryId, clock.now()))) {
        throw new ProblemError(
          'webhook_not_found',
          `No delivery ${deliveryId} for webhook endpoint ${endpointId}.`,
        );
      }
      await audit.record(actor, 'webhook.resend', target(endpointId), { deliveryId });
      deps.onRecorded?.();
    },
  };
}
