import { describe, expect, it } from 'vitest';
import { parseOfferRecord } from './offer-record.js';

const good = {
  externalId: 'shop-1',
  title: 'Oak desk',
  description: 'Solid.',
  category: 'furniture',
  tags: ['like-new'],
  location: { city: 'Lyon', country: 'fr', lat: 45.76, lon: 4.83 },
  price: { amount: '120.50', currency: 'eur' },
  publisher: { id: 'pub_1', name: 'Shop' },
  publishedAt: '2026-10-01T10:00:00Z',
};

describe('offer records', () => {
  it('turns a valid record into an offer input, normalising codes and defaults', () => {
    const outcome = parseOfferRecord(good);
    expect(outcome).toEqual({
      ok: true,
      offer: {
        ...good,
        location: { city: 'Lyon', region: null, country: 'FR', lat: 45.76, lon: 4.83 },
        price: { amount: '120.50', currency: 'EUR' },
        url: null,
        attributes: {},
        status: 'active',
        publishedAt: Date.UTC(2026, 9, 1, 10),
        expiresAt: null,
      },
    });
  });

  it.each([
    [
      'a comma price',
      { ...good, price: { amount: '12,50', currency: 'EUR' } },
      'price.amount must match pattern',
    ],
    ['a bad date', { ...good, publishedAt: 'yesterday' }, 'publishedAt must match format "date-time"'],
    ['an unknown field', { ...good, colour: 'red' }, 'colour is not a known field'],
    [
      'a missing title',
      Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'title')),
      'title is required',
    ],
    ['a latitude of 91', { ...good, location: { ...good.location, lat: 91 } }, 'location.lat must be <= 90'],
    ['a bad tag', { ...good, tags: ['Bad Tag'] }, 'tags.0 must match pattern'],
    ['a string', 'a string', 'must be object'],
  ])('refuses %s, saying why', (_label, record, reason) => {
    const outcome = parseOfferRecord(record);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toContain(reason);
  });
});
