import { DatabaseUnavailableError } from '../db/database.js';
import type { Environment } from '../platform/environment.js';
import type { SourceRow } from './import-source.js';
import type { OfferInput } from './offer-input.js';
import { parseOfferRecord } from './offer-record.js';
import type { OfferService } from './service.js';

/**
 * `vitrine import` without the terminal: validates each row with the one offer definition
 * (offer-record.ts), keeps the valid ones and upserts them by externalId in batches. Each
 * batch commits on its own (one store transaction), so a killed import leaves whole offers
 * only, and re-running the file rewrites the same offers to the same final state.
 *
 * While one batch is being written, the next is read and checked: on PostgreSQL the database
 * works in its own process meanwhile (ADR 0012). Batches are still written one at a time and
 * in file order, so a later row with the same externalId still wins.
 *
 * Issue 13: rows are fully checked first (offer-record.ts refuses what either database would),
 * and should a batch still fail, it is written again row by row: the rows the database
 * refuses are reported with their line numbers, every other row is kept. An unreachable
 * database is not a bad row: that error ends the import as before.
 */
export interface InvalidRow {
  line: number;
  reason: string;
}

export interface ImportStats {
  /** The import stopped reading: more than `maxInvalid` invalid rows. */
  stopped?: boolean;
  rows: number;
  valid: number;
  inserted: number;
  updated: number;
  skipped: number;
}

export interface ImportOptions {
  offers: OfferService;
  environment: Environment;
  rows: AsyncIterable<SourceRow>;
  /** Validate only: nothing is written. */
  dryRun: boolean;
  /** Offers handed to the store at a time. */
  batchSize?: number;
  onInvalid(row: InvalidRow): void;
  onProgress(stats: ImportStats): void;
  /** Whether an invalid row still needs its reason (issue 26: past the listed ones, only counted). */
  describeInvalid?(): boolean;
  /** Stop reading after this many invalid rows; what was validated before is still written. */
  maxInvalid?: number;
}

interface Pending {
  line: number;
  offer: OfferInput;
}

/** The store's transaction size (store-sql.ts), so each batch is one transaction. */
const DEFAULT_BATCH = 10_000;

export async function importOffers(options: ImportOptions): Promise<ImportStats> {
  const stats: ImportStats = { rows: 0, valid: 0, inserted: 0, updated: 0, skipped: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let batch: Pending[] = [];
  let writing: Promise<void> = Promise.resolve();
  const upsert = async (offers: OfferInput[]) => {
    const result = await options.offers.upsertMany(options.environment, offers);
    stats.inserted += result.inserted;
    stats.updated += result.updated;
  };
  const write = async (rows: Pending[]) => {
    if (!options.dryRun) {
      try {
        await upsert(rows.map((r) => r.offer));
      } catch (error) {
        if (error instanceof DatabaseUnavailableError) throw error;
        // One transaction per row from here: slower, but only for the batch that failed.
        for (const row of rows) {
          try {
            await upsert([row.offer]);
          } catch (rowError) {
            if (rowError instanceof DatabaseUnavailableError) throw rowError;
            refused(row, rowError);
          }
        }
      }
    }
    options.onProgress({ ...stats });
  };
  const refused = (row: Pending, error: unknown) => {
    stats.valid -= 1;
    stats.skipped += 1;
    const message = error instanceof Error ? error.message : String(error);
    options.onInvalid({ line: row.line, reason: `refused by the database: ${message.slice(0, 200)}` });
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const offers = batch;
    batch = [];
    await writing; // one batch in flight at a time, in file order; a failed write throws here
    writing = write(offers);
    // Handled here so a failure is not reported as unhandled while the next batch is read;
    // it still rejects `writing`, which the next flush (or the end) awaits.
    writing.catch(() => undefined);
  };
  for await (const row of options.rows) {
    stats.rows += 1;
    const outcome =
      'error' in row
        ? { ok: false as const, reason: row.error }
        : parseOfferRecord(row.record, { describe: options.describeInvalid?.() ?? true });
    if (!outcome.ok) {
      stats.skipped += 1;
      options.onInvalid({ line: row.line, reason: outcome.reason });
      if (options.maxInvalid !== undefined && stats.skipped > options.maxInvalid) {
        stats.stopped = true;
        break;
      }
      continue;
    }
    stats.valid += 1;
    batch.push({ line: row.line, offer: outcome.offer });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await writing;
  // Fresh planner statistics after a bulk load (SQLite's PRAGMA optimize, PostgreSQL's ANALYZE).
  if (!options.dryRun && stats.valid > 0) await options.offers.optimize();
  options.onProgress({ ...stats });
  return stats;
}
