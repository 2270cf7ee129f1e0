import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportStats, type InvalidRow, importOffers } from '../../src/offers/importer.js';
import { toOfferRecord } from '../../src/offers/offer-record.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Issue 13, defect 2, on every backend: rows that passed validation (and `--dry-run`) but that
 * a database refuses — a leap second, a NUL, a non-finite number — used to fail their whole
 * batch with no line number. Now they are row errors, found by `--dry-run` alike, and every
 * good row of the batch is written.
 */
const good = [...generateOffers({ count: 6, seed: 21 })].map(toOfferRecord);
const at = (i: number) => good[i] ?? (undefined as never);
const hostile: { record: unknown; field: string }[] = [
  { record: { ...at(1), externalId: 'leap', publishedAt: '2026-12-31T23:59:60Z' }, field: 'publishedAt' },
  { record: { ...at(2), externalId: 'nul-title', title: 'Lamp\u0000' }, field: 'title' },
  {
    record: { ...at(3), externalId: 'nul-city', location: { ...at(3).location, city: '\u0000' } },
    field: 'location.city',
  },
  { record: { ...at(4), externalId: 'nul-attr', attributes: { size: 'M\u0000' } }, field: 'attributes.size' },
  {
    record: { ...at(4), externalId: 'huge-number', attributes: { weight: Number.POSITIVE_INFINITY } },
    field: 'attributes.weight',
  },
  { record: { ...at(5), externalId: 'feb-30', expiresAt: '2027-02-30T00:00:00Z' }, field: 'expiresAt' },
];
// Good rows around every hostile one, all in one batch.
const lines = [at(0), ...hostile.flatMap((h, i) => [h.record, at(i % 6)])].map((record, i) => ({
  line: i + 1,
  record,
}));
const hostileLines = lines.filter((l) => hostile.some((h) => h.record === l.record)).map((l) => l.line);

async function run(t: TestContext, dryRun: boolean): Promise<{ stats: ImportStats; invalid: InvalidRow[] }> {
  const invalid: InvalidRow[] = [];
  async function* rows() {
    yield* lines;
  }
  const stats = await importOffers({
    offers: t.deps.offers,
    environment: 'testing',
    rows: rows(),
    dryRun,
    onInvalid: (row) => invalid.push(row),
    onProgress: () => undefined,
  });
  return { stats, invalid };
}

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`import of hostile rows on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: [] });
    });
    afterAll(async () => {
      await t.close();
    });

    it('--dry-run names each hostile row and its field; the real run refuses the same rows and keeps the rest', async () => {
      const dry = await run(t, true);
      expect(dry.invalid.map((r) => r.line)).toEqual(hostileLines);
      for (const [i, row] of dry.invalid.entries()) expect(row.reason).toContain(hostile[i]?.field);
      expect(await t.deps.offers.count('testing')).toBe(0);

      const real = await run(t, false);
      expect(real.invalid).toEqual(dry.invalid);
      expect(real.stats).toMatchObject({
        rows: lines.length,
        valid: dry.stats.valid,
        skipped: hostile.length,
      });
      expect(await t.deps.offers.count('testing')).toBe(good.length);
    });
  });
}
