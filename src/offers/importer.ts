import type { Environment } from '../platform/environment.js';
import type { SourceRow } from './import-source.js';
import type { OfferInput } from './offer-input.js';
import { parseOfferRecord } from './offer-record.js';
import type { OfferService } from './service.js';

/**
 * `vitrine import` without the terminal: validates each row with the one offer definition
 * (offer-record.ts), keeps the valid ones and upserts them by externalId in batches. Each
 * batch commits on its own (store: transactions of 2 000 rows), so a killed import leaves whole
 * offers only, and re-running the file rewrites the same offers to the same final state.
 */
export interface InvalidRow {
  line: number;
  reason: string;
}

export interface ImportStats {
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
}

const DEFAULT_BATCH = 2_000;

export async function importOffers(options: ImportOptions): Promise<ImportStats> {
  const stats: ImportStats = { rows: 0, valid: 0, inserted: 0, updated: 0, skipped: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let batch: OfferInput[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    if (!options.dryRun) {
      const result = await options.offers.upsertMany(options.environment, batch);
      stats.inserted += result.inserted;
      stats.updated += result.updated;
    }
    batch = [];
    options.onProgress({ ...stats });
  };
  for await (const row of options.rows) {
    stats.rows += 1;
    const outcome = 'error' in row ? { ok: false as const, reason: row.error } : parseOfferRecord(row.record);
    if (!outcome.ok) {
      stats.skipped += 1;
      options.onInvalid({ line: row.line, reason: outcome.reason });
      continue;
    }
    stats.valid += 1;
    batch.push(outcome.offer);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  // Fresh planner statistics after a bulk load (SQLite's PRAGMA optimize, PostgreSQL's ANALYZE).
  if (!options.dryRun && stats.valid > 0) await options.offers.optimize();
  options.onProgress({ ...stats });
  return stats;
}
