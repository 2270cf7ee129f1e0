import type { EngineQuery, OfferStatus } from '../engine.js';

/** A stored status as the index codes it (its status column, the ids of its status sets). */
export const STATUS_CODE: Record<OfferStatus, number> = { active: 0, expired: 1, withdrawn: 2 };

/** Whether the query filters on anything but the status (its text aside). */
export function hasFilter(q: EngineQuery): boolean {
  return (
    q.categories.length > 0 ||
    q.tags.length > 0 ||
    q.city !== null ||
    q.country !== null ||
    q.currency !== null ||
    q.priceMin !== null ||
    q.priceMax !== null ||
    q.publishedAfter !== null ||
    q.publishedBefore !== null ||
    q.updatedSince !== null ||
    (q.near !== null && q.radiusKm !== null) ||
    q.attributes.length > 0
  );
}
