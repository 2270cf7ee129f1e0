import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Environment } from '../platform/environment.js';
import { attributeValue } from '../search/attributes/values.js';
import type { AttributeDeclaration } from '../search/engine.js';
import { CODE_COLUMNS, NUMBER_COLUMNS } from './index-page.js';

/**
 * The start-up read's worker thread (index-reader.ts starts one per environment read, ADR 0022):
 * its own read-only connection reads every offer of the environment in `seq` order, `pageSize`
 * rows at a time, and posts each page in the compact form described in index-reader.ts. It
 * posts at most `ahead` pages the main thread has not acknowledged (one message per page taken
 * in), then waits for credit. With declared attributes it also reads `attributes`, parses each
 * offer's JSON here and posts only the declared values (`attributes` of the page).
 */
export type IndexReaderWorkerData = (
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string }
) & {
  environment: Environment;
  pageSize: number;
  ahead: number;
  /** The environment's declared attributes the index is built for (none: the column is not read). */
  attributes: ReadonlyArray<Pick<AttributeDeclaration, 'name' | 'type'>>;
};

/** One page of offers, from the worker to the reader. */
export interface IndexPageMessage {
  ids: string[];
  /** Every title and description of the page, one after the other (see `ends`). */
  text: string;
  /** Where each title and description ends in `text`: [title 0, description 0, title 1, …]. */
  ends: Int32Array;
  /** `CODE_COLUMNS` codes per row (index-page.ts). */
  codes: Int32Array;
  /** `NUMBER_COLUMNS` numbers per row (index-page.ts). */
  numbers: Float64Array;
  /**
   * One value per row and declared attribute, in declaration order (NaN: none): a number
   * attribute's number and a boolean's 1 / 0 as the index holds them, a string attribute's code
   * (its value as written, column `CODE_COLUMNS` + its position).
   */
  attributes: Float64Array;
  /** (column, value) pairs of the codes first used in this page, in code order. */
  values: Array<number | string>;
  last: boolean;
  error?: undefined;
}

/** The read failed: the worker's last message. */
export interface IndexReaderFailure {
  error: { message: string; code?: string };
}

export type IndexReaderMessage = IndexPageMessage | IndexReaderFailure;

/** Any message from the reader: one page taken in, one more may be read ahead. */
export type IndexReaderCredit = 0;

/** A row as read: both drivers give the columns of `SQL` in order (int8 parsed to numbers). */
type Row = [
  seq: number,
  id: string,
  title: string,
  description: string,
  category: string,
  tags: string,
  city: string,
  country: string,
  currency: string,
  priceValue: number | string,
  lat: number,
  lon: number,
  status: string,
  publishedAt: number,
  updatedAt: number,
  expiresAt: number | null,
  publisherId: string,
  attributes?: string,
];

const COLUMNS =
  'seq, id, title, description, category, tags, city, country, currency, price_value, lat, lon, status, published_at, updated_at, expires_at, publisher_id';

function workerPort(): MessagePort {
  if (!parentPort) throw new Error('index-reader-worker runs in a worker thread (index-reader.ts starts it)');
  return parentPort;
}
const port = workerPort();
const data = workerData as IndexReaderWorkerData;
const { environment, pageSize, attributes } = data;
const SQL = `SELECT ${COLUMNS}${attributes.length > 0 ? ', attributes' : ''} FROM offers WHERE seq > ? AND environment = ? ORDER BY seq LIMIT ?`;

// One map per column (no key built per row), one code space for all of them.
const codes = Array.from({ length: CODE_COLUMNS + attributes.length }, () => new Map<string, number>());
let nextCode = 0;
let fresh: Array<number | string> = [];
function code(column: number, value: string): number {
  const seen = codes[column] as Map<string, number>;
  let c = seen.get(value);
  if (c === undefined) {
    c = nextCode++;
    seen.set(value, c);
    fresh.push(column, value);
  }
  return c;
}

let credit = data.ahead;
let wake: (() => void) | null = null;
port.on('message', (_credit: IndexReaderCredit) => {
  credit += 1;
  if (wake) {
    const w = wake;
    wake = null;
    w();
  }
});

async function send(rows: Row[], last: boolean): Promise<void> {
  const n = rows.length;
  const ids = new Array<string>(n);
  const texts = new Array<string>(2 * n);
  const ends = new Int32Array(2 * n);
  let at = 0;
  const c = new Int32Array(n * CODE_COLUMNS);
  const x = new Float64Array(n * NUMBER_COLUMNS);
  const a = new Float64Array(n * attributes.length);
  for (let i = 0; i < n; i += 1) {
    const r = rows[i] as Row;
    ids[i] = r[1];
    texts[2 * i] = r[2];
    texts[2 * i + 1] = r[3];
    at += r[2].length;
    ends[2 * i] = at;
    at += r[3].length;
    ends[2 * i + 1] = at;
    const k = i * CODE_COLUMNS;
    c[k] = code(0, r[4]);
    c[k + 1] = code(1, r[5]);
    c[k + 2] = code(2, r[6]);
    c[k + 3] = code(3, r[7]);
    c[k + 4] = code(4, r[8]);
    c[k + 5] = code(5, r[12]);
    c[k + 6] = code(6, r[16]);
    const m = i * NUMBER_COLUMNS;
    x[m] = Number(r[9]);
    x[m + 1] = Number(r[10]);
    x[m + 2] = Number(r[11]);
    x[m + 3] = Number(r[13]);
    x[m + 4] = Number(r[14]);
    x[m + 5] = r[15] === null ? Number.NaN : Number(r[15]);
    if (attributes.length > 0) declared(r[17], a, i * attributes.length);
  }
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit -= 1;
  const values = fresh;
  fresh = [];
  const text = texts.join('');
  const page: IndexPageMessage = { ids, text, ends, codes: c, numbers: x, attributes: a, values, last };
  port.postMessage(page, [ends.buffer, c.buffer, x.buffer, a.buffer]);
}

/**
 * An offer's declared values into `out` from `at`: numbers and booleans as the index holds them
 * (attributeValue), strings as written (the index folds them; a number given for a string
 * attribute as its decimal text, as the index reads it).
 */
function declared(json: string | undefined, out: Float64Array, at: number): void {
  const all = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown> | null;
  for (let j = 0; j < attributes.length; j += 1) {
    const { name, type } = attributes[j] as (typeof attributes)[number];
    const raw = all?.[name];
    if (type !== 'string') out[at + j] = (attributeValue(type, raw) as number | undefined) ?? Number.NaN;
    else if (typeof raw === 'string' || typeof raw === 'number')
      out[at + j] = code(CODE_COLUMNS + j, String(raw));
    else out[at + j] = Number.NaN;
  }
}

async function readSqlite(file: string): Promise<void> {
  let after = 0;
  const db = new Database(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  const statement = db.prepare<[number, Environment, number], Row>(SQL).raw();
  try {
    for (;;) {
      const rows = statement.all(after, environment, pageSize) as unknown as Row[];
      const last = rows.length < pageSize;
      await send(rows, last);
      if (last) return;
      after = (rows[rows.length - 1] as Row)[0];
    }
  } finally {
    db.close();
  }
}

async function readPostgres(url: string): Promise<void> {
  let after = 0;
  const client = new pg.Client({ connectionString: url, options: '-c jit=off' });
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;
  const types = { getTypeParser };
  let n = 0;
  const text = SQL.replace(/\?/g, () => `$${++n}`);
  // A connection dropped between two pages: the next query fails and ends the read (issue 26).
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<Row>({
        text,
        values: [after, environment, pageSize],
        rowMode: 'array',
        types,
      });
      const last = rows.length < pageSize;
      await send(rows, last);
      if (last) return;
      after = (rows[rows.length - 1] as Row)[0];
    }
  } finally {
    await client.end();
  }
}

(data.dialect === 'sqlite' ? readSqlite(data.file) : readPostgres(data.url)).then(
  // Nothing more to send: the worker ends once the messages already posted are delivered.
  () => port.unref(),
  (error: unknown) => {
    const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
    const failure: IndexReaderFailure = {
      error: { message: String(message), code: typeof code === 'string' ? code : undefined },
    };
    port.postMessage(failure);
  },
);
