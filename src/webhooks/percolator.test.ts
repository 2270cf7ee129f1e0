import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { IndexRow } from '../offers/store.js';
import { ManualClock } from '../platform/clock.js';
import type { PlatformEvent } from '../platform/events.js';
import { createLocalMatcher, type Matcher } from './matcher.js';
import { createPercolator } from './percolator.js';
import type { AlertingSearch, PercolatorStore } from './percolator-store.js';

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

describe('the percolator when its matcher fails (the worker died)', () => {
  it('files every search again in the next round and alerts from its cursor: nothing skipped', async () => {
    const search: AlertingSearch = {
      id: 'svs_1',
      userId: 'usr_1',
      projectId: 'prj_1',
      name: 'Lamps',
      query: { q: 'zircon lamp' },
      sinceSeq: 0,
      createdAt: 0,
    };
    const rows = [row(1, 'off_old', 'Oak table'), row(2, 'off_new', 'Zircon lamp')];
    let cursor = 1;
    const store: PercolatorStore = {
      alertingSearches: async (_environment, since) => (search.createdAt >= since ? [search] : []),
      claimCursor: async () => cursor,
      async commit(_environment, _by, range, matches, _now, onNew) {
        if (matches.length > 0) await onNew({} as never, matches);
        cursor = range.to;
        return { committed: true, gone: [] };
      },
    };
    const local = createLocalMatcher();
    const calls: string[] = [];
    let failNext = true;
    // A matcher that loses what was filed when it fails, as a worker that died does.
    let inner = local;
    const matcher: Matcher = {
      begin(...a) {
        calls.push('begin');
        return inner.begin(...a);
      },
      file(environment, searches) {
        calls.push(`file ${searches.length}`);
        return inner.file(environment, searches);
      },
      remove: (...a) => inner.remove(...a),
      async match(...a) {
        if (failNext) {
          failNext = false;
          inner = createLocalMatcher();
          throw new Error('matching worker exited (1)');
        }
        return inner.match(...a);
      },
      close: async () => undefined,
    };
    const events: PlatformEvent[] = [];
    const percolator = createPercolator({
      store,
      offers: {
        changeSeq: async () => 2,
        changes: async (_environment, range, limit) =>
          rows.filter((r) => r.change_seq > range.from && r.change_seq <= range.to).slice(0, limit),
      },
      environments: ['testing'],
      clock: new ManualClock(0),
      logger: pino({ level: 'silent' }),
      recordEvents: async (_tx, recorded) => {
        events.push(...recorded);
      },
      matcher,
    });
    await expect(percolator.runOnce()).rejects.toThrow('matching worker exited');
    expect(cursor).toBe(1);
    expect(await percolator.runOnce()).toBe(1);
    expect(calls).toEqual(['begin', 'file 1', 'begin', 'file 1']);
    expect(events.map((e) => (e.data.offer as { id: string }).id)).toEqual(['off_new']);
    expect(cursor).toBe(2);
  });
});

describe('the percolator before any saved search has alerts', () => {
  it('starts no matcher and reads no sample until a search with alerts exists, then files it', async () => {
    const searches: AlertingSearch[] = [];
    const rows = [row(1, 'off_1', 'Zircon lamp')];
    let cursor = 0;
    let sampled = 0;
    const store: PercolatorStore = {
      alertingSearches: async (_environment, since) => searches.filter((s) => s.createdAt >= since),
      claimCursor: async () => cursor,
      async commit(_environment, _by, range, matches, _now, onNew) {
        if (matches.length > 0) await onNew({} as never, matches);
        cursor = range.to;
        return { committed: true, gone: [] };
      },
    };
    const local = createLocalMatcher();
    const calls: string[] = [];
    const matcher: Matcher = {
      begin(...a) {
        calls.push('begin');
        return local.begin(...a);
      },
      file(environment, filed) {
        calls.push(`file ${filed.length}`);
        return local.file(environment, filed);
      },
      remove: (...a) => local.remove(...a),
      match: (...a) => local.match(...a),
      close: async () => undefined,
    };
    const events: PlatformEvent[] = [];
    let changeSeq = 1;
    const percolator = createPercolator({
      store,
      offers: {
        changeSeq: async () => changeSeq,
        changes: async (_environment, range, limit) => {
          if (range.from === 0 && range.after === null && limit > 1_000) sampled += 1;
          return rows.filter((r) => r.change_seq > range.from && r.change_seq <= range.to).slice(0, limit);
        },
      },
      environments: ['testing'],
      clock: new ManualClock(0),
      logger: pino({ level: 'silent' }),
      recordEvents: async (_tx, recorded) => {
        events.push(...recorded);
      },
      matcher,
    });
    await percolator.warm();
    expect(await percolator.runOnce()).toBe(0);
    expect(calls).toEqual([]);
    expect(sampled).toBe(0);
    expect(cursor).toBe(1);

    searches.push({
      id: 'svs_1',
      userId: 'usr_1',
      projectId: 'prj_1',
      name: 'Lamps',
      query: { q: 'zircon lamp' },
      sinceSeq: 1,
      createdAt: 5,
    });
    rows.push(row(2, 'off_2', 'Zircon lamp, brass'));
    changeSeq = 2;
    expect(await percolator.runOnce()).toBe(1);
    expect(calls).toEqual(['begin', 'file 1']);
    expect(sampled).toBe(1);
    expect(events.map((e) => (e.data.offer as { id: string }).id)).toEqual(['off_2']);
  });
});
