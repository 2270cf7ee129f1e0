import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import { NO_ATTRIBUTES, type SearchIndex, type SearchSchema } from '../search/engine.js';
import { Index } from '../search/index/search-index.js';
import { applyRange, type PageSource, readInto, type SchemaSource, startPages } from './index-build.js';

export { type SchemaSource, toIndexDocument } from './index-build.js';
export type { LiveIndex } from './live-index-model.js';

import type { IndexReader } from './index-reader.js';
import type { IndexSnapshots } from './index-snapshots.js';
import type { LiveIndex } from './live-index-model.js';
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
/** Rows per read, at start and per catch-up page. */
const PAGE_SIZE = 5_000;

/**
 * A snapshot is written again once this many offer writes were applied since the last one, and
 * at least this share of the index (ADR 0024), no sooner than SNAPSHOT_MIN_INTERVAL_MS after it.
 */
const SNAPSHOT_AFTER_WRITES = 50_000;
const SNAPSHOT_AFTER_SHARE = 0.05;
const SNAPSHOT_MIN_INTERVAL_MS = 10 * 60_000;
/**
 * Issue 26: every write of an offer gives it a new slot and leaves the old one dead, so an index
 * under writes grew without bound. Once the dead slots reach this many and this share of the live
 * offers, a fresh index is built from the database (off the event loop, as at start) and put in
 * place of the old one between two catch-ups.
 */
const REBUILD_AFTER_DEAD = 100_000;
const REBUILD_AFTER_DEAD_SHARE = 0.25;

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
  /** When the index is rebuilt for its dead slots (default: the constants above; tests lower it). */
  rebuildAfter?: { dead: number; share: number };
}): LiveIndex {
  const { environment, store, logger, snapshots } = deps;
  const PAGE = deps.pageSize ?? PAGE_SIZE;
  const now = deps.now ?? Date.now;
  const source: PageSource = { environment, store, page: PAGE, reader: deps.reader, logger };
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
  const rebuildRule = deps.rebuildAfter ?? { dead: REBUILD_AFTER_DEAD, share: REBUILD_AFTER_DEAD_SHARE };
  /** Added to the index's own version: a rebuilt index starts past the one it replaced. */
  let versionBase = 0;
  let rebuilding: Promise<void> | null = null;
  /** A rebuilt index waiting to replace the current one at the next catch-up, and where it starts. */
  let replacement: { fresh: SearchIndex; from: number; schemaVersion: number } | null = null;

  /** Applies the changes committed past `applied`; resolves to how many rows it applied. */
  async function applyChanges(): Promise<number> {
    const started = performance.now();
    if (replacement) await replace(replacement);
    const to = await store.changeSeq(environment);
    if (to <= applied) {
      checkedAt = started;
      return 0;
    }
    const count = await applyRange(source, index, applied, to);
    applied = to;
    checkedAt = started;
    sinceSnapshot += count;
    return count;
  }

  /** Puts a rebuilt index in place (between catch-ups): brought up to `applied` first. */
  async function replace(next: { fresh: SearchIndex; from: number; schemaVersion: number }): Promise<void> {
    replacement = null;
    // Declarations changed while it was built: the re-index already put a newer index in place.
    if (next.schemaVersion !== schemaVersion) return;
    if (next.from < applied) await applyRange(source, next.fresh, next.from, applied);
    next.fresh.warm?.(now());
    versionBase += index.version + 1 - next.fresh.version;
    index = next.fresh;
  }

  /** Whether the dead slots are worth a rebuild (an index that does not say how many: never). */
  function rebuildDue(): boolean {
    const slots = (index as { slots?: number }).slots;
    if (slots === undefined || rebuilding || replacement) return false;
    const dead = slots - index.size;
    return dead >= rebuildRule.dead && dead >= rebuildRule.share * index.size;
  }

  /** Builds a fresh index from the database while the current one serves; the next catch-up swaps them. */
  function rebuild(): void {
    rebuilding = (async () => {
      const started = performance.now();
      const dead = ((index as { slots?: number }).slots ?? 0) - index.size;
      const built = { schema, schemaVersion };
      const fresh = deps.createIndex(built.schema);
      const from = await store.changeSeq(environment);
      for await (const docs of startPages(source, built.schema.attributes))
        for (const doc of docs) fresh.upsert(doc);
      fresh.finishBuild?.();
      replacement = { fresh, from, schemaVersion: built.schemaVersion };
      logger.info(
        {
          environment,
          offers: fresh.size,
          deadSlots: dead,
          seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        },
        'search index: rebuilt without its dead slots',
      );
    })()
      .catch((error: unknown) => logger.error({ err: error, environment }, 'search index rebuild failed'))
      .finally(() => {
        rebuilding = null;
      });
  }

  /** Starts writing a snapshot of the index as it is now (call between catch-ups only). */
  function snapshot(): Promise<void> {
    // With its attribute columns and the declarations' fingerprint (ADR 0039).
    if (!snapshots || !(index instanceof Index) || saving) return saving ?? Promise.resolve();
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
    // Only one built under the declarations of now (its header's fingerprint, ADR 0039).
    if (!snapshots || !(index instanceof Index)) return false;
    const loaded = await snapshots.load(
      environment,
      await store.changeSeq(environment),
      index.tuning,
      schema,
    );
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

  /** Every offer read into `target` (start-up and re-index alike). */
  async function readAll(target: SearchIndex, started: number): Promise<void> {
    const expected = await store.count(environment);
    const pages = startPages(source, target.schema.attributes);
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
    const fresh = deps.createIndex({ attributes: settings.attributes, rankBy: settings.rankBy ?? null });
    const from = await store.changeSeq(environment);
    await readAll(fresh, started);
    let caughtUp = from;
    // Most changes meanwhile applied before waiting for the catch-ups of the old index.
    const to = await store.changeSeq(environment);
    await applyRange(source, fresh, caughtUp, to);
    caughtUp = to;
    while (running || queued) await (queued ?? running);
    const swap = async () => {
      const last = await store.changeSeq(environment);
      await applyRange(source, fresh, caughtUp, last);
      fresh.finishBuild?.();
      fresh.warm?.(now());
      versionBase += index.version + 1 - fresh.version;
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
        if (rebuildDue()) rebuild();
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
    get version() {
      return versionBase + index.version;
    },
    get checkedAt() {
      return checkedAt;
    },
    async build() {
      const started = performance.now();
      const settings = await deps.schemas?.read(environment);
      if (settings && settings.attributes.length > 0) {
        schema = { attributes: settings.attributes, rankBy: settings.rankBy ?? null };
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
      await rebuilding;
      await saving;
      if (!ready || sinceSnapshot === 0) return;
      // Between catch-ups: wait for the one under way (a catch-up never rejects).
      while (running || queued) await (queued ?? running);
      await snapshot();
    },
  };
}
