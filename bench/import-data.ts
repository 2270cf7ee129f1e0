import fs from 'node:fs';
import { toOfferRecord } from '../src/offers/offer-record.js';
import { generateOffers } from '../src/offers/seed.js';

/**
 * Writes `vitrine seed`'s deterministic offers as an import file (NDJSON, the record shape of
 * docs/import.md), for measuring `vitrine import`:
 *   npx tsx bench/import-data.ts OUT.ndjson [COUNT=100000] [SEED=42]
 */
const [out, countArg, seedArg] = process.argv.slice(2);
if (!out) throw new Error('usage: tsx bench/import-data.ts OUT.ndjson [COUNT] [SEED]');
const count = Number(countArg ?? 100_000);
const seed = Number(seedArg ?? 42);
const fd = fs.openSync(out, 'w');
let buffer = '';
for (const offer of generateOffers({ count, seed })) {
  buffer += `${JSON.stringify(toOfferRecord(offer))}\n`;
  if (buffer.length > 1 << 20) {
    fs.writeSync(fd, buffer);
    buffer = '';
  }
}
fs.writeSync(fd, buffer);
fs.closeSync(fd);
