/**
 * Prices are decimal strings on the wire and integers of 1/10 000 of the currency unit in the
 * database: exact (no float rounding), comparable in SQL, identical on SQLite and PostgreSQL.
 * Eleven integer digits keep every value below 2^53.
 */
export const PRICE_PATTERN = /^\d{1,11}(\.\d{1,4})?$/;
const SCALE = 4;

export function priceToUnits(amount: string): number {
  if (!PRICE_PATTERN.test(amount)) throw new RangeError(`not a price: ${amount}`);
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 10 ** SCALE + Number(fraction.padEnd(SCALE, '0'));
}
