import { priceToUnits } from '../src/offers/price.js';
import { offerIdFor } from '../src/offers/rows.js';
import type { generateOffers } from '../src/offers/seed.js';
import type { IndexDocument } from '../src/search/engine.js';

export type SeedOffer = ReturnType<typeof generateOffers> extends Generator<infer T> ? T : never;

/**
 * A seeded offer as the engine indexes it (the benches that build an index in process, without
 * a database): under `id` (default: its external id) in the testing environment, with its
 * attributes when `attributes` is set.
 */
export function seedDocument(
  offer: SeedOffer,
  options: { id?: string; attributes?: boolean } = {},
): IndexDocument {
  return {
    id: offerIdFor('testing', options.id ?? offer.externalId),
    title: offer.title,
    description: offer.description,
    category: offer.category,
    tags: offer.tags,
    city: offer.location.city,
    country: offer.location.country,
    currency: offer.price.currency,
    publisher: offer.publisher.id,
    price: priceToUnits(offer.price.amount),
    lat: offer.location.lat,
    lon: offer.location.lon,
    status: offer.status,
    publishedAt: offer.publishedAt,
    updatedAt: offer.publishedAt,
    expiresAt: offer.expiresAt,
    ...(options.attributes ? { attributes: offer.attributes } : {}),
  };
}
