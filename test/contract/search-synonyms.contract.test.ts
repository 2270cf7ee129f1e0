import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/audit/service.js';
import type { OfferInput } from '../../src/offers/offer-input.js';
import { createLocalChangeBus } from '../../src/platform/change-bus.js';
import { createSynonymService, SYNONYM_CHANGES_TOPIC } from '../../src/synonyms/service.js';
import { createSynonymStore } from '../../src/synonyms/store.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Synonyms (issue 23) on both backends through HTTP: multi-way, one-way, several words, counted
 * as the word typed; applied at once without re-indexing, and by another process on its change-
 * bus message or its next poll of the version.
 */
const actor: Actor = { kind: 'cli', id: 'test', email: null, ip: null };

const offer = (externalId: string, title: string, day: number): OfferInput => ({
  externalId,
  title,
  description: '',
  category: 'electronics',
  tags: [],
  location: { city: 'Paris', region: null, country: 'FR', lat: 48.85, lon: 2.35 },
  price: { amount: '100', currency: 'EUR' },
  publisher: { id: 'pub_syn', name: 'Synonym shop' },
  url: null,
  attributes: {},
  status: 'active',
  publishedAt: Date.UTC(2026, 9, day),
  expiresAt: null,
});

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`synonyms on ${dialect}`, () => {
    let t: TestContext;
    const titles = async (q: string, more = '') => {
      const res = await t.apps.testing.inject({
        method: 'GET',
        url: `/v1/offers/?q=${encodeURIComponent(q)}${more}`,
        headers: { 'x-api-key': t.fixtures.keys.testing.key },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { title: string }[] }).data.map((o) => o.title);
    };
    beforeAll(async () => {
      t = await createTestContext(dialect, {}, { environments: ['testing'] });
      await t.deps.offers.upsertMany('testing', [
        offer('a', 'Samsung TV 55 inch', 1),
        offer('b', 'Old television set, works', 2),
        offer('c', 'Television stand', 3),
        offer('d', 'Leather sofa', 4),
        offer('e', 'Velvet couch', 5),
      ]);
    });
    afterAll(async () => {
      await t.close();
    });

    it('multi-way, with a synonym of several words, counted as the word typed; applied at once', async () => {
      expect(await titles('tv ')).toEqual(['Samsung TV 55 inch']);
      const rule = await t.deps.synonyms.add(actor, 'testing', ['tv', 'television set'], false);
      // Exact either way: the newest first among equals.
      expect(await titles('tv ')).toEqual(['Old television set, works', 'Samsung TV 55 inch']);
      expect(await titles('television set ')).toEqual(['Old television set, works', 'Samsung TV 55 inch']);
      // "television" alone is not the rule's word.
      expect(await titles('television ')).toEqual(['Television stand', 'Old television set, works']);
      expect(await t.deps.synonyms.list('production')).toEqual([]);
      await t.deps.synonyms.remove(actor, 'testing', rule.id);
      expect(await titles('tv ')).toEqual(['Samsung TV 55 inch']);
    });

    it('one-way: sofa finds couch, couch does not find sofa', async () => {
      await t.deps.synonyms.add(actor, 'testing', ['sofa', 'couch'], true);
      expect(await titles('sofa ')).toEqual(['Velvet couch', 'Leather sofa']);
      expect(await titles('couch ')).toEqual(['Velvet couch']);
    });

    it('a word carried by its synonym gets no typo variants under auto (only under all)', async () => {
      await t.deps.offers.upsertMany('testing', [offer('f', 'Setter dog lead', 6)]);
      // `settee` is in no offer; `setter` is one edit away from it.
      expect(await titles('settee ')).toEqual(['Setter dog lead']);
      const rule = await t.deps.synonyms.add(actor, 'testing', ['settee', 'sofa'], false);
      expect(await titles('settee ')).toEqual(['Leather sofa']);
      expect(await titles('settee ', '&typoTolerance=all')).toEqual(['Leather sofa', 'Setter dog lead']);
      await t.deps.synonyms.remove(actor, 'testing', rule.id);
    });

    it('reaches another process by its change-bus message, or else by its poll of the version', async () => {
      const bus = createLocalChangeBus();
      const store = createSynonymStore(t.deps.db);
      const here = createSynonymService({
        store,
        audit: t.deps.audit,
        clock: t.clock,
        onChanged: (environment) => bus.publish(SYNONYM_CHANGES_TOPIC, environment),
      });
      const there = createSynonymService({ store, audit: t.deps.audit, clock: t.clock });
      const before = await there.current('testing');
      let told: Promise<void> = Promise.resolve();
      bus.subscribe(SYNONYM_CHANGES_TOPIC, () => {
        told = there.refresh('testing');
      });
      const rule = await here.add(actor, 'testing', ['laptop', 'notebook'], false);
      await told;
      const after = await there.current('testing');
      expect(after.version).toBeGreaterThan(before.version);
      expect(after.rules).toContainEqual({ oneWay: false, words: ['laptop', 'notebook'] });
      // No message (a lost one): the next poll's read of the version finds the change.
      await store.remove('testing', rule.id);
      expect((await there.current('testing')).rules.some((r) => r.words[0] === 'laptop')).toBe(true);
      await there.refresh('testing');
      expect((await there.current('testing')).rules.some((r) => r.words[0] === 'laptop')).toBe(false);
      await bus.close();
    });
  });
}
