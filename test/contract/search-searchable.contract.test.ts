import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferInput } from '../../src/offers/offer-input.js';
import type { AttributeDeclaration } from '../../src/search/engine.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * Searchable string attributes over HTTP (ADR 0042): declared through the service as the CLI
 * does, the index rebuilt in the background; `q` finds a word held only by a searchable
 * attribute, ranks it between the title and the description, never matches a declared attribute
 * that is not searchable, and highlights the attribute's value; toggling `searchable` re-indexes.
 */
const actor = { kind: 'cli' as const, id: 'test', email: null, ip: null };
const T0 = Date.UTC(2026, 0, 1);
const BRAND: AttributeDeclaration = {
  name: 'brand',
  type: 'string',
  facet: true,
  sort: false,
  searchable: true,
};
const COLOUR: AttributeDeclaration = {
  name: 'colour',
  type: 'string',
  facet: false,
  sort: false,
  searchable: false,
};

function offer(
  externalId: string,
  title: string,
  description: string,
  attributes: OfferInput['attributes'],
  day: number,
): OfferInput {
  return {
    externalId,
    title,
    description,
    category: 'electronics',
    tags: [],
    location: { city: 'Paris', region: null, country: 'FR', lat: 48.85, lon: 2.35 },
    // The price tells the offers apart in answers.
    price: { amount: `${day}.00`, currency: 'EUR' },
    publisher: { id: 'pub_searchable', name: 'Searchable shop' },
    url: null,
    attributes,
    status: 'active',
    publishedAt: T0 + day * 86_400_000,
    expiresAt: null,
  };
}

// Newest last in the expected order: only the attribute rule puts them in that order.
const OFFERS = [
  offer('in-title', 'Zenith radio', 'A small radio', { brand: 'Acme', colour: 'teal' }, 1),
  offer('in-brand', 'Portable radio', 'A small radio', { brand: 'Zenith & Co', colour: 'teal' }, 2),
  offer('in-description', 'Portable radio', 'Sounds like a Zenith', { brand: 'Acme', colour: 'teal' }, 3),
  offer('in-colour', 'Portable radio', 'A small radio', { brand: 'Acme', colour: 'zenith' }, 4),
];

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`searchable attributes on ${dialect}`, () => {
    let t: TestContext;
    let headers: Record<string, string>;
    let ids: Map<string, string>;
    beforeAll(async () => {
      t = await createTestContext(dialect);
      headers = { 'x-api-key': t.fixtures.keys.testing.key };
      await t.deps.offers.upsertMany('testing', OFFERS);
      for (const attribute of [BRAND, COLOUR])
        await t.deps.searchSettings.setAttribute(actor, 'testing', attribute);
      await t.deps.searchIndexes.checkSchema('testing');
      const listed = await t.apps.testing.inject({ method: 'GET', url: '/v1/offers/?limit=50', headers });
      const names = new Map(OFFERS.map((o) => [o.price.amount, o.externalId]));
      ids = new Map(
        (listed.json().data as Array<{ id: string; price: { amount: string } }>).map((o) => [
          o.id,
          names.get(o.price.amount) as string,
        ]),
      );
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    const search = async (query: string) => {
      const response = await t.apps.testing.inject({ method: 'GET', url: `/v1/offers/?${query}`, headers });
      expect(response.statusCode).toBe(200);
      return response.json() as {
        data: Array<{ id: string; highlight?: { title: string; attributes?: Record<string, string> } }>;
        total: { value: number };
      };
    };
    const found = async (query: string) => (await search(query)).data.map((o) => ids.get(o.id));

    it('shows searchable at GET /v1/attributes', async () => {
      const response = await t.apps.testing.inject({ method: 'GET', url: '/v1/attributes', headers });
      expect(response.json()).toEqual({ data: [BRAND, COLOUR], rankBy: null });
    });

    it('finds a word only a searchable attribute holds, ranked between the title and the description, and never one of an attribute that is not searchable', async () => {
      expect(await found('q=zenith')).toEqual(['in-title', 'in-brand', 'in-description']);
      // A typo and a prefix, as in the title.
      expect(await found('q=zenit')).toEqual(['in-title', 'in-brand', 'in-description']);
      expect(await found('q=zenth')).toEqual(['in-title', 'in-brand', 'in-description']);
      // Two words: each unit's first field, the worst of them.
      expect(await found('q=zenith%20co')).toEqual(['in-brand']);
      expect(await found('q=%22zenith%20co%22')).toEqual(['in-brand']);
      expect(await found('q=teal')).toEqual([]);
      expect(await found('q=radio%20-zenith')).toEqual(['in-colour']);
    });

    it("highlights the searchable attributes' values", async () => {
      const { data } = await search('q=zenith&highlight=true');
      const byName = new Map(data.map((o) => [ids.get(o.id), o.highlight]));
      expect(byName.get('in-brand')).toMatchObject({
        title: 'Portable radio',
        attributes: { brand: '<mark>Zenith</mark> &amp; Co' },
      });
      expect(byName.get('in-title')?.attributes).toEqual({ brand: 'Acme' });
    });

    it('re-indexes when an attribute becomes searchable or stops being searchable', async () => {
      await t.deps.searchSettings.setAttribute(actor, 'testing', { ...COLOUR, searchable: true });
      await t.deps.searchIndexes.checkSchema('testing');
      expect(await found('q=zenith')).toEqual(['in-title', 'in-colour', 'in-brand', 'in-description']);
      expect(await found('q=teal')).toEqual(['in-description', 'in-brand', 'in-title']);
      await t.deps.searchSettings.setAttribute(actor, 'testing', { ...BRAND, searchable: false });
      await t.deps.searchSettings.setAttribute(actor, 'testing', COLOUR);
      await t.deps.searchIndexes.checkSchema('testing');
      expect(await found('q=zenith')).toEqual(['in-title', 'in-description']);
      const { data } = await search('q=zenith&highlight=true');
      expect(data[0]?.highlight?.attributes).toBeUndefined();
      await t.deps.searchSettings.setAttribute(actor, 'testing', BRAND);
      await t.deps.searchIndexes.checkSchema('testing');
    });

    it('refuses searchable on a number or boolean attribute', async () => {
      await expect(
        t.deps.searchSettings.setAttribute(actor, 'testing', {
          name: 'year',
          type: 'number',
          facet: false,
          sort: false,
          searchable: true,
        }),
      ).rejects.toThrow('searchable is for string attributes');
    });
  });
}
