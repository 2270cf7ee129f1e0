import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Environment } from '../platform/environment.js';
import { NO_ATTRIBUTES, type SearchSchema } from '../search/engine.js';
import type { Index, Tuning } from '../search/index/search-index.js';
import { captureIndex, readIndex, writeIndex } from '../search/snapshot/snapshot.js';
import {
  headerProblem,
  markProblem,
  type SnapshotHeader,
  snapshotHeader,
} from '../search/snapshot/snapshot-header.js';
import { openSnapshot, writeAtomically } from '../search/snapshot/snapshot-io.js';
import type { SnapshotMarks } from './snapshot-marks.js';

/**
 * The search-index snapshots of a process (ADR 0024): one file per environment in
 * SEARCH_SNAPSHOT_DIR, loaded at start when it was taken from this database at a change
 * sequence the database has reached and its mark is in the database (it is of this database's
 * own history, not of a timeline a restored backup discarded), written after a full build, after
 * many changes and at shutdown. Any problem is a warning and a full build, never a failed start.
 */
export interface IndexSnapshots {
  /** The environment's snapshot as an index at its sequence, or null (why: logged). */
  load(
    environment: Environment,
    changeSeq: number,
    tuning: Tuning,
    /** The declarations now (a snapshot built under others is not used); none: no attributes. */
    schema?: SearchSchema,
  ): Promise<{ index: Index; applied: number; header: SnapshotHeader } | null>;
  /**
   * Captures `index` at once (call it between catch-ups: `applied` must be what it reflects),
   * records its mark in the database, then writes it. Never rejects: a failure (of the mark too)
   * is logged, the previous file stays.
   */
  save(environment: Environment, index: Index, applied: number): Promise<void>;
}

/** Temporary files of a writer that may still be alive are removed after this long. */
const STALE_TEMPORARY_MS = 3_600_000;
/** `<file>.<pid>.<time>.tmp` (snapshot-io.ts `writeAtomically`). */
const TEMPORARY = /\.(\d+)\.[0-9a-z]+\.tmp$/;
const STARTED_AT = Date.now() - process.uptime() * 1000;

/**
 * Whether a temporary file's writer is gone (issue 26: a write killed mid-way left 18 MB until
 * the hourly sweep): its process no longer runs, or it is this process's pid from before it
 * started. A live writer's file (another process sharing the directory) is kept an hour.
 */
function writerGone(name: string, mtimeMs: number): boolean {
  const pid = Number(TEMPORARY.exec(name)?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return mtimeMs < STARTED_AT;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function createIndexSnapshots(deps: {
  dir: string;
  /** The database's identity (migration 80). */
  databaseId: () => Promise<string>;
  /** The snapshots' marks in the database (migration 81). */
  marks: SnapshotMarks;
  logger: Logger;
}): IndexSnapshots {
  const { dir, marks, logger } = deps;
  const fileOf = (environment: Environment) => path.join(dir, `${environment}.snapshot`);
  let identity: Promise<string> | null = null;
  const databaseId = () => {
    identity ??= deps.databaseId().catch((error: unknown) => {
      identity = null;
      throw error;
    });
    return identity;
  };

  async function removeStaleTemporaries(): Promise<void> {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.tmp'))) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && (Date.now() - stat.mtimeMs > STALE_TEMPORARY_MS || writerGone(name, stat.mtimeMs))) {
        await fs.rm(file, { force: true });
      }
    }
  }

  return {
    async load(environment, changeSeq, tuning, schema = NO_ATTRIBUTES) {
      const file = fileOf(environment);
      const started = performance.now();
      let opened: Awaited<ReturnType<typeof openSnapshot>> | null = null;
      try {
        await removeStaleTemporaries();
        try {
          opened = await openSnapshot(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            logger.info({ environment, file }, 'search index: no snapshot; building from the database');
            return null;
          }
          throw error;
        }
        const header = await opened.reader.json<SnapshotHeader>();
        const problem =
          headerProblem(header, { environment, databaseId: await databaseId(), changeSeq, schema }) ??
          markProblem(header, (await marks.find(environment, header.mark))?.applied ?? null);
        if (problem !== null) {
          logger.warn(
            { environment, file, problem },
            'search index: snapshot not used; building from the database',
          );
          return null;
        }
        const index = await readIndex(opened.reader, tuning, schema);
        logger.info(
          {
            environment,
            offers: index.size,
            sequence: header.applied,
            seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
          },
          'search index: read snapshot',
        );
        return { index, applied: header.applied, header };
      } catch (error) {
        logger.warn(
          { environment, file, err: error },
          'search index: snapshot could not be read; building from the database',
        );
        return null;
      } finally {
        await opened?.close().catch(() => undefined);
      }
    },

    async save(environment, index, applied) {
      // Synchronously, before any await: the index as it is at `applied`.
      const capture = captureIndex(index);
      const started = performance.now();
      const file = fileOf(environment);
      try {
        const of = { environment, databaseId: await databaseId(), applied, mark: randomUUID() };
        // The mark first, committed: a file whose mark could not be written is never written.
        await marks.add({ environment, token: of.mark, applied, createdAt: Date.now() });
        const header = snapshotHeader(capture, of);
        const bytes = await writeAtomically(file, async (writer) => {
          await writer.json(header);
          await writeIndex(writer, index, capture);
        });
        logger.info(
          {
            environment,
            offers: capture.live,
            sequence: applied,
            megabytes: Math.round(bytes / 2 ** 20),
            seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
          },
          'search index: wrote snapshot',
        );
      } catch (error) {
        logger.warn({ environment, file, err: error }, 'search index: snapshot could not be written');
      }
    },
  };
}
