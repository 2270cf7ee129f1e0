import type { Environment } from '../platform/environment.js';
import { derivedId } from '../platform/ids.js';
import type { OfferInput } from './offer-input.js';
import { priceToUnits } from './price.js';
import type { Offer, OfferStatus } from './schemas.js';
import type { OfferRowValues } from './store.js';

export interface OfferRow {
  id: string;
  environment: Environment;
  external_id: string | null;
  title: string;
  description: string;
  category: string;
  tags: string;
  city: string;
  region: string | null;
  country: string;
  lat: number;
  lon: number;
  price_amount: string;
  price_value: number;
  currency: string;
  publisher_id: string;
  publisher_name: string;
  url: string | null;
  attributes: string;
  status: OfferStatus;
  published_at: number;
  updated_at: number;
  expires_at: number | null;
  project_id: string | null;
}

/** Imported and seeded offers get an id derived from (environment, externalId): re-runs reuse it. */
export function offerIdFor(environment: Environment, externalId: string): string {
  return derivedId('off', `${environment}:${externalId}`);
}

export function toRowValues(environment: Environment, input: OfferInput, now: number): OfferRowValues {
  return [
    offerIdFor(environment, input.externalId),
    environment,
    input.externalId,
    input.title,
    input.description,
    input.category,
    JSON.stringify(input.tags),
    input.location.city,
    input.location.region,
    input.location.country,
    input.location.lat,
    input.location.lon,
    input.price.amount,
    priceToUnits(input.price.amount),
    input.price.currency,
    input.publisher.id,
    input.publisher.name,
    input.url,
    JSON.stringify(input.attributes),
    input.status,
    input.publishedAt,
    now,
    input.expiresAt,
    input.projectId ?? null,
  ];
}

/** The status a client sees: an active offer past `expiresAt` is expired, no batch job needed. */
export function effectiveStatus(stored: OfferStatus, expiresAt: number | null, now: number): OfferStatus {
  if (stored === 'active' && expiresAt !== null && expiresAt <= now) return 'expired';
  return stored;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toOffer(row: OfferRow, now: number): Offer {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    location: {
      city: row.city,
      region: row.region,
      country: row.country,
      lat: Number(row.lat),
      lon: Number(row.lon),
    },
    price: { amount: row.price_amount, currency: row.currency },
    publisher: { id: row.publisher_id, name: row.publisher_name },
    url: row.url,
    attributes: JSON.parse(row.attributes) as Record<string, string | number>,
    status: effectiveStatus(row.status, expiresAt, now),
    publishedAt: iso(Number(row.published_at)),
    updatedAt: iso(Number(row.updated_at)),
    expiresAt: expiresAt === null ? null : iso(expiresAt),
  };
}
