import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerIdFor } from '../../src/offers/rows.js';
import { DEFAULT_ANCHOR_MS, generateOffer } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * An end user's offer and the row that makes it theirs are written in one transaction
 * (OfferService.upsertOne, issue 14): when the second write fails, the offer is not there either,
 * on both backends.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`one transaction for an offer and what goes with it on ${dialect}`, () => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: [] });
    });
    afterAll(async () => {
      await t.close();
    });

    it('writes neither when the second write fails', async () => {
      const offer = { ...generateOffer(1, 7, DEFAULT_ANCHOR_MS), externalId: 'tx:rolled-back' };
      const before = await t.deps.offers.count('testing');
      await expect(
        t.deps.offers.upsertOne('testing', offer, async (tx) => {
          await tx.run('SELECT 1');
          throw new Error('the second write failed');
        }),
      ).rejects.toThrow('the second write failed');
      expect(await t.deps.offers.get('testing', offerIdFor('testing', offer.externalId))).toBeUndefined();
      expect(await t.deps.offers.count('testing')).toBe(before);
    });

    it('writes both when both succeed, the second inside the same transaction', async () => {
      const offer = { ...generateOffer(2, 7, DEFAULT_ANCHOR_MS), externalId: 'tx:committed' };
      const id = offerIdFor('testing', offer.externalId);
      const result = await t.deps.offers.upsertOne('testing', offer, async (tx) => {
        // The offer row is visible to the second write: same transaction.
        const row = await tx.get<{ id: string }>('SELECT id FROM offers WHERE id = ?', [id]);
        expect(row?.id).toBe(id);
      });
      expect(result).toEqual({ inserted: 1, updated: 0 });
      expect((await t.deps.offers.get('testing', id))?.id).toBe(id);
    });
  });
}
