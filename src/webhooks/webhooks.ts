import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AuditLog } from '../audit/service.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { createSecretBox } from '../platform/secret-box.js';
import { createDispatcher, type DeliveryOutcome, type Dispatcher } from './dispatcher.js';
import { createKeyExpiryCheck } from './key-expiry.js';
import { readSearchRules, type SearchRuleSources } from './offer-matching.js';
import { createPercolator, type OfferChanges, type Percolator } from './percolator.js';
import type { PercolatorStore } from './percolator-store.js';
import { createWebhookService, type WebhookService } from './service.js';
import type { WebhookStore } from './store.js';

// Re-exported for the composition root's one import line (stores are built in deps.ts only).
export { createPercolatorStore } from './percolator-store.js';
export { createWebhookStore } from './store.js';

/** How often the `key.expiring` check runs in a serving process. */
const KEY_EXPIRY_CHECK_MS = 60_000;
/**
 * Matching runs started by offer writes (`offersWritten`) start at least this far apart (real
 * time): a stream of small writes is matched a batch of writes per run, not a run per write.
 */
const PERCOLATE_SPACING_MS = 50;

/** Everything webhooks: the service (API, portal, CLI), and what `serve` runs in the background. */
export interface Webhooks {
  service: WebhookService;
  dispatcher: Dispatcher;
  percolator: Percolator;
  /** One `key.expiring` check; resolves to the events recorded. */
  checkKeyExpiry(): Promise<number>;
  /** `serve`: dispatch, percolate and check expiring keys, every `pollMs`. */
  start(pollMs: number): void;
  /**
   * Offers were written (by this process, or another's change message): once started, the
   * saved searches are matched against them now, not at the next poll (ADR 0062).
   */
  offersWritten(): void;
  stop(): Promise<void>;
  /** Deliveries by outcome, queue depth, oldest pending age on /metrics. */
  registerMetrics(registry: Registry): void;
}

export function createWebhooks(deps: {
  db: Database;
  store: WebhookStore;
  percolatorStore: PercolatorStore;
  offerStore: OfferChanges;
  /** The signing secrets are sealed with a key derived from it (purpose `webhook-secret`). */
  masterSecret: Buffer;
  clock: Clock;
  audit: AuditLog;
  logger: Logger;
  config: Pick<Config, 'webhookRetrySchedule' | 'webhookAllowPrivate'>;
  /** The environments' synonyms and declarations, which alerts apply as searches do (read when needed). */
  searchRules?: () => SearchRuleSources;
}): Webhooks {
  const { clock, logger } = deps;
  const box = createSecretBox(deps.masterSecret, 'webhook-secret');
  const allowPrivate = deps.config.webhookAllowPrivate;
  const outcomes: Record<DeliveryOutcome, number> = { delivered: 0, retry: 0, failed: 0 };
  const dispatcher = createDispatcher({
    store: deps.store,
    clock,
    box,
    logger,
    retrySchedule: deps.config.webhookRetrySchedule,
    allowPrivate,
    allowHttp: (environment) => environment === 'testing',
    onOutcome: (outcome) => {
      outcomes[outcome] += 1;
    },
  });
  const service = createWebhookService({
    store: deps.store,
    box,
    clock,
    audit: deps.audit,
    allowPrivate,
    onRecorded: () => dispatcher.nudge(),
    claimAtBirth: dispatcher.claimAtBirth,
  });
  const environments: Environment[] = ['production', 'testing'];
  const sources = deps.searchRules;
  const percolator = createPercolator({
    store: deps.percolatorStore,
    offers: deps.offerStore,
    environments,
    clock,
    logger,
    recordEvents: service.recordEvents,
    onRecorded: (births) => dispatcher.nudge(births),
    searchRules: sources && ((environment) => readSearchRules(sources(), environment)),
  });
  const checkKeyExpiry = createKeyExpiryCheck({ db: deps.db, clock, recordEvent: service.recordEvent });
  const timers: NodeJS.Timeout[] = [];
  let percolating: Promise<unknown> | null = null;
  let started = false;
  /** A run asked for while one ran (writes it may have missed): one more follows it. */
  let again = false;
  let lastRun = Number.NEGATIVE_INFINITY;
  let soon: NodeJS.Timeout | null = null;
  /** The filing at start or a matching run, as the one running; a run asked for meanwhile follows it. */
  const running = (work: Promise<unknown>): Promise<unknown> => {
    percolating = work.finally(() => {
      percolating = null;
      if (again) {
        again = false;
        offersWritten();
      }
    });
    return percolating;
  };
  /** A matching run, unless one runs: then one more after it. */
  const percolate = (): Promise<unknown> => {
    if (percolating !== null) {
      again = true;
      return percolating;
    }
    lastRun = performance.now();
    return running(percolator.runOnce());
  };
  function offersWritten(): void {
    if (!started || soon !== null) return;
    soon = setTimeout(
      () => {
        soon = null;
        percolate().catch((error) => logger.warn({ err: error }, 'saved-search matching failed'));
      },
      Math.max(0, lastRun + PERCOLATE_SPACING_MS - performance.now()),
    );
    soon.unref();
  }
  const every = (ms: number, fn: () => Promise<unknown>, what: string) => {
    const timer = setInterval(() => {
      fn().catch((error) => logger.warn({ err: error }, `${what} failed`));
    }, ms);
    timer.unref();
    timers.push(timer);
  };
  return {
    service,
    dispatcher,
    percolator,
    checkKeyExpiry,
    start(pollMs) {
      dispatcher.start(pollMs);
      started = true;
      // The saved searches filed before the first write has to wait for them.
      running(
        percolator.warm().catch((error) => logger.warn({ err: error }, 'filing saved searches failed')),
      );
      every(pollMs, () => percolating ?? percolate(), 'saved-search matching');
      every(KEY_EXPIRY_CHECK_MS, checkKeyExpiry, 'key expiry check');
    },
    offersWritten,
    async stop() {
      started = false;
      if (soon !== null) clearTimeout(soon);
      soon = null;
      for (const timer of timers.splice(0)) clearInterval(timer);
      await percolating?.catch(() => undefined);
      await percolator.close();
      await dispatcher.stop();
    },
    registerMetrics(registry) {
      const seen: Record<DeliveryOutcome, number> = { delivered: 0, retry: 0, failed: 0 };
      new Counter({
        name: 'vitrine_webhook_deliveries_total',
        help: 'Webhook delivery attempts made by this process, by outcome: delivered, retry (failed, another attempt scheduled), failed (gave up).',
        labelNames: ['outcome'] as const,
        registers: [registry],
        collect() {
          for (const outcome of Object.keys(outcomes) as DeliveryOutcome[]) {
            this.inc({ outcome }, outcomes[outcome] - seen[outcome]);
            seen[outcome] = outcomes[outcome];
          }
        },
      });
      const queue = () => deps.store.queue();
      new Gauge({
        name: 'vitrine_webhook_queue_depth',
        help: 'Webhook deliveries pending (first attempt or retry), all instances.',
        registers: [registry],
        async collect() {
          this.set((await queue()).pending);
        },
      });
      new Gauge({
        name: 'vitrine_webhook_oldest_pending_seconds',
        help: 'Age of the oldest pending webhook delivery (0: none pending).',
        registers: [registry],
        async collect() {
          const { oldestCreatedAt } = await queue();
          this.set(oldestCreatedAt === null ? 0 : Math.max(0, (clock.now() - oldestCreatedAt) / 1000));
        },
      });
    },
  };
}
