import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Queryable } from '../db/database.js';
import type { IndexRow } from '../offers/store.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { PlatformEvent } from '../platform/events.js';
import type { Births } from './dispatcher.js';
import { SAMPLE } from './filed-searches.js';
import { createWorkerMatcher, type Matcher, type Pair } from './matcher.js';
import { NO_RULES, type SearchRules } from './offer-matching.js';
import type { AlertingSearch, PercolatorStore } from './percolator-store.js';

/** Offer write transactions matched per round (one round, one commit). */
const SEQS_PER_ROUND = 2;
/** Rounds per environment per run (the next run continues). */
const MAX_ROUNDS = 50;
/** Offer rows read and matched per page of changes (each page's alerts committed at once). */
const PAGE = 500;
/** How long a claim on an environment's cursor holds without being renewed. */
const CLAIM_MS = 60_000;
/** Saved searches are re-read from this far before the newest one seen (clocks of instances differ). */
const SLACK_MS = 5 * 60_000;

/** What the percolator reads of the offers (offers/store.ts). */
export interface OfferChanges {
  changeSeq(environment: Environment): Promise<number>;
  changes(
    environment: Environment,
    range: { from: number; to: number; after: { changeSeq: number; id: string } | null },
    limit: number,
  ): Promise<IndexRow[]>;
}

/**
 * Saved-search alerts (issue 24), as a percolator: the saved searches with alerts are filed in
 * memory under the keys of their rarest unit (offer-matching.ts `queryAnchors`, filed-searches.ts),
 * in a worker thread (matcher.ts); each offer written is looked up by its own keys, so only the
 * saved searches that can match it are checked, never all of them. The offers change sequence (ADR 0015) is the durable record
 * of what changed: one instance at a time claims an environment's cursor, matches the changes
 * past it and, in one transaction, records each new (saved search, offer) pair, its
 * `saved_search.matched` event, and the cursor's new value. A crash before that commit loses
 * nothing: the next claim matches the same changes again.
 */
export interface Percolator {
  /** One round for each environment; resolves to the events recorded. */
  runOnce(): Promise<number>;
  /** Forgets the filed searches (they are read again on the next round). */
  reset(): void;
  /** Files the saved searches of every environment now (`serve` at start), not at the first write. */
  warm(): Promise<void>;
  /**
   * (Offer, saved query) pairs checked so far (candidates), searches filed now (never all per
   * offer), and the time spent matching (the matching worker's busy time).
   */
  stats(): { checked: number; filed: number; matchMs: number };
  /**
   * Stops the matching worker and gives up its claims on the cursors (after the last round): a
   * process started next does not wait `CLAIM_MS` for them (a killed one's still expire).
   */
  close(): Promise<void>;
}

/** What the percolator keeps of an environment's filed searches (the matcher files them). */
interface Known {
  rules: SearchRules;
  byId: Map<string, AlertingSearch>;
  /** The newest search's creation time (the next read starts a little before it). */
  newest: number;
}

/** An alert's offer, as its event describes it. */
type AlertDoc = Pick<IndexRow, 'id' | 'title' | 'category' | 'city' | 'country' | 'published_at'>;

export function createPercolator(deps: {
  store: PercolatorStore;
  offers: OfferChanges;
  environments: readonly Environment[];
  clock: Clock;
  logger: Logger;
  /**
   * Records events inside the round's transaction (the webhook service's `recordEvents`); what it
   * resolves to is handed to `onRecorded` once committed (deliveries claimed at birth).
   */
  recordEvents: (tx: Queryable, events: readonly PlatformEvent[]) => Promise<Births | undefined>;
  /** After a round recorded events (a dispatcher pass soon), with what `recordEvents` gave. */
  onRecorded?: (births?: Births) => void;
  /** The environment's synonyms and declared attributes (none: the engine's defaults). */
  searchRules?: (environment: Environment) => Promise<SearchRules>;
  /** Where searches are filed and offers matched (default: a worker thread, matcher.ts). */
  matcher?: Matcher;
}): Percolator {
  const { store, clock } = deps;
  const matcher = deps.matcher ?? createWorkerMatcher();
  const instance = `prc_${randomBytes(8).toString('hex')}`;
  const known = new Map<Environment, Known>();
  let running: Promise<number> | null = null;
  let checked = 0;
  /** Time spent matching (in the matcher, off the event loop by default). */
  let matchMs = 0;

  /**
   * A matcher call; when it fails (the worker died), nothing filed is trusted any more: the next
   * round files every environment's searches again in the new worker, and matches from its cursor.
   */
  async function matching<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      known.clear();
      generation += 1;
      throw error;
    }
  }

  /** Refreshes in flight: `warm` and a round at once share one (two would each file every search). */
  const refreshing = new Map<Environment, Promise<Known>>();
  function refresh(environment: Environment): Promise<Known> {
    let pending = refreshing.get(environment);
    if (pending === undefined) {
      pending = refreshNow(environment).finally(() => refreshing.delete(environment));
      refreshing.set(environment, pending);
    }
    return pending;
  }

  /** Bumped by `reset`: a refresh begun before it files nothing for later rounds. */
  let generation = 0;
  async function refreshNow(environment: Environment): Promise<Known> {
    const began = generation;
    const rules = (await deps.searchRules?.(environment)) ?? NO_RULES;
    let k = known.get(environment);
    // New synonyms or declarations: every saved query is compiled and filed again.
    if (k?.rules.version !== rules.version) k = undefined;
    const since = k === undefined || k.byId.size === 0 ? 0 : k.newest - SLACK_MS;
    // Known searches are not read again (a burst of saves stays in the window for SLACK_MS).
    const byId = k?.byId;
    const searches = await store.alertingSearches(
      environment,
      since,
      byId === undefined ? undefined : (id) => byId.has(id),
    );
    // No search with alerts yet: no sample read and no matcher started (a worker thread costs
    // memory in every serving process); the next round looks again.
    if (k === undefined && searches.length === 0) return { rules, byId: new Map(), newest: 0 };
    if (k === undefined) {
      k = { rules, byId: new Map(), newest: 0 };
      // The keys' counts before any search is filed: a sample of the environment's offers.
      const to = await deps.offers.changeSeq(environment);
      const sample = await deps.offers.changes(environment, { from: 0, to, after: null }, SAMPLE);
      if (began !== generation) return k;
      await matching(() => matcher.begin(environment, rules, sample));
    }
    if (began !== generation) return k;
    known.set(environment, k);
    const added: AlertingSearch[] = [];
    for (const search of searches) {
      if (k.byId.has(search.id)) continue;
      k.byId.set(search.id, search);
      k.newest = Math.max(k.newest, search.createdAt);
      added.push(search);
    }
    if (began === generation) await matching(() => matcher.file(environment, added));
    return k;
  }

  /** One round: the next few offer writes past the cursor; null when there were none. */
  async function round(environment: Environment): Promise<number | null> {
    const now = clock.now();
    const from = await store.claimCursor(environment, instance, now + CLAIM_MS, now);
    if (from === null) return null;
    // A few write transactions (import batches) per round, each round committed: the first
    // batches' alerts leave while the next are matched.
    const to = Math.min(await deps.offers.changeSeq(environment), from + SEQS_PER_ROUND);
    if (to <= from) return null;
    const k = await refresh(environment);
    let recorded = 0;
    /**
     * Records the pairs found so far in one transaction with their events; the cursor moves to
     * `to` with the last page only (before it, `to` is `from`: the claim is checked, nothing moves).
     * Matches are recorded once whatever happens, so a crash after an early page repeats only work.
     */
    const commit = async (pairs: Pair[], docs: Map<string, AlertDoc>, until: number) => {
      const before = recorded;
      let births: Births | undefined;
      const { committed, gone } = await store.commit(
        environment,
        instance,
        { from, to: until },
        pairs,
        now,
        async (tx, matches) => {
          recorded += matches.length;
          births = await deps.recordEvents(
            tx,
            matches.map((m) => {
              const search = k.byId.get(m.searchId) as AlertingSearch;
              const doc = docs.get(m.offerId);
              return {
                projectId: search.projectId,
                environment,
                type: 'saved_search.matched',
                data: {
                  savedSearch: { id: search.id, name: search.name },
                  user: { id: search.userId },
                  offer: doc && {
                    id: doc.id,
                    title: doc.title,
                    category: doc.category,
                    city: doc.city,
                    country: doc.country,
                    publishedAt: new Date(Number(doc.published_at)).toISOString(),
                  },
                },
              };
            }),
          );
        },
      );
      for (const id of gone) k.byId.delete(id);
      if (gone.length > 0) await matching(() => matcher.remove(environment, gone));
      // Only once committed: the deliveries of a rolled-back round do not exist.
      if (committed && recorded > before) deps.onRecorded?.(births);
      return committed;
    };
    /** A page's rows and their matching, started (the worker takes pages in order). */
    type Page = { rows: IndexRow[]; found: Promise<Awaited<ReturnType<Matcher['match']>>> | null };
    const page = async (after: { changeSeq: number; id: string } | null): Promise<Page> => {
      const rows = await deps.offers.changes(environment, { from, to, after }, PAGE);
      const found =
        rows.length > 0 && k.byId.size > 0 ? matching(() => matcher.match(environment, rows, now)) : null;
      // Awaited below, unless the round stops first (a lost claim): never an unhandled rejection.
      found?.catch(() => undefined);
      return { rows, found };
    };
    let current = await page(null);
    for (;;) {
      const { rows } = current;
      const done = rows.length < PAGE;
      const last = rows[rows.length - 1] as IndexRow;
      // Pipelined: the next page is read and queued to the matcher before this one's matches are
      // awaited and committed, so the worker matches while the event loop reads and commits.
      const next = done ? null : await page({ changeSeq: last.change_seq, id: last.id });
      const pairs: Pair[] = [];
      const docs = new Map<string, AlertDoc>();
      if (current.found !== null) {
        const found = await current.found;
        checked += found.checked;
        matchMs += found.busyMs;
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const p of found.pairs) {
          pairs.push(p);
          docs.set(p.offerId, byId.get(p.offerId) as IndexRow);
        }
      }
      // A page's alerts leave before the next page's are awaited (an import batch is one write).
      if (done || pairs.length > 0) {
        if (!(await commit(pairs, docs, done ? to : from))) return null;
      }
      if (next === null) return recorded;
      current = next;
    }
  }

  return {
    async runOnce() {
      if (running) return running;
      running = (async () => {
        let total = 0;
        try {
          for (const environment of deps.environments) {
            for (let i = 0; i < MAX_ROUNDS; i += 1) {
              const recorded = await round(environment);
              if (recorded === null) break;
              total += recorded;
            }
          }
        } finally {
          running = null;
        }
        if (total > 0) deps.onRecorded?.();
        return total;
      })();
      return running;
    },
    reset: () => {
      known.clear();
      refreshing.clear();
      generation += 1;
    },
    async warm() {
      for (const environment of deps.environments) await refresh(environment);
    },
    stats: () => ({
      checked,
      filed: [...known.values()].reduce((n, k) => n + k.byId.size, 0),
      matchMs,
    }),
    async close() {
      await matcher.close();
      await store
        .releaseCursors(instance)
        .catch((error) => deps.logger.warn({ err: error }, 'releasing the percolator cursors failed'));
    },
  };
}
