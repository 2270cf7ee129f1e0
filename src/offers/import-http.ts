import { type Readable, Transform } from 'node:stream';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { ProblemError } from '../http/errors.js';
import type { Environment } from '../platform/environment.js';
import type { RecordEvent } from '../platform/events.js';
import { ndjsonRows, type SourceRow } from './import-source.js';
import { importOffers } from './importer.js';
import type { OfferInput } from './offer-input.js';
import { type OfferRow, offerIdFor } from './rows.js';
import type { Offer } from './schemas.js';
import type { OfferService } from './service.js';
import { OFFER_READ_COLUMNS } from './store.js';

/**
 * `POST {base_url}/offers/import` (issue 16): an NDJSON body read as a stream, line
 * by line, through the same pipeline as `vitrine import` (import-source.ts reads the lines,
 * importer.ts validates each with offer-record.ts and writes batches through
 * `OfferService.upsertMany`, the one write path). Memory holds one batch, whatever the body's
 * size.
 *
 * Project-owned offers: the stored external id is `project:<projectId>:<externalId>` (as end
 * users' own offers are `user:<id>:…`), so the derived offer id includes the project, two
 * projects' `sku-1` are two offers, and the operator's imports keep their ids.
 */
export interface LineError {
  line: number;
  externalId: string | null;
  code: 'invalid_json' | 'invalid_offer';
  message: string;
}

export interface HttpImportResult {
  created: number;
  updated: number;
  /** Valid lines identical to the stored offer: not written again (the same body twice changes nothing). */
  unchanged: number;
  failed: number;
  /** At most `MAX_LISTED_ERRORS`, in line order. */
  errors: LineError[];
}

export const MAX_LISTED_ERRORS = 1000;
/** Offers per store write: small enough to keep memory flat and other writers moving. */
const BATCH_SIZE = 2000;
/** Below this many written offers, planner statistics are left to the next big load. */
const OPTIMIZE_AFTER = 10_000;

/**
 * More invalid lines than `IMPORT_MAX_FAILED_LINES` (issue 26): the import stopped reading. What
 * it validated before is written and counted in `result`.
 */
export class ImportTooManyInvalidLinesError extends Error {
  constructor(
    readonly maxFailedLines: number,
    readonly result: HttpImportResult,
    readonly linesRead: number,
  ) {
    super(`more than ${maxFailedLines} invalid lines`);
    this.name = 'ImportTooManyInvalidLinesError';
  }
}

export class ImportTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    readonly linesRead: number,
  ) {
    super(`body larger than ${maxBytes} bytes`);
    this.name = 'ImportTooLargeError';
  }
}

export function ownedExternalId(projectId: string, externalId: string): string {
  return `project:${projectId}:${externalId}`;
}

/** The offer id of a project's offer (what `DELETE /offers/by-external-id/…` acts on). */
export function projectOfferId(environment: Environment, projectId: string, externalId: string): string {
  return offerIdFor(environment, ownedExternalId(projectId, externalId));
}

export interface HttpImportDeps {
  offers: OfferService;
  db: Database;
  /** `IMPORT_MAX_BYTES`, and `IMPORT_MAX_FAILED_LINES`: past this many invalid lines the import stops. */
  limits: Pick<Config, 'importMaxBytes' | 'importMaxFailedLines'>;
  batchSize?: number;
  /** Issue 24: `import.completed`, recorded as the import ends. */
  recordEvent?: RecordEvent;
}

/** `POST /v1/offers/import` as a service (issue 14: the route gets this, not the database). */
export interface OfferImports {
  maxBytes: number;
  importNdjson(input: {
    environment: Environment;
    projectId: string;
    body: Readable;
  }): Promise<HttpImportResult>;
  /**
   * `DELETE /v1/offers/by-external-id/…`: withdraws one of the project's offers (idempotent) and
   * returns its id; `offer_not_found` when the project has none with this external id.
   */
  withdraw(input: { environment: Environment; projectId: string; externalId: string }): Promise<string>;
}

export function createOfferImports(deps: HttpImportDeps): OfferImports {
  return {
    maxBytes: deps.limits.importMaxBytes,
    async importNdjson(input) {
      const result = await importNdjson(deps, input);
      const { recordEvent } = deps;
      if (recordEvent) {
        const { created, updated, unchanged, failed } = result;
        await deps.db.transaction((tx) =>
          recordEvent(tx, {
            projectId: input.projectId,
            environment: input.environment,
            type: 'import.completed',
            data: { created, updated, unchanged, failed },
          }),
        );
      }
      return result;
    },
    async withdraw({ environment, projectId, externalId }) {
      const id = projectOfferId(environment, projectId, externalId);
      const offer = await deps.offers.get(environment, id);
      if (!offer) {
        throw new ProblemError(
          'offer_not_found',
          `Your project has no offer with externalId ${externalId} in the ${environment} environment.`,
        );
      }
      if (offer.status !== 'withdrawn') {
        await deps.offers.upsertMany(environment, [withdrawn(offer, projectId, externalId)]);
      }
      return id;
    },
  };
}

export async function importNdjson(
  deps: HttpImportDeps,
  input: { environment: Environment; projectId: string; body: Readable },
): Promise<HttpImportResult> {
  const { environment, projectId } = input;
  const result: HttpImportResult = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  let bytes = 0;
  let lastLine = 0;
  const limited = input.body.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > deps.limits.importMaxBytes)
          callback(new ImportTooLargeError(deps.limits.importMaxBytes, lastLine));
        else callback(null, chunk);
      },
    }),
  );
  // A client that breaks off mid-body: the pipeline sees an error, not a silent end.
  input.body.on('error', (error) => limited.destroy(error));
  input.body.on('aborted', () => limited.destroy(new Error('request aborted')));

  /** The line being validated: importOffers reports an invalid row while it is the current one. */
  let current: { line: number; externalId: string | null; unreadable: boolean } = {
    line: 0,
    externalId: null,
    unreadable: false,
  };
  async function* rows(): AsyncGenerator<SourceRow> {
    for await (const row of ndjsonRows(limited)) {
      lastLine = row.line;
      const record = 'record' in row ? row.record : undefined;
      const externalId =
        typeof record === 'object' &&
        record !== null &&
        typeof (record as { externalId?: unknown }).externalId === 'string'
          ? String((record as { externalId: string }).externalId).slice(0, 200)
          : null;
      current = { line: row.line, externalId, unreadable: 'error' in row };
      yield row;
    }
  }

  let written = 0;
  const projectOffers: OfferService = {
    ...deps.offers,
    async upsertMany(env, offers) {
      const owned = offers.map(
        (o): OfferInput => ({ ...o, externalId: ownedExternalId(projectId, o.externalId), projectId }),
      );
      const changed = await withoutUnchanged(deps.db, env, owned);
      result.unchanged += owned.length - changed.length;
      written += changed.length;
      return changed.length > 0 ? deps.offers.upsertMany(env, changed) : { inserted: 0, updated: 0 };
    },
    // Fresh planner statistics only after a big load; a pipeline's small update needs none.
    optimize: async () => {
      if (written >= OPTIMIZE_AFTER) await deps.offers.optimize();
    },
  };

  const stats = await importOffers({
    offers: projectOffers,
    environment,
    rows: rows(),
    dryRun: false,
    batchSize: deps.batchSize ?? BATCH_SIZE,
    onInvalid(row) {
      result.failed += 1;
      if (result.errors.length >= MAX_LISTED_ERRORS) return;
      const mine = current.line === row.line ? current : { externalId: null, unreadable: false };
      result.errors.push({
        line: row.line,
        externalId: mine.externalId,
        code: mine.unreadable ? 'invalid_json' : 'invalid_offer',
        message: row.reason,
      });
    },
    onProgress: () => undefined,
    // Past the listed errors an invalid line is counted, not described (issue 26).
    describeInvalid: () => result.errors.length < MAX_LISTED_ERRORS,
    maxInvalid: deps.limits.importMaxFailedLines,
  });
  result.created = stats.inserted;
  result.updated = stats.updated;
  if (stats.stopped)
    throw new ImportTooManyInvalidLinesError(deps.limits.importMaxFailedLines, result, lastLine);
  return result;
}

/**
 * The offers that differ from what is stored (every field the producer sends, and the
 * project). Reading a batch's rows by primary key costs one indexed query per 500 offers and
 * saves rewriting (and re-indexing) offers a pipeline sends again unchanged.
 */
async function withoutUnchanged(
  db: Database,
  environment: Environment,
  offers: readonly OfferInput[],
): Promise<OfferInput[]> {
  const ids = offers.map((o) => offerIdFor(environment, o.externalId));
  const stored = new Map<string, OfferRow>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    const rows = await db.all<OfferRow>(
      `SELECT ${OFFER_READ_COLUMNS} FROM offers o WHERE o.id IN (${chunk.map(() => '?').join(', ')}) AND o.environment = ?`,
      [...chunk, environment],
    );
    for (const row of rows) stored.set(row.id, row);
  }
  // The same external id twice in one batch: the last line wins, as it would written in order,
  // and only it is compared with the stored offer, so the same body twice changes nothing.
  const last = new Map<string, number>();
  for (const [i, id] of ids.entries()) last.set(id, i);
  return offers.filter((offer, i) => {
    const id = ids[i] as string;
    if (last.get(id) !== i) return false;
    const row = stored.get(id);
    return !row || !sameOffer(offer, row);
  });
}

function sameOffer(offer: OfferInput, row: OfferRow): boolean {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return (
    row.title === offer.title &&
    row.description === offer.description &&
    row.category === offer.category &&
    row.tags === JSON.stringify(offer.tags) &&
    row.city === offer.location.city &&
    row.region === offer.location.region &&
    row.country === offer.location.country &&
    Number(row.lat) === offer.location.lat &&
    Number(row.lon) === offer.location.lon &&
    row.price_amount === offer.price.amount &&
    row.currency === offer.price.currency &&
    row.publisher_id === offer.publisher.id &&
    row.publisher_name === offer.publisher.name &&
    row.url === offer.url &&
    row.attributes === JSON.stringify(offer.attributes) &&
    row.status === offer.status &&
    Number(row.published_at) === offer.publishedAt &&
    num(row.expires_at) === offer.expiresAt &&
    row.project_id === (offer.projectId ?? null)
  );
}

/** The stored offer again, withdrawn: written through the one write path like any import. */
function withdrawn(offer: Offer, projectId: string, externalId: string): OfferInput {
  return {
    externalId: ownedExternalId(projectId, externalId),
    title: offer.title,
    description: offer.description,
    category: offer.category,
    tags: offer.tags,
    location: { ...offer.location },
    price: { ...offer.price },
    publisher: { ...offer.publisher },
    url: offer.url,
    attributes: offer.attributes,
    status: 'withdrawn',
    publishedAt: Date.parse(offer.publishedAt),
    expiresAt: offer.expiresAt === null ? null : Date.parse(offer.expiresAt),
    projectId,
  };
}
