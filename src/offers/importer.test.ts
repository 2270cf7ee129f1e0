import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../db/database.js';
import { type InvalidRow, importOffers } from './importer.js';
import type { OfferInput } from './offer-input.js';
import { toOfferRecord } from './offer-record.js';
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
