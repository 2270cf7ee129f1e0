import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { createIndexReader, type IndexReader } from './index-reader.js';
import { createIndexSnapshots, type IndexSnapshots } from './index-snapshots.js';
import { createSnapshotMarks } from './snapshot-marks.js';

/**
 * Where the search indexes are read from at start (deps.ts hands these to createLiveIndexes): the
 * start-up read in a worker of its own (ADR 0022) and snapshots on local disk (ADR 0024), neither
 * for a database handed in (tests), unless a test opts in to snapshots.
 */
export function indexStartSources(
  config: Config,
  db: Database,
  logger: Logger,
  handedIn: { db: boolean; snapshots: boolean },
): { reader?: IndexReader; snapshots?: IndexSnapshots } {
  const reader =
    config.searchStartWorker && !handedIn.db
      ? createIndexReader(
          config.databaseUrl
            ? { dialect: 'postgres', url: config.databaseUrl }
            : { dialect: 'sqlite', file: config.sqlitePath },
        )
      : undefined;
  const snapshots =
    config.searchSnapshot && (!handedIn.db || handedIn.snapshots)
      ? createIndexSnapshots({
          dir: config.searchSnapshotDir,
          databaseId: async () => {
            const row = await db.get<{ id: string }>('SELECT id FROM database_identity WHERE one = 1');
            if (!row) throw new Error('the database has no identity (migration 80 not applied)');
            return row.id;
          },
          marks: createSnapshotMarks(db),
          logger,
        })
      : undefined;
  return { reader, snapshots };
}
