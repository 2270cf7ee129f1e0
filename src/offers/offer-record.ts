import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { findUnsafeValues, isStorableTimestamp } from '../http/safe-values.js';
import type { OfferInput } from './offer-input.js';
import { OfferSchema } from './schemas.js';

/**
 * One offer as producers send it (`vitrine import`, and later the publishing endpoints): the
 * public offer shape of schemas.ts without what Vitrine owns (`id`, `updatedAt`), plus the
 * producer's `externalId`. This is the one definition of a valid offer: every way in checks it.
 */
const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' });
const Timestamp = Type.String({ format: 'date-time' });
/** Issue 13: free keys and values are bounded too, so no row is too big for a batch. */
export const MAX_ATTRIBUTES = 100;
export const MAX_ATTRIBUTE_KEY_LENGTH = 100;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 2_000;
const Attributes = Type.Record(
  Type.String({ maxLength: MAX_ATTRIBUTE_KEY_LENGTH }),
  Type.Union([Type.String({ maxLength: MAX_ATTRIBUTE_VALUE_LENGTH }), Type.Number()]),
  { maxProperties: MAX_ATTRIBUTES },
);

export const OfferRecordSchema = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:/-]+$' }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.String({ maxLength: 10_000 }),
    category: Slug,
    tags: Type.Optional(Type.Array(Slug, { maxItems: 20, uniqueItems: true })),
    location: Type.Object(
      {
        city: Type.String({ minLength: 1, maxLength: 100 }),
        region: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
        country: Type.String({ pattern: '^[A-Za-z]{2}$' }),
        lat: Type.Number({ minimum: -90, maximum: 90 }),
        lon: Type.Number({ minimum: -180, maximum: 180 }),
      },
      { additionalProperties: false },
    ),
    price: Type.Object(
      {
        amount: Type.String({ pattern: '^\\d{1,11}(\\.\\d{1,4})?$' }),
        currency: Type.String({ pattern: '^[A-Za-z]{3}$' }),
      },
      { additionalProperties: false },
    ),
    publisher: Type.Object(
      {
        id: Type.String({ minLength: 1, maxLength: 64 }),
        name: Type.String({ minLength: 1, maxLength: 200 }),
      },
      { additionalProperties: false },
    ),
    url: Type.Optional(Type.Union([Type.String({ pattern: '^https?://', maxLength: 2000 }), Type.Null()])),
    attributes: Type.Optional(Attributes),
    status: Type.Optional(OfferSchema.properties.status),
    publishedAt: Timestamp,
    expiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  },
  { additionalProperties: false },
);
export type OfferRecord = Static<typeof OfferRecordSchema>;

const check = Compile(OfferRecordSchema);

export type RecordOutcome = { ok: true; offer: OfferInput } | { ok: false; reason: string };

/**
 * What the schema cannot say and either database would refuse (issue 13): control characters
 * (a NUL fails a whole PostgreSQL batch; the description may hold tabs and line breaks),
 * numbers that are not finite, timestamps with no instant (a leap second `23:59:60`, which
 * `Date.parse` turns into NaN). Checked here so `--dry-run` refuses exactly what a write would.
 */
function storabilityErrors(value: unknown): string[] {
  const found = findUnsafeValues(value, { lineBreaks: false, lineBreakPaths: ['/description'] }).map(
    (f) => `${f.path.replace(/^\//, '').replaceAll('/', '.') || 'row'} ${f.message}`,
  );
  const r = value as Partial<Record<'publishedAt' | 'expiresAt', unknown>>;
  for (const field of ['publishedAt', 'expiresAt'] as const) {
    const v = r[field];
    if (typeof v === 'string' && !isStorableTimestamp(v)) {
      found.push(`${field} must be a real instant between years 0001 and 9999 (no leap second)`);
    }
  }
  return found;
}

/** An invalid row past those listed (issue 26): counted, not described. */
export const UNDESCRIBED = 'is not a valid offer';

/**
 * Validates one record and turns it into what the store writes; `reason` names the field.
 * `describe: false` skips building the reason (`UNDESCRIBED`): an import past its listed errors
 * only counts the rest, and describing each costs more than checking it.
 */
export function parseOfferRecord(value: unknown, options: { describe?: boolean } = {}): RecordOutcome {
  if (!check.Check(value)) {
    if (options.describe === false) return { ok: false, reason: UNDESCRIBED };
    const reasons = new Map<string, string>();
    for (const error of check.Errors(value)) {
      if (error.keyword === 'boolean') continue; // restated by the additionalProperties error
      let field = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'row';
      let message = error.message;
      if (error.keyword === 'additionalProperties') {
        const extra = (error.params as { additionalProperties?: string[] }).additionalProperties ?? [];
        field = [field === 'row' ? '' : `${field}.`, extra.join(', ')].join('');
        message = 'is not a known field';
      } else if (error.keyword === 'required') {
        const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
        field = missing.map((m) => (field === 'row' ? m : `${field}.${m}`)).join(', ');
        message = 'is required';
      }
      if (!reasons.has(field)) reasons.set(field, message);
    }
    return { ok: false, reason: [...reasons].map(([f, m]) => `${f} ${m}`).join('; ') || 'is not an offer' };
  }
  const unstorable = storabilityErrors(value);
  if (unstorable.length > 0) {
    return { ok: false, reason: options.describe === false ? UNDESCRIBED : unstorable.join('; ') };
  }
  const r = value as OfferRecord;
  const publishedAt = Date.parse(r.publishedAt);
  const expiresAt = r.expiresAt ? Date.parse(r.expiresAt) : null;
  return {
    ok: true,
    offer: {
      externalId: r.externalId,
      title: r.title,
      description: r.description,
      category: r.category,
      tags: r.tags ?? [],
      location: {
        city: r.location.city,
        region: r.location.region ?? null,
        country: r.location.country.toUpperCase(),
        lat: r.location.lat,
        lon: r.location.lon,
      },
      price: { amount: r.price.amount, currency: r.price.currency.toUpperCase() },
      publisher: r.publisher,
      url: r.url ?? null,
      attributes: r.attributes ?? {},
      status: r.status ?? 'active',
      publishedAt,
      expiresAt,
    },
  };
}

/** The record form of an offer input (the inverse of `parseOfferRecord`): fixtures, benchmarks. */
export function toOfferRecord(offer: OfferInput): OfferRecord {
  return {
    ...offer,
    location: { ...offer.location },
    publishedAt: new Date(offer.publishedAt).toISOString(),
    expiresAt: offer.expiresAt === null ? null : new Date(offer.expiresAt).toISOString(),
  };
}
