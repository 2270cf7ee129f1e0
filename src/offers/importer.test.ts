import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../db/database.js';
import { type InvalidRow, importOffers } from './importer.js';
import type { OfferInput } from './offer-input.js';
import { toOfferRecord, UNDESCRIBED } from './offer-record.js';
import { generateOffers } from './seed.js';
import type { OfferService } from './service.js';

/** Issue 13, defect 2: a row the database refuses no longer costs the rest of its batch. */
const offers = [...generateOffers({ count: 7, seed: 11 })];
const rows = offers.map((offer, i) => ({ line: i + 1, record: toOfferRecord(offer) }));
async function* source() {
  yield* rows;
}

/** A store that refuses any write holding the poisoned externalId, like PostgreSQL a NUL. */
function fakeOffers(poison: string, failure: () => Error): { service: OfferService; stored: OfferInput[] } {
  const stored: OfferInput[] = [];
  const service = {
    async upsertMany(_environment: string, batch: readonly OfferInput[]) {
      if (batch.some((o) => o.externalId === poison)) throw failure();
      stored.push(...batch);
      return { inserted: batch.length, updated: 0 };
    },
    optimize: async () => undefined,
  } as unknown as OfferService;
  return { service, stored };
}

describe('importOffers when the store refuses one row', () => {
  it('retries the failed batch row by row: keeps every other row, reports the line', async () => {
    const poison = offers[3]?.externalId ?? '';
    const { service, stored } = fakeOffers(
      poison,
      () => new Error('invalid byte sequence for encoding "UTF8": 0x00'),
    );
    const invalid: InvalidRow[] = [];
    const stats = await importOffers({
      offers: service,
      environment: 'testing',
      rows: source(),
      dryRun: false,
      batchSize: 5,
      onInvalid: (row) => invalid.push(row),
      onProgress: () => undefined,
    });
    expect(stored.map((o) => o.externalId).sort()).toEqual(
      offers
        .map((o) => o.externalId)
        .filter((id) => id !== poison)
        .sort(),
    );
    expect(invalid).toEqual([
      { line: 4, reason: expect.stringMatching(/^refused by the database: invalid byte/) },
    ]);
    expect(stats).toMatchObject({ rows: 7, valid: 6, inserted: 6, skipped: 1 });
  });

  it('does not turn an unreachable database into thousands of bad rows', async () => {
    const { service } = fakeOffers(offers[0]?.externalId ?? '', () => new DatabaseUnavailableError('down'));
    const invalid: InvalidRow[] = [];
    await expect(
      importOffers({
        offers: service,
        environment: 'testing',
        rows: source(),
        dryRun: false,
        batchSize: 5,
        onInvalid: (row) => invalid.push(row),
        onProgress: () => undefined,
      }),
    ).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(invalid).toEqual([]);
  });
});

describe('importOffers with many invalid rows (issue 26)', () => {
  it('describes invalid rows while asked to, then only counts them, and stops past maxInvalid', async () => {
    const bad = Array.from({ length: 6 }, (_, i) => ({ line: i + 1, record: { n: i } }));
    const good = rows.slice(0, 2).map((r, i) => ({ ...r, line: 100 + i }));
    async function* mixed() {
      yield* good;
      yield* bad;
      yield* rows.slice(2).map((r, i) => ({ ...r, line: 200 + i }));
    }
    const { service, stored } = fakeOffers('none', () => new Error('unused'));
    const invalid: InvalidRow[] = [];
    const stats = await importOffers({
      offers: service,
      environment: 'testing',
      rows: mixed(),
      dryRun: false,
      onInvalid: (row) => invalid.push(row),
      onProgress: () => undefined,
      describeInvalid: () => invalid.length < 2,
      maxInvalid: 4,
    });
    expect(invalid.map((r) => r.reason)).toEqual([
      expect.stringContaining('is required'),
      expect.stringContaining('is required'),
      UNDESCRIBED,
      UNDESCRIBED,
      UNDESCRIBED,
    ]);
    // Stopped at the fifth invalid row; the valid rows read before it are written, none after.
    expect(stats).toMatchObject({ stopped: true, rows: 7, valid: 2, skipped: 5 });
    expect(stored.map((o) => o.externalId)).toEqual(good.map((r) => r.record.externalId));
  });
});
