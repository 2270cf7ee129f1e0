import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/secret-box.js';
import { type CheckedUrl, checkWebhookUrl, RefusedUrlError, type Resolver } from './address-guard.js';
import { sendWebhook } from './sender.js';
import { signatureHeaders, signingKey } from './signing.js';
import type { AttemptOutcome, ClaimedDelivery, SealedEndpoint, WebhookStore } from './store.js';

/** An endpoint whose every attempt failed for this long is disabled: 5 days (docs/webhooks.md). */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
/** How long a claim holds: longer than one attempt (10 s), so only a dead instance loses it. */
export const CLAIM_MS = 60_000;
/**
 * Deliveries claimed per pass, sent concurrently (at most `MAX_SOCKETS` at a time per receiver,
 * sender.ts): a pass costs a few statements whatever its size, so a burst of alerts goes out in
 * passes of hundreds.
 */
const BATCH = 500;
/**
 * Deliveries claimed at birth and handed to this process's dispatcher, waiting for a pass: past
 * it, events are recorded unclaimed (any instance's next pass reads them) until the queue drains.
 * An alerts burst's backlog (thousands, drained in seconds) fits; a pass lasts at most one
 * attempt's timeout, so a slow receiver leaves some to go stale (`takeHanded`), not lost.
 */
const MAX_HANDED = 20 * BATCH;
/**
 * After an attempt to an endpoint got no answer (a timeout, a lost connection), its requests are
 * sent one at a time per connection for this long, not pipelined (sender.ts): a slow or broken
 * receiver then holds one request per connection, not a queue of them (ADR 0062).
 */
export const PIPELINE_PAUSE_MS = 10 * 60_000;

/**
 * Deliveries recorded claimed by this process's dispatcher (`claimAtBirth`), committed, and handed
 * to it with their bodies: sent without the due read, the claim and the read back of a pass.
 */
export interface Births {
  /** Their claim's end. */
  until: number;
  deliveries: readonly ClaimedDelivery[];
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export interface Dispatcher {
  /** One pass: claims the due deliveries and attempts each; resolves to the attempts made. */
  runOnce(): Promise<number>;
  /** Passes every `pollMs` (real time; every decision in a pass reads the injected clock). */
  start(pollMs: number): void;
  /**
   * Asks for a pass now (after a write recorded an event in this process), once started; with
   * `births`, the deliveries recorded claimed at birth, handed after the commit that recorded
   * them (never before: a rolled-back event is not sent), which the pass sends first.
   */
  nudge(births?: Births): void;
  /**
   * The claim to record new deliveries with, so that this process sends them (`nudge`) without
   * reading them back: only once started, and while few handed ones wait; else null (unclaimed).
   */
  claimAtBirth(): { by: string; until: number } | null;
  /** Stops the passes, then gives up the claims of the handed deliveries not sent yet. */
  stop(): Promise<void>;
}

export function createDispatcher(deps: {
  store: WebhookStore;
  clock: Clock;
  box: SecretBox;
  logger: Logger;
  /** WEBHOOK_RETRY_SCHEDULE: the waits after the 1st, 2nd, … failed attempt; then failed. */
  retrySchedule: readonly number[];
  allowPrivate: boolean;
  /** http allowed (the testing environment's endpoints). */
  allowHttp: (environment: string) => boolean;
  onOutcome?: (outcome: DeliveryOutcome) => void;
  resolve?: Resolver;
  timeoutMs?: number;
}): Dispatcher {
  const { store, clock, logger } = deps;
  const instance = `dsp_${randomBytes(8).toString('hex')}`;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  /** Births handed after their commit, oldest first, and how many deliveries they hold. */
  const handed: Births[] = [];
  let handedCount = 0;
  /** Endpoints sent one request at a time per connection, until when (`PIPELINE_PAUSE_MS`). */
  const unpipelinedUntil = new Map<string, number>();
  function pipelined(endpointId: string, now: number): boolean {
    const until = unpipelinedUntil.get(endpointId);
    if (until === undefined) return true;
    if (until > now) return false;
    unpipelinedUntil.delete(endpointId);
    return true;
  }
  /**
   * Up to `limit` handed deliveries whose claim outlasts an attempt with room to spare (as a claim
   * a pass takes does): those waiting longer are dropped, and any instance's pass reads them once
   * their claim has run out.
   */
  function takeHanded(now: number, limit: number): ClaimedDelivery[] {
    const taken: ClaimedDelivery[] = [];
    while (handed.length > 0 && taken.length < limit) {
      const births = handed[0] as Births;
      const fresh = births.until - now > CLAIM_MS / 2;
      const room = limit - taken.length;
      const part = births.deliveries.length <= room ? births.deliveries : births.deliveries.slice(0, room);
      if (part === births.deliveries) handed.shift();
      else handed[0] = { until: births.until, deliveries: births.deliveries.slice(room) };
      handedCount -= part.length;
      if (fresh) taken.push(...part);
    }
    return taken;
  }

  type Attempted = { delivery: ClaimedDelivery; endpoint: SealedEndpoint; outcome: AttemptOutcome };
  /**
   * An endpoint as a pass sends to it: its URL checked (the host resolved, every address
   * checked, the connections made to the checked one) and its secrets opened, once per pass for
   * all the pass's attempts to it; or why nothing is sent.
   */
  type Prepared = { endpoint: SealedEndpoint } & (
    | { target: CheckedUrl; keys: Buffer[]; refused: null }
    | { target: null; keys: null; refused: string }
  );

  async function prepare(endpoint: SealedEndpoint, now: number): Promise<Prepared> {
    if (endpoint.state !== 'enabled')
      return {
        endpoint,
        target: null,
        keys: null,
        refused: `endpoint disabled: ${endpoint.disabledReason ?? ''}`,
      };
    try {
      const target = await checkWebhookUrl(endpoint.url, {
        allowHttp: deps.allowHttp(endpoint.environment),
        allowPrivate: deps.allowPrivate,
        resolve: deps.resolve,
      });
      const keys = [signingKey(deps.box.open(endpoint.secretSealed))];
      if (endpoint.previousSecretSealed && (endpoint.previousSecretUntil ?? 0) > now) {
        keys.push(signingKey(deps.box.open(endpoint.previousSecretSealed)));
      }
      return { endpoint, target, keys, refused: null };
    } catch (e) {
      if (!(e instanceof RefusedUrlError)) throw e;
      return { endpoint, target: null, keys: null, refused: `URL refused: ${e.message}` };
    }
  }

  /** One attempt (nothing recorded yet); undefined when the endpoint was removed meanwhile. */
  async function attempt(
    delivery: ClaimedDelivery,
    endpointOf: (id: string) => Promise<Prepared | undefined>,
  ): Promise<Attempted | undefined> {
    const prepared = await endpointOf(delivery.endpointId);
    if (!prepared) return undefined; // removed: its deliveries went with it
    const { endpoint } = prepared;
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = prepared.refused;
    if (prepared.target !== null) {
      const now = clock.now();
      const headers = signatureHeaders(prepared.keys, delivery.id, now, delivery.body);
      ({ status, error } = await sendWebhook(
        prepared.target,
        headers,
        delivery.body,
        deps.timeoutMs,
        pipelined(endpoint.id, now),
      ));
      if (status === null) unpipelinedUntil.set(endpoint.id, clock.now() + PIPELINE_PAUSE_MS);
    }
    const wait = deps.retrySchedule[delivery.attempts];
    const next =
      error === null
        ? 'delivered'
        : endpoint.state === 'enabled' && wait !== undefined
          ? clock.now() + wait
          : null;
    return { delivery, endpoint, outcome: { status, error, latencyMs: performance.now() - started, next } };
  }

  /** After the outcomes are recorded: an endpoint failing for 5 days is disabled. */
  async function disableIfFailing(endpoint: SealedEndpoint, error: string, now: number): Promise<void> {
    const since = (await store.endpoint(endpoint.id))?.failingSince ?? null;
    if (since === null || now - since < DISABLE_AFTER_MS) return;
    await store.disable(
      endpoint.id,
      `Every delivery failed since ${new Date(since).toISOString()} (5 days); the last: ${error}. Fix the receiver, then add the endpoint again.`,
    );
    logger.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after failing for 5 days');
  }

  async function pass(): Promise<number> {
    const now = clock.now();
    const claimed = takeHanded(now, BATCH);
    // The due ones (retries, events recorded unclaimed, a dead instance's) fill the pass; a pass
    // full of handed ones leaves them to the next, and handed ones stop being claimed at
    // MAX_HANDED, so they wait at most a few passes.
    if (claimed.length < BATCH) {
      const ids = await store.due(now, BATCH - claimed.length);
      claimed.push(...(await store.claimMany(ids, instance, now + CLAIM_MS, now)));
    }
    // One read, URL check and opening of each endpoint per pass, shared by its deliveries.
    const endpoints = new Map<string, Promise<Prepared | undefined>>();
    const endpointOf = (id: string) => {
      const found =
        endpoints.get(id) ?? store.endpoint(id).then((e) => (e ? prepare(e, clock.now()) : undefined));
      endpoints.set(id, found);
      return found;
    };
    const attempted = (
      await Promise.all(
        claimed.map((d) =>
          attempt(d, endpointOf).catch((error) => {
            logger.error({ err: error, deliveryId: d.id }, 'webhook attempt failed');
            return undefined;
          }),
        ),
      )
    ).filter((a): a is Attempted => a !== undefined);
    // Every outcome of the pass in one transaction (a commit per delivery would bound the rate).
    const finishedAt = clock.now();
    const recorded = await store.finishMany(
      instance,
      attempted.map((a) => ({ id: a.delivery.id, outcome: a.outcome })),
      finishedAt,
    );
    const failing = new Map<string, { endpoint: SealedEndpoint; error: string }>();
    for (const { delivery, endpoint, outcome } of attempted) {
      if (!recorded.has(delivery.id)) continue; // the claim expired and another instance took over
      deps.onOutcome?.(
        outcome.next === 'delivered' ? 'delivered' : outcome.next === null ? 'failed' : 'retry',
      );
      if (outcome.error !== null && endpoint.state === 'enabled') {
        failing.set(endpoint.id, { endpoint, error: outcome.error });
      }
    }
    for (const { endpoint, error } of failing.values()) await disableIfFailing(endpoint, error, finishedAt);
    return claimed.length;
  }

  async function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          const made = await pass();
          total += made;
          if (made === BATCH) again = true;
        } while (again);
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  const tick = () => {
    runOnce().catch((error) => logger.warn({ err: error }, 'webhook dispatch pass failed'));
  };
  return {
    runOnce,
    start(pollMs) {
      if (timer) return;
      timer = setInterval(tick, pollMs);
      timer.unref();
    },
    nudge(births) {
      if (births !== undefined && births.deliveries.length > 0) {
        handed.push(births);
        handedCount += births.deliveries.length;
      }
      // Only where the dispatcher runs (`serve`): a CLI process records events and leaves them.
      if (timer) tick();
    },
    claimAtBirth: () =>
      timer !== null && handedCount < MAX_HANDED ? { by: instance, until: clock.now() + CLAIM_MS } : null,
    async stop() {
      const started = timer !== null;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
      // Deliveries claimed at birth and not sent (not handed yet, or waiting): any instance takes
      // them now, not once their claim runs out. No pass runs: every claim it holds is one of them.
      if (started) {
        handed.length = 0;
        handedCount = 0;
        await store
          .releaseClaims(instance)
          .catch((error) => logger.warn({ err: error }, 'releasing the webhook claims failed'));
      }
    },
  };
}
