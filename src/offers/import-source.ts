import fs from 'node:fs';
import { parseCsv } from './import-csv.js';

/**
 * Rows of an import file, in order, each with the line it starts on: a candidate offer record
 * (still to be validated by offer-record.ts) or the reason it could not even be read.
 */
export type SourceRow = { line: number; record: unknown } | { line: number; error: string };
export type ImportFormat = 'ndjson' | 'csv';

export interface ImportSource {
  rows: AsyncIterable<SourceRow>;
  /** Bytes read so far and the file size, for progress and ETA. */
  progress(): { bytes: number; totalBytes: number };
}

export function formatOf(file: string): ImportFormat | null {
  if (/\.(nd)?jsonl?$/i.test(file) || /\.ndjson$/i.test(file)) return 'ndjson';
  if (/\.csv$/i.test(file)) return 'csv';
  return null;
}

export function openImportSource(file: string, format: ImportFormat): ImportSource {
  const totalBytes = fs.statSync(file).size;
  // NDJSON is read as bytes: ndjsonRows decodes each line itself, refusing invalid UTF-8.
  const stream = fs.createReadStream(file, {
    encoding: format === 'csv' ? 'utf8' : undefined,
    highWaterMark: 256 * 1024,
  });
  return {
    rows: format === 'ndjson' ? ndjsonRows(stream) : csvRows(stream),
    progress: () => ({ bytes: stream.bytesRead, totalBytes }),
  };
}

/** Parsing this long without a pause lets the event loop run (issue 26: other requests wait otherwise). */
const YIELD_AFTER_MS = 5;
const LINE_FEED = 0x0a;
export const NOT_UTF8 = 'is not valid UTF-8';

/**
 * NDJSON rows of a file or of a request body (`POST /offers/import`, issue 16): one reading.
 * Lines are split on bytes and each is decoded with a fatal decoder (issue 26): invalid UTF-8 is
 * that line's error, never silently replaced by U+FFFD. A trailing CR is dropped (CRLF files).
 * Every few milliseconds of parsing it waits for the event loop's next turn, so a body of many
 * small lines (all invalid, say) does not hold every other request behind it.
 */
export async function* ndjsonRows(stream: AsyncIterable<Buffer | string>): AsyncGenerator<SourceRow> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 0;
  let pending: Buffer[] = [];
  let since = performance.now();
  function row(bytes: Buffer): SourceRow | null {
    line += 1;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, end));
    } catch {
      return { line, error: NOT_UTF8 };
    }
    if (text.trim() === '') return null;
    try {
      return { line, record: JSON.parse(text) as unknown };
    } catch {
      return { line, error: 'is not valid JSON' };
    }
  }
  for await (const chunk of stream) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = data.indexOf(LINE_FEED); end !== -1; end = data.indexOf(LINE_FEED, start)) {
      const piece = data.subarray(start, end);
      const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      start = end + 1;
      const parsed = row(bytes);
      if (parsed) yield parsed;
      if (performance.now() - since > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
    if (start < data.length) pending.push(data.subarray(start));
  }
  if (pending.length > 0) {
    const parsed = row(Buffer.concat(pending));
    if (parsed) yield parsed;
  }
}

/**
 * CSV columns (docs/import.md): the header names them, in any order. `tags` holds slugs
 * separated by `|`; `attributes.NAME` columns become attributes (a plain number becomes a
 * number); empty optional cells are left out.
 */
const CSV_COLUMNS = [
  'externalId',
  'title',
  'description',
  'category',
  'tags',
  'city',
  'region',
  'country',
  'lat',
  'lon',
  'price',
  'currency',
  'publisherId',
  'publisherName',
  'url',
  'status',
  'publishedAt',
  'expiresAt',
] as const;
const REQUIRED_CSV_COLUMNS = [
  'externalId',
  'title',
  'category',
  'city',
  'country',
  'lat',
  'lon',
  'price',
  'currency',
  'publisherId',
  'publisherName',
  'publishedAt',
];

export class ImportFileError extends Error {}

async function* csvRows(stream: fs.ReadStream): AsyncGenerator<SourceRow> {
  let header: string[] | null = null;
  for await (const row of parseCsv(stream as AsyncIterable<string>)) {
    if ('error' in row) {
      if (!header) throw new ImportFileError(`line ${row.line}: the header cannot be read: ${row.error}`);
      yield row;
      continue;
    }
    if (!header) {
      header = row.fields.map((f) => f.trim());
      checkHeader(header);
      continue;
    }
    if (row.fields.length !== header.length) {
      yield { line: row.line, error: `has ${row.fields.length} fields, the header has ${header.length}` };
      continue;
    }
    yield { line: row.line, record: csvRecord(header, row.fields) };
  }
}

function checkHeader(header: string[]): void {
  const known = new Set<string>(CSV_COLUMNS);
  const unknown = header.filter((h) => !known.has(h) && !/^attributes\.[^.]+$/.test(h));
  if (unknown.length > 0) throw new ImportFileError(`unknown CSV column(s): ${unknown.join(', ')}`);
  const missing = REQUIRED_CSV_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new ImportFileError(`missing CSV column(s): ${missing.join(', ')}`);
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  if (repeated.length > 0) throw new ImportFileError(`repeated CSV column(s): ${repeated.join(', ')}`);
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const numeric = (cell: string): number | string => (NUMBER.test(cell.trim()) ? Number(cell) : cell);

/** One CSV row in the record shape of offer-record.ts; validation happens there, once. */
function csvRecord(header: string[], fields: string[]): Record<string, unknown> {
  const cell = new Map(header.map((h, i) => [h, fields[i] ?? '']));
  const optional = (name: string) => {
    const value = cell.get(name);
    return value === undefined || value === '' ? undefined : value;
  };
  const attributes: Record<string, string | number> = {};
  for (const [name, value] of cell) {
    if (name.startsWith('attributes.') && value !== '') attributes[name.slice(11)] = numeric(value);
  }
  const record: Record<string, unknown> = {
    externalId: cell.get('externalId'),
    title: cell.get('title'),
    description: cell.get('description') ?? '',
    category: cell.get('category'),
    tags: optional('tags')?.split('|') ?? [],
    location: {
      city: cell.get('city'),
      region: optional('region') ?? null,
      country: cell.get('country'),
      lat: numeric(cell.get('lat') ?? ''),
      lon: numeric(cell.get('lon') ?? ''),
    },
    price: { amount: cell.get('price'), currency: optional('currency') },
    publisher: { id: optional('publisherId'), name: optional('publisherName') },
    url: optional('url') ?? null,
    attributes,
    status: optional('status'),
    publishedAt: optional('publishedAt'),
    expiresAt: optional('expiresAt') ?? null,
  };
  return JSON.parse(JSON.stringify(record)) as Record<string, unknown>; // drops undefined keys
}
