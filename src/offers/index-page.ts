/**
 * The layout of one page of the start-up read (ADR 0022), shared by the worker that writes it
 * (index-reader-worker.ts) and the reader that takes it in (index-reader.ts). Per row: the
 * codes, then the numbers (expires_at NaN when null).
 */
export const CODE_COLUMNS = 7; // category, tags, city, country, currency, status, publisher id
export const NUMBER_COLUMNS = 6; // price_value, lat, lon, published_at, updated_at, expires_at
