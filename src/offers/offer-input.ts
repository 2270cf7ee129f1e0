/**
 * What a producer (seed, import, an end user) supplies to create or update an offer.
 * The store derives everything else (id, search text, timestamps it owns).
 *
 * Prices are decimal strings so no float ever rounds an amount.
 * Times are epoch milliseconds; the HTTP layer renders them as RFC 3339.
 */
export interface OfferInput {
  /** Producer's own identifier; import and seed upsert on (environment, externalId). */
  externalId: string;
  title: string;
  description: string;
  /** Lower-case slug, e.g. `electronics`, `home-garden`. */
  category: string;
  /** Lower-case slugs, unique, at most 20. */
  tags: string[];
  location: {
    city: string;
    region: string | null;
    /** ISO 3166-1 alpha-2, upper case. */
    country: string;
    lat: number;
    lon: number;
  };
  price: {
    /** Decimal string, at most 4 fraction digits, non-negative: `"1299.00"`. */
    amount: string;
    /** ISO 4217, upper case. */
    currency: string;
  };
  publisher: { id: string; name: string };
  url: string | null;
  attributes: Record<string, string | number>;
  status: 'active' | 'expired' | 'withdrawn';
  publishedAt: number;
  /** Null when the offer does not expire. */
  expiresAt: number | null;
  /**
   * The project whose write key sent the offer over HTTP (issue 16); absent for
   * the operator's import, seeds and end users' own offers.
   */
  projectId?: string | null;
}
