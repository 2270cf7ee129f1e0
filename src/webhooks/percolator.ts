import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Queryable } from '../db/database.js';
import type { IndexRow } from '../offers/store.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { PlatformEvent } from '../platform/events.js';
import { FiledSearches, SAMPLE } from './filed-searches.js';
import { type AlertOffer, alertOffer, NO_RULES, offerMatches, type SearchRules } from './offer-matching.js';
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
 * memory under the keys an offer must carry to match them (offer-matching.ts `queryAnchors`);
 * each offer written is looked up by its own keys, so only the saved searches that can match it
 * are checked, never all of them. The offers change sequence (ADR 0015) is the durable record
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
  /** (Offer, saved query) pairs checked so far (candidates), and searches filed now: never all per offer. */
  stats(): { checked: number; filed: number; matchCpuMs: number };
}

type Pair = { searchId: string; offerId: string };

export function createPercolator(deps: {
  store: PercolatorStore;
  offers: OfferChanges;
  environments: readonly Environment[];
  clock: Clock;
  logger: Logger;
  /** Records events inside the round's transaction (the webhook service's `recordEvents`). */
  recordEvents: (tx: Queryable, events: readonly PlatformEvent[]) => Promise<void>;
  /** After a round recorded events (a dispatcher pass soon). */
  onRecorded?: () => void;
  /** The environment's synonyms and declared attributes (none: the engine's defaults). */
  searchRules?: (environment: Environment) => Promise<SearchRules>;
}): Percolator {
  const { store, clock } = deps;
  const instance = `prc_${randomBytes(8).toString('hex')}`;
  const filed = new Map<Environment, FiledSearches>();
  let running: Promise<number> | null = null;
  let checked = 0;
  /** CPU time spent matching (synchronous: nothing else runs meanwhile). */
  let matchCpuMs = 0;

  /** Refreshes in flight: `warm` and a round at once share one (two would each file every search). */
  const refreshing = new Map<Environment, Promise<FiledSearches>>();
  function refresh(environment: Environment): Promise<FiledSearches> {
    let pending = refreshing.get(environment);
    if (pending === undefined) {
      pending = refreshNow(environment).finally(() => refreshing.delete(environment));
      refreshing.set(environment, pending);
    }
    return pending;
  }

  /** Bumped by `reset`: a refresh begun before it files nothing for later rounds. */
  let generation = 0;
  async function refreshNow(environment: Environment): Promise<FiledSearches> {
    const began = generation;
    const rules = (await deps.searchRules?.(environment)) ?? NO_RULES;
    let f = filed.get(environment);
    // New synonyms or declarations: every saved query is compiled and filed again.
    if (f?.rules.version !== rules.version) f = undefined;
    if (f === undefined) {
      f = new FiledSearches(environment, rules);
      // The keys' counts before any search is filed: a sample of the environment's offers.
      const to = await deps.offers.changeSeq(environment);
      for (const row of await deps.offers.changes(environment, { from: 0, to, after: null }, SAMPLE))
        f.counts.add(alertOffer(row));
      f.anchoredAt = f.counts.offers;
    } else f.refileSome();
    if (began === generation) filed.set(environment, f);
    const since = f.byId.size === 0 ? 0 : f.newest - SLACK_MS;
    for (const search of await store.alertingSearches(environment, since)) f.add(search);
    return f;
  }

  /** The (search, offer) pairs among `rows` that alert: each offer checked against its candidates. */
  function match(f: FiledSearches, rows: readonly IndexRow[], now: number) {
    const pairs: { searchId: string; offerId: string }[] = [];
    const offers = new Map<string, AlertOffer>();
    for (const row of rows) {
      const offer = alertOffer(row);
      f.counts.add(offer);
      const candidates = f.candidates(offer);
      for (const { search, query } of candidates) {
        // Writes committed before the search was saved never alert it.
        if (query === null || row.change_seq <= search.sinceSeq) continue;
        checked += 1;
        if (offerMatches(offer, query, now, f.rules)) {
          pairs.push({ searchId: search.id, offerId: row.id });
          offers.set(row.id, offer);
        }
      }
    }
    return { pairs, offers };
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
    const f = await refresh(environment);
    let recorded = 0;
    /**
     * Records the pairs found so far in one transaction with their events; the cursor moves to
     * `to` with the last page only (before it, `to` is `from`: the claim is checked, nothing moves).
     * Matches are recorded once whatever happens, so a crash after an early page repeats only work.
     */
    const commit = async (pairs: Pair[], docs: Map<string, AlertOffer['doc']>, until: number) => {
      const before = recorded;
      const { committed, gone } = await store.commit(
        environment,
        instance,
        { from, to: until },
        pairs,
        now,
        (tx, matches) => {
          recorded += matches.length;
          return deps.recordEvents(
            tx,
            matches.map((m) => {
              const search = f.byId.get(m.searchId)?.search as AlertingSearch;
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
                    publishedAt: new Date(doc.publishedAt).toISOString(),
                  },
                },
              };
            }),
          );
        },
      );
      for (const id of gone) f.remove(id);
      if (committed && recorded > before) deps.onRecorded?.();
      return committed;
    };
    let after: { changeSeq: number; id: string } | null = null;
    for (;;) {
      const rows = await deps.offers.changes(environment, { from, to, after }, PAGE);
      const pairs: Pair[] = [];
      const docs = new Map<string, AlertOffer['doc']>();
      if (rows.length > 0 && f.byId.size > 0) {
        const cpu = process.cpuUsage();
        const found = match(f, rows, now);
        const used = process.cpuUsage(cpu);
        matchCpuMs += (used.user + used.system) / 1000;
        for (const p of found.pairs) {
          pairs.push(p);
          docs.set(p.offerId, (found.offers.get(p.offerId) as AlertOffer).doc);
        }
      }
      const done = rows.length < PAGE;
      // A page's alerts leave before the next page is matched (an import batch is one write).
      if (done || pairs.length > 0) {
        if (!(await commit(pairs, docs, done ? to : from))) return null;
      }
      if (done) return recorded;
      const last = rows[rows.length - 1] as IndexRow;
      after = { changeSeq: last.change_seq, id: last.id };
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
      filed.clear();
      refreshing.clear();
      generation += 1;
    },
    async warm() {
      for (const environment of deps.environments) await refresh(environment);
    },
    stats: () => ({
      checked,
      filed: [...filed.values()].reduce((n, f) => n + f.byId.size, 0),
      matchCpuMs,
    }),
  };
}
