import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 25: the console's first page (Applications) says which environment has no offers, with
 * the import commands, like the portal's project page; an environment with offers is not named.
 */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`the console's empty-environment hint on ${dialect}`, () => {
    let t: TestContext;
    let ops: PageAgent;
    beforeAll(async () => {
      t = await createTestContext(dialect);
      await t.deps.operators.add({ email: 'empty-ops@example.com', password: 'operator-password-1' });
      ops = new PageAgent(t.apps.production);
      expect((await ops.signIn('console', 'empty-ops@example.com', 'operator-password-1')).statusCode).toBe(
        303,
      );
    });
    afterAll(async () => {
      await t?.close();
    });

    it('names each empty environment with its import command, until it has offers', async () => {
      const before = (await ops.get('/console/applications')).body;
      expect(before).toContain('id="empty-environments"');
      expect(before).toContain('The <strong>testing</strong> environment has no offers yet');
      expect(before).toContain('The <strong>production</strong> environment has no offers yet');
      expect(before).toContain('vitrine import --env production offers.ndjson');

      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 3, seed: 25 })]);
      const after = (await ops.get('/console/applications')).body;
      expect(after).not.toContain('The <strong>testing</strong> environment has no offers yet');
      expect(after).toContain('The <strong>production</strong> environment has no offers yet');

      await t.deps.offers.upsertMany('production', [...generateOffers({ count: 3, seed: 26 })]);
      expect((await ops.get('/console/applications')).body).not.toContain('id="empty-environments"');
    });
  });
}
