import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportStats, type InvalidRow, importOffers } from '../../src/offers/importer.js';
import { type OfferRecord, toOfferRecord } from '../../src/offers/offer-record.js';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { fuzz, hostileJson, hostileNumber, hostileString, report, runs } from './fuzz-support.js';

/**
 * Issue 13: generated import rows (valid offers with one field made hostile, or whole rows of
 * junk), written on every backend. `--dry-run` must refuse exactly the rows the real run
 * refuses, no row is lost to a bad neighbour, and nothing is half-written: every accepted row
 * reads back as written, every refused one is absent. 1,000 rows per backend by default.
 */
const BATCHES = runs(20);
const ROWS_PER_BATCH = 50;

const base = [...generateOffers({ count: 60, seed: 17 })].map(toOfferRecord);
const FIELDS = [
  'externalId',
  'title',
  'description',
  'category',
  'tags',
  'location',
  'location.city',
  'location.region',
  'location.country',
  'location.lat',
  'location.lon',
  'price',
  'price.amount',
  'price.currency',
  'publisher.id',
  'publisher.name',
  'url',
  'attributes',
  'attributes.extra',
  'status',
  'publishedAt',
  'expiresAt',
  'unknownField',
] as const;

type Row = { record: unknown };

function setPath(record: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head = '', ...rest] = path.split('.');
  if (rest.length === 0) return { ...record, [head]: value };
  const inner = record[head];
  const child =
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? (inner as Record<string, unknown>)
      : {};
  return { ...record, [head]: setPath(child, rest.join('.'), value) };
}

const row = (batch: number, index: number): fc.Arbitrary<Row> => {
  const id = `fz-${batch}-${index}`;
  const valid = fc
    .nat({ max: base.length - 1 })
    .map((i) => ({ ...(base[i] as OfferRecord), externalId: id }));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((record) => ({ record })) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...FIELDS), fc.oneof(hostileString, hostileNumber, hostileJson))
        .map(([record, field, value]) => ({
          record: setPath(record as unknown as Record<string, unknown>, field, value),
        })),
    },
    { weight: 1, arbitrary: hostileJson.map((record) => ({ record })) },
  );
};

const batchOf = (batch: number) =>
  fc.tuple(...Array.from({ length: ROWS_PER_BATCH }, (_, i) => row(batch, i)));

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`import fuzz on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: [] });
    });
    afterAll(async () => {
      await t.close();
    });

    it(`imports ${BATCHES * ROWS_PER_BATCH} generated rows: dry run = real run, no row lost, nothing half-written`, {
      timeout: 600_000,
    }, async () => {
      let batch = 0;
      const totals = { rows: 0, accepted: 0, refused: 0 };
      await fuzz(
        'import',
        fc.integer().chain(() => batchOf(batch)),
        BATCHES,
        async (rows) => {
          batch += 1;
          const lines = rows.map((r, i) => ({ line: i + 1, record: r.record }));
          const run = async (dryRun: boolean) => {
            const invalid: InvalidRow[] = [];
            async function* source() {
              yield* lines;
            }
            const stats: ImportStats = await importOffers({
              offers: t.deps.offers,
              environment: 'testing',
              rows: source(),
              dryRun,
              batchSize: 20,
              onInvalid: (r) => invalid.push(r),
              onProgress: () => undefined,
            });
            return { stats, invalid };
          };
          const dry = await run(true);
          const real = await run(false);
          expect(real.invalid.map((r) => r.line)).toEqual(dry.invalid.map((r) => r.line));
          expect(real.stats.valid).toBe(dry.stats.valid);
          const refused = new Set(real.invalid.map((r) => r.line));
          // The last accepted row of each externalId is what the store holds; refused ones are absent.
          const expected = new Map<string, Record<string, unknown>>();
          for (const l of lines) {
            const record = l.record as Record<string, unknown>;
            if (!refused.has(l.line)) expected.set(String(record.externalId), record);
          }
          for (const [externalId, record] of expected) {
            const stored = await t.deps.offers.get('testing', offerIdFor('testing', externalId));
            expect(stored?.title, `line with externalId ${externalId}`).toBe(record.title);
          }
          for (const l of lines) {
            const externalId = (l.record as { externalId?: unknown } | null)?.externalId;
            if (refused.has(l.line) && typeof externalId === 'string' && !expected.has(externalId)) {
              expect(await t.deps.offers.get('testing', offerIdFor('testing', externalId))).toBeUndefined();
            }
          }
          totals.rows += lines.length;
          totals.accepted += lines.length - refused.size;
          totals.refused += refused.size;
        },
      );
      report(`import on ${dialect}`, totals);
      expect(totals.accepted).toBeGreaterThan(0);
      expect(totals.refused).toBeGreaterThan(0);
    });
  });
}
