import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import { type IndexDocument, NO_ATTRIBUTES, type SearchIndex, type SearchSchema } from '../search/engine.js';
import { Index } from '../search/index/search-index.js';
import { readInto, type SchemaSource, toIndexDocument } from './index-build.js';

export { type SchemaSource, toIndexDocument } from './index-build.js';

import type { IndexReader } from './index-reader.js';
import type { IndexSnapshots } from './index-snapshots.js';
import type { OfferStore } from './store.js';

/**
 * The search index of one environment, kept current from the database (issue 12, ADR 0015).
 *
 * Start: the counter `offers:<environment>` is read first, then every offer row is streamed in
 * `seq` order, a page at a time, into a fresh index; then the changes committed meanwhile
 * (change_seq past the counter read first) are applied. Afterwards a change is applied when
 * `catchUp()` is called: by the poll of the counter, by a change-bus message from another
 * process, and by this process's own write path before the write call returns (a process reads
 * its own writes). Catch-ups never overlap: a call while one runs waits for one more run.
 */
export interface LiveIndex {
  readonly environment: Environment;
  readonly index: SearchIndex;
  /** True once the start-up read is done. */
  readonly ready: boolean;
  /** The change sequence applied so far. */
  readonly applied: number;
  /**
   * `performance.now()` when the database's change counter was last read and everything up to it
   * applied (−∞ before): how current the index is known to be (the search cache, ADR 0025).
   */
  readonly checkedAt: number;
  /** Reads every offer and the changes made meanwhile; resolves when the index is ready. */
  build(): Promise<void>;
  /** Applies every change committed so far (a no-op before `build`). Never rejects: logs. */
  catchUp(): Promise<void>;
  /**
   * Re-indexes in the background when the declared attributes changed (polled with the changes,
   * and on the change bus); resolves when that re-index is done. Never rejects: logs.
   */
  checkSchema(): Promise<void>;
  /** The re-index under way, if any. */
  readonly reindexing: Promise<void> | null;
  /** The version of the declarations `index` was built with (0: none ever made). */
  readonly schemaVersion: number;
  /** Starts polling the counter every `pollMs`. */
  startPolling(pollMs: number): void;
  stop(): void;
  /** Stops, and writes a snapshot when changes were applied since the last one (shutdown). */
  close(): Promise<void>;
}

/** Rows per read, at start and per catch-up page. */
const PAGE_SIZE = 5_000;

/**
 * A snapshot is written again once this many offer writes were applied since the last one, and
 * at least this share of the index (ADR 0024), no sooner than SNAPSHOT_MIN_INTERVAL_MS after it.
 */
const SNAPSHOT_AFTER_WRITES = 50_000;
const SNAPSHOT_AFTER_SHARE = 0.05;
const SNAPSHOT_MIN_INTERVAL_MS = 10 * 60_000;

export function createLiveIndex(deps: {
  environment: Environment;
  store: Pick<OfferStore, 'changeSeq' | 'scan' | 'changes' | 'count'>;
  createIndex: (schema: SearchSchema) => SearchIndex;
  /** The declarations to index; a new version is re-indexed in the background (none: no attributes). */
  schemas?: SchemaSource;
  logger: Logger;
  /** Rows per read (tests page with a few). */
  pageSize?: number;
  /**
   * The start-up read off the event loop (offers/index-reader.ts, ADR 0022); without it the
   * start-up pages are read with `store.scan` on this thread.
   */
  reader?: IndexReader;
  /** Snapshots of the index on disk (ADR 0024); absent: every start is a full build. */
  snapshots?: IndexSnapshots;
  /** Milliseconds now (the warm-up's and the snapshot interval's; tests inject a clock). */
  now?: () => number;
  /** When a snapshot is written again after writes (default: the constants above; tests lower it). */
  snapshotAfter?: { writes: number; share: number; intervalMs: number };
}): LiveIndex {
  const { environment, store, logger, snapshots } = deps;
  const PAGE = deps.pageSize ?? PAGE_SIZE;
  const now = deps.now ?? Date.now;
  const rule = deps.snapshotAfter ?? {
    writes: SNAPSHOT_AFTER_WRITES,
    share: SNAPSHOT_AFTER_SHARE,
    intervalMs: SNAPSHOT_MIN_INTERVAL_MS,
  };
  let schema: SearchSchema = NO_ATTRIBUTES;
  let schemaVersion = 0;
  let index = deps.createIndex(schema);
  /** The re-index under way after a change of the declarations (searches use `index` meanwhile). */
  let reindexing: Promise<void> | null = null;
  let recheck: Promise<void> | null = null;
  let ready = false;
  let applied = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  /** Offer writes applied since the last snapshot, when it was written, the write under way. */
  let sinceSnapshot = 0;
  let lastSnapshotAt = Number.NEGATIVE_INFINITY;
  let saving: Promise<void> | null = null;

  /** Applies the changes committed past `applied`; resolves to how many rows it applied. */
  async function applyChanges(): Promise<number> {
    const started = performance.now();
    const to = await store.changeSeq(environment);
    if (to <= applied) {
      checkedAt = started;
      return 0;
    }
    const count = await applyRange(index, applied, to);
    applied = to;
    checkedAt = started;
    sinceSnapshot += count;
    return count;
  }

  /** Applies the changes in (from, to] to `target`; resolves to how many rows. */
  async function applyRange(target: SearchIndex, from: number, to: number): Promise<number> {
    const withAttributes = target.schema.attributes.length > 0;
    let after: { changeSeq: number; id: string } | null = null;
    let count = 0;
    for (;;) {
      const rows = await store.changes(environment, { from, to, after }, PAGE);
      for (const row of rows) target.upsert(toIndexDocument(row, withAttributes));
      count += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) break;
      after = { changeSeq: last.change_seq, id: last.id };
    }
    return count;
  }

  /** Starts writing a snapshot of the index as it is now (call between catch-ups only). */
  function snapshot(): Promise<void> {
    // An index with declared attributes is not written (ADR 0029: the format holds no attribute columns).
    if (!snapshots || !(index instanceof Index) || saving || schema.attributes.length > 0)
      return saving ?? Promise.resolve();
    sinceSnapshot = 0;
    lastSnapshotAt = now();
    saving = snapshots.save(environment, index, applied).finally(() => {
      saving = null;
    });
    return saving;
  }

  function snapshotDue(): boolean {
    return (
      sinceSnapshot > 0 &&
      sinceSnapshot >= Math.max(rule.writes, rule.share * index.size) &&
      now() - lastSnapshotAt >= rule.intervalMs
    );
  }

  /** The environment's snapshot, loaded and brought up to date; false when there is none to use. */
  async function fromSnapshot(started: number): Promise<boolean> {
    // A snapshot holds no attribute columns: with declarations, a full build (ADR 0029).
    if (!snapshots || !(index instanceof Index) || schema.attributes.length > 0) return false;
    const loaded = await snapshots.load(environment, await store.changeSeq(environment), index.tuning);
    if (loaded === null) return false;
    index = loaded.index;
    applied = loaded.applied;
    const caughtUp = await applyChanges();
    // The file on disk is as good as one written now, less the writes just applied.
    sinceSnapshot = caughtUp;
    lastSnapshotAt = now();
    index.warm?.(now());
    ready = true;
    logger.info(
      {
        environment,
        offers: index.size,
        sequence: loaded.applied,
        caughtUp,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      },
      'search index: loaded snapshot',
    );
    return true;
  }

  /** The start-up read on this thread: `seq` pages, the next one asked for before this one is indexed. */
  async function* scanPages(withAttributes: boolean): AsyncGenerator<IndexDocument[]> {
    // On PostgreSQL the database reads the next page while this process analyses the current one.
    let next = store.scan(environment, 0, PAGE);
    for (;;) {
      const rows = await next;
      const tail = rows.at(-1);
      if (tail && rows.length === PAGE) next = store.scan(environment, tail.seq, PAGE);
      yield rows.map((row) => toIndexDocument(row, withAttributes));
      if (!tail || rows.length < PAGE) return;
    }
  }

  /**
   * The start-up pages: from the worker read when there is one; if it fails (the worker cannot
   * open the database, a driver fails in a worker), from the main thread's read, from the start.
   * Offers already indexed are indexed again (an upsert replaces), which costs dead slots, not
   * correctness.
   */
  async function* startPages(withAttributes: boolean): AsyncGenerator<Iterable<IndexDocument>> {
    // The worker's pages carry no attributes: with declarations, the read is on this thread.
    if (deps.reader && !withAttributes) {
      try {
        yield* deps.reader(environment);
        return;
      } catch (error) {
        logger.warn(
          { err: error, environment },
          'search index: the start-up read in a worker failed; reading on the main thread',
        );
      }
    }
    yield* scanPages(withAttributes);
  }

  /** Every offer read into `target` (start-up and re-index alike). */
  async function readAll(target: SearchIndex, started: number): Promise<void> {
    const expected = await store.count(environment);
    const pages = startPages(target.schema.attributes.length > 0);
    await readInto(target, pages, { logger, environment, expected, started, page: PAGE });
  }

  /**
   * A new index with the current declarations, built beside the one that serves; swapped in
   * between two catch-ups once it has every change up to then (ADR 0029).
   */
  async function reindex(): Promise<void> {
    const started = performance.now();
    const settings = await deps.schemas?.read(environment);
    if (!settings || settings.version === schemaVersion) return;
    const fresh = deps.createIndex({ attributes: settings.attributes });
    const from = await store.changeSeq(environment);
    await readAll(fresh, started);
    let caughtUp = from;
    // Most changes meanwhile applied before waiting for the catch-ups of the old index.
    const to = await store.changeSeq(environment);
    await applyRange(fresh, caughtUp, to);
    caughtUp = to;
    while (running || queued) await (queued ?? running);
    const swap = async () => {
      const last = await store.changeSeq(environment);
      await applyRange(fresh, caughtUp, last);
      fresh.finishBuild?.();
      fresh.warm?.(now());
      index = fresh;
      applied = last;
      schema = fresh.schema;
      schemaVersion = settings.version;
      checkedAt = performance.now();
    };
    running = swap().finally(() => {
      running = null;
    });
    await running;
    logger.info(
      {
        environment,
        offers: index.size,
        attributes: schema.attributes.length,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      },
      'search index: re-indexed for new declarations',
    );
  }

  /**
   * Re-indexes when the declarations changed. A call while one runs waits for one more check
   * after it (the version may have changed again meanwhile). Never rejects: logs.
   */
  function checkSchema(): Promise<void> {
    if (!ready || !deps.schemas) return Promise.resolve();
    const source = deps.schemas;
    const check = () =>
      source
        .version(environment)
        .then((version) => (version === schemaVersion ? undefined : reindex()))
        .catch((error: unknown) => logger.error({ err: error, environment }, 'search index re-index failed'));
    if (recheck) return recheck;
    if (!reindexing) {
      reindexing = check().finally(() => {
        reindexing = null;
      });
      return reindexing;
    }
    recheck = reindexing.then(() => {
      recheck = null;
      return checkSchema();
    });
    return recheck;
  }

  function run(): Promise<void> {
    running = applyChanges()
      .then(() => {
        // Synchronously after the catch-up: the index reflects `applied` exactly.
        if (snapshotDue()) void snapshot();
      })
      .catch((error: unknown) => logger.error({ err: error, environment }, 'search index catch-up failed'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    environment,
    get index() {
      return index;
    },
    get ready() {
      return ready;
    },
    get applied() {
      return applied;
    },
    get checkedAt() {
      return checkedAt;
    },
    async build() {
      const started = performance.now();
      const settings = await deps.schemas?.read(environment);
      if (settings && settings.attributes.length > 0) {
        schema = { attributes: settings.attributes };
        index = deps.createIndex(schema);
      }
      schemaVersion = settings?.version ?? 0;
      if (await fromSnapshot(started)) return;
      const from = await store.changeSeq(environment);
      await readAll(index, started);
      applied = from;
      await applyChanges();
      index.finishBuild?.();
      index.warm?.(now());
      ready = true;
      logger.info(
        {
          environment,
          offers: index.size,
          seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        },
        'search index: ready',
      );
      // Right away, so that the next start loads it (a process may be killed, not stopped).
      void snapshot();
    },
    checkSchema,
    get reindexing() {
      return reindexing;
    },
    get schemaVersion() {
      return schemaVersion;
    },
    catchUp() {
      if (!ready) return Promise.resolve();
      if (queued) return queued;
      if (!running) return run();
      // One more run after the current one: it may have read the counter before this change.
      queued = running.then(() => {
        queued = null;
        return run();
      });
      return queued;
    },
    startPolling(pollMs) {
      if (timer) return;
      timer = setInterval(() => {
        if (ready && !running) void this.catchUp();
        void checkSchema();
      }, pollMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    async close() {
      this.stop();
      await saving;
      if (!ready || sinceSnapshot === 0) return;
      // Between catch-ups: wait for the one under way (a catch-up never rejects).
      while (running || queued) await (queued ?? running);
      await snapshot();
    },
  };
}
