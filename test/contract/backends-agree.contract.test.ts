import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';

const SHARED_MASTER_SECRET = Buffer.alloc(32, 7).toString('base64');

import { backends } from '../support/databases.js';

/**
 * Issue #2, done-when: the same search requests return the same offers, in the same order, on
 * SQLite and on PostgreSQL. Both backends get the same seeded data and the same clock; every
 * request's whole response (offers, totals, cursors) must be identical.
 */
const QUERIES = [
  '',
  'q=excellent',
  'q=excellent%20condition',
  'q=delivery%20',
  'q=bik',
  'q=table&sort=-price',
  'q=wood&category=furniture',
  'q=car&priceMax=20000',
  'q=apartment&sort=publishedAt',
  'q=developer%20',
  'q=vintage&status=withdrawn',
  'category=vehicles&sort=price',
  'category=electronics&category=music&priceMin=100&priceMax=900',
  'country=GB&sort=-publishedAt',
  'currency=EUR&sort=price',
  'status=expired',
  'publishedAfter=2026-06-01T00:00:00Z&publishedBefore=2026-09-01T00:00:00Z',
  'updatedSince=2026-01-01T00:00:00Z',
  'q=the',
  'q=%C3%A9l%C3%A9gant',
  // Issue #3: phrases, exclusions, typos, tags, city, geo, facets, highlight.
  'q=%22excellent%20condition%22',
  'q=delivery%20-weekends',
  'q=-delivery&sort=price',
  'q=condtion%20',
  'q=delivry%20posible%20',
  'tag=urgent&tag=negotiable',
  'city=Berlin&sort=publishedAt',
  'near=48.8566,2.3522&radius=800&sort=distance',
  'near=-33.87,151.21&sort=distance&category=vehicles',
  'q=table&facets=category,tag,city,country',
  'facets=tag,city&priceMax=100',
  'q=condition&highlight=true',
];

const bothAvailable = backends().every((b) => b.available);

describe.skipIf(!bothAvailable)('SQLite and PostgreSQL agree', () => {
  const contexts: TestContext[] = [];
  beforeAll(async () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      // One master secret for both: their (signed) cursors must be identical too.
      const t = await createTestContext(
        dialect,
        { MASTER_SECRET: SHARED_MASTER_SECRET },
        { environments: ['testing'] },
      );
      await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 1500, seed: 11 })]);
      contexts.push(t);
    }
  });
  afterAll(async () => {
    await Promise.all(contexts.map((t) => t.close()));
  });

  it.each(QUERIES)('same response for ?%s, page after page', async (query) => {
    let cursors: (string | null)[] = [null, null];
    for (let page = 0; page < 3; page += 1) {
      const bodies = await Promise.all(
        contexts.map(async (t, i) => {
          const cursor = cursors[i] ? `&cursor=${cursors[i]}` : '';
          const res = await t.apps.testing.inject({
            url: `/v1/offers/?${query}&limit=25${cursor}`.replace('?&', '?'),
            headers: { 'x-api-key': t.fixtures.keys.testing.key },
          });
          expect(res.statusCode).toBe(200);
          return res.json();
        }),
      );
      expect(bodies[1]).toEqual(bodies[0]);
      cursors = bodies.map((b) => b.nextCursor);
      if (!cursors[0]) break;
    }
  });

  it('finds something for most queries (the comparison is not of empty lists)', async () => {
    const t = contexts[0];
    if (!t) throw new Error('no context');
    let nonEmpty = 0;
    for (const query of QUERIES) {
      const res = await t.apps.testing.inject({
        url: `/v1/offers/?${query}`,
        headers: { 'x-api-key': t.fixtures.keys.testing.key },
      });
      if (res.json().data.length > 0) nonEmpty += 1;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(QUERIES.length - 3);
  });
});
