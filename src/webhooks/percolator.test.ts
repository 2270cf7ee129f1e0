import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { IndexRow } from '../offers/store.js';
import { ManualClock } from '../platform/clock.js';
import type { PlatformEvent } from '../platform/events.js';
import { createLocalMatcher, type Matcher } from './matcher.js';
import { createPercolator } from './percolator.js';
import type { AlertingSearch, PercolatorStore } from './percolator-store.js';
import type { ClaimedDelivery } from './store.js';

const row = (seq: number, id: string, title: string): IndexRow => ({
  seq,
  change_seq: seq,
  id,
  title,
  description: '',
  category: 'lighting',
  tags: '[]',
  city: 'Lyon',
  country: 'FR',
  currency: 'EUR',
  price_value: 10,
  lat: 45.76,
  lon: 4.83,
  status: 'active',
  published_at: 0,
  updated_at: 0,
  expires_at: null,
  publisher_id: 'pub_1',
  attributes: '{}',
});

const lamps = (sinceSeq: number, createdAt: number): AlertingSearch => ({
  id: 'svs_1',
  userId: 'usr_1',
  projectId: 'prj_1',
  name: 'Lamps',
  query: { q: 'zircon lamp' },
  sinceSeq,
  createdAt,
});

/**
 * A percolator over saved searches and offer rows in memory, whose matcher records its calls
 * (`begin`, `file N`) and delegates to `inner()` (read at each call: a test may swap it).
 */
function harness(t: {
  searches: AlertingSearch[];
  rows: IndexRow[];
  cursor: number;
  changeSeq: number;
  inner: () => Matcher;
  match?: Matcher['match'];
  /** Before each commit (a test may hold it). */
  committing?: () => Promise<void>;
  /** The next commit loses the cursor's claim after recording its events (rolled back). */
  lose?: boolean;
}) {
  const calls: string[] = [];
  const events: PlatformEvent[] = [];
  /** What `recordEvents` gave (deliveries claimed at birth), and what reached `onRecorded`. */
  const births = { recorded: [] as string[], handed: [] as string[] };
  const seen = { sampled: 0 };
  const store: PercolatorStore = {
    alertingSearches: async (_environment, since) => t.searches.filter((s) => s.createdAt >= since),
    claimCursor: async () => t.cursor,
    releaseCursors: async () => undefined,
    async commit(_environment, _by, range, matches, _now, onNew) {
      await t.committing?.();
      if (matches.length > 0) await onNew({} as never, matches);
      if (t.lose) {
        t.lose = false;
        return { committed: false, gone: [] };
      }
      t.cursor = range.to;
      return { committed: true, gone: [] };
    },
  };
  const matcher: Matcher = {
    begin(...a) {
      calls.push('begin');
      return t.inner().begin(...a);
    },
    file(environment, filed) {
      calls.push(`file ${filed.length}`);
      return t.inner().file(environment, filed);
    },
    remove: (...a) => t.inner().remove(...a),
    match: t.match ?? ((...a) => t.inner().match(...a)),
    close: async () => undefined,
  };
  const percolator = createPercolator({
    store,
    offers: {
      changeSeq: async () => t.changeSeq,
      changes: async (_environment, range, limit) => {
        if (range.from === 0 && range.after === null && limit > 1_000) seen.sampled += 1;
        const { after } = range;
        return t.rows
          .filter((r) => r.change_seq > range.from && r.change_seq <= range.to)
          .filter(
            (r) =>
              !after ||
              r.change_seq > after.changeSeq ||
              (r.change_seq === after.changeSeq && r.id > after.id),
          )
          .slice(0, limit);
      },
    },
    environments: ['testing'],
    clock: new ManualClock(0),
    logger: pino({ level: 'silent' }),
    recordEvents: async (_tx, recorded) => {
      events.push(...recorded);
      const id = `births ${births.recorded.length + 1}`;
      births.recorded.push(id);
      return { until: 0, deliveries: [{ id } as ClaimedDelivery] };
    },
    onRecorded: (handed) => {
      for (const d of handed?.deliveries ?? []) births.handed.push(d.id);
    },
    matcher,
  });
  const offerIds = () => events.map((e) => (e.data.offer as { id: string }).id);
  return { percolator, calls, seen, offerIds, births };
}

describe('the percolator when its matcher fails (the worker died)', () => {
  it('files every search again in the next round and alerts from its cursor: nothing skipped', async () => {
    let failNext = true;
    // A matcher that loses what was filed when it fails, as a worker that died does.
    let inner = createLocalMatcher();
    const t = {
      searches: [lamps(0, 0)],
      rows: [row(1, 'off_old', 'Oak table'), row(2, 'off_new', 'Zircon lamp')],
      cursor: 1,
      changeSeq: 2,
      inner: () => inner,
      match: (async (...a) => {
        if (failNext) {
          failNext = false;
          inner = createLocalMatcher();
          throw new Error('matching worker exited (1)');
        }
        return inner.match(...a);
      }) satisfies Matcher['match'],
    };
    const { percolator, calls, offerIds } = harness(t);
    await expect(percolator.runOnce()).rejects.toThrow('matching worker exited');
    expect(t.cursor).toBe(1);
    expect(await percolator.runOnce()).toBe(1);
    expect(calls).toEqual(['begin', 'file 1', 'begin', 'file 1']);
    expect(offerIds()).toEqual(['off_new']);
    expect(t.cursor).toBe(2);
  });
});

describe('the percolator before any saved search has alerts', () => {
  it('starts no matcher and reads no sample until a search with alerts exists, then files it', async () => {
    const local = createLocalMatcher();
    const t = {
      searches: [] as AlertingSearch[],
      rows: [row(1, 'off_1', 'Zircon lamp')],
      cursor: 0,
      changeSeq: 1,
      inner: () => local,
    };
    const { percolator, calls, seen, offerIds } = harness(t);
    await percolator.warm();
    expect(await percolator.runOnce()).toBe(0);
    expect(calls).toEqual([]);
    expect(seen.sampled).toBe(0);
    expect(t.cursor).toBe(1);

    t.searches.push(lamps(1, 5));
    t.rows.push(row(2, 'off_2', 'Zircon lamp, brass'));
    t.changeSeq = 2;
    expect(await percolator.runOnce()).toBe(1);
    expect(calls).toEqual(['begin', 'file 1']);
    expect(seen.sampled).toBe(1);
    expect(offerIds()).toEqual(['off_2']);
  });
});

describe('the percolator over a write of several pages', () => {
  it('hands the next page to the matcher while the alerts of the current one are committed', async () => {
    const local = createLocalMatcher();
    const order: string[] = [];
    // One import batch (one change sequence) of 700 offers: two pages of changes.
    const rows = Array.from({ length: 700 }, (_, i) =>
      row(2, `off_${String(i).padStart(4, '0')}`, 'Zircon lamp'),
    );
    const t = {
      searches: [lamps(1, 0)],
      rows,
      cursor: 1,
      changeSeq: 2,
      inner: () => local,
      match: (async (environment, page, now) => {
        order.push(`match ${page.length}`);
        return local.match(environment, page, now);
      }) satisfies Matcher['match'],
      // A commit takes a few turns of the event loop, as a database's does.
      committing: async () => {
        for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
        order.push('commit');
      },
    };
    const { percolator, offerIds } = harness(t);
    expect(await percolator.runOnce()).toBe(700);
    expect(order).toEqual(['match 500', 'match 200', 'commit', 'commit']);
    expect(new Set(offerIds()).size).toBe(700);
    expect(t.cursor).toBe(2);
  });
});

describe('the percolator and the deliveries it records claimed', () => {
  it('hands them to the dispatcher once their round is committed, never those of a round rolled back', async () => {
    const local = createLocalMatcher();
    const t = {
      searches: [lamps(1, 0)],
      rows: [row(2, 'off_1', 'Zircon lamp')],
      cursor: 1,
      changeSeq: 2,
      inner: () => local,
      lose: true,
    };
    const { percolator, births } = harness(t);
    // The first round records its event, then loses the cursor's claim: its transaction rolls back.
    await percolator.runOnce();
    expect(births).toEqual({ recorded: ['births 1'], handed: [] });
    expect(t.cursor).toBe(1);
    expect(await percolator.runOnce()).toBe(1);
    expect(births).toEqual({ recorded: ['births 1', 'births 2'], handed: ['births 2'] });
    expect(t.cursor).toBe(2);
  });
});
