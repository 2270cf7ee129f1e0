import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../http/errors.js';
import { API_KEY_SECURITY, problemResponses } from '../http/schemas.js';
import type { KeyRecord } from '../keys/model.js';
import type { Environment } from '../platform/environment.js';
import {
  ImportTooLargeError,
  ImportTooManyInvalidLinesError,
  MAX_LISTED_ERRORS,
  type OfferImports,
} from './import-http.js';

export interface OfferWriteRouteDeps {
  environment: Environment;
  guard: onRequestHookHandler;
  /** `IMPORT_MAX_BYTES`. */
  imports: OfferImports;
}

export const NDJSON = 'application/x-ndjson';

const ImportResponseSchema = Type.Object(
  {
    created: Type.Integer({ description: 'Offers new to the project.' }),
    updated: Type.Integer({ description: 'Offers of the project that changed.' }),
    unchanged: Type.Integer({
      description:
        'Valid lines that changed nothing: identical to the stored offer, or replaced by a later line of the same batch with the same externalId (sending a body twice changes nothing).',
    }),
    failed: Type.Integer({ description: 'Invalid lines, skipped; the valid ones are kept.' }),
    errors: Type.Array(
      Type.Object(
        {
          line: Type.Integer({ description: 'Line number in the body, from 1.' }),
          externalId: Type.Union([Type.String(), Type.Null()]),
          code: Type.Union([Type.Literal('invalid_json'), Type.Literal('invalid_offer')]),
          message: Type.String({ description: 'The offending fields and why.' }),
        },
        { additionalProperties: false },
      ),
      { description: `The first ${MAX_LISTED_ERRORS} invalid lines; \`failed\` counts them all.` },
    ),
  },
  { additionalProperties: false },
);

const ExternalIdParams = Type.Object({
  externalId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:/-]+$' }),
});
const NoQuery = Type.Object({ apiKey: Type.Optional(Type.String()) }, { additionalProperties: false });

const WithdrawnSchema = Type.Object(
  {
    id: Type.String({ description: 'The offer id, `off_…`.' }),
    externalId: Type.String(),
    status: Type.Literal('withdrawn'),
  },
  { additionalProperties: false },
);

/**
 * `POST {base_url}/offers/import` and `DELETE {base_url}/offers/by-external-id/{externalId}`
 * (issue 16): a project's own offers, written with a secret key holding the
 * `offers:write` scope. The scope is checked by the API-key guard before the body is read.
 */
export function registerOfferWriteRoutes(app: FastifyInstance, deps: OfferWriteRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // The body stays a stream: importNdjson reads it line by line (memory flat for 50 MB).
  app.addContentTypeParser(NDJSON, (_request, payload, done) => done(null, payload));

  api.post(
    '/v1/offers/import',
    {
      onRequest: deps.guard,
      config: { apiKeyScope: 'offers:write' },
      schema: {
        tags: ['offers'],
        summary: "Import the project's offers (NDJSON)",
        operationId: 'importOffers',
        description: `One offer per line, as for \`vitrine import\` (docs/import.md), with \`Content-Type: ${NDJSON}\`, up to \`IMPORT_MAX_BYTES\` (default 50 MB). Upserts by \`externalId\` within the key's project; invalid lines are reported with their line numbers and skipped, valid ones kept. Sending the same body twice changes nothing. Needs the \`offers:write\` scope.`,
        security: API_KEY_SECURITY,
        querystring: NoQuery,
        consumes: [NDJSON],
        response: { 200: ImportResponseSchema, ...problemResponses(400, 401, 403, 413, 415, 422) },
      },
    },
    async (request) => {
      const key = keyOf(request);
      const body = request.body;
      if (!(body instanceof Readable)) {
        throw new ProblemError(
          'unsupported_media_type',
          `Send the offers as NDJSON (one JSON offer per line) with Content-Type: ${NDJSON}.`,
        );
      }
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > deps.imports.maxBytes)
        throw tooLarge(deps.imports.maxBytes, null);
      try {
        return await deps.imports.importNdjson({
          environment: deps.environment,
          projectId: key.projectId,
          body,
        });
      } catch (error) {
        if (error instanceof ImportTooLargeError) throw tooLarge(error.maxBytes, error.linesRead);
        if (error instanceof ImportTooManyInvalidLinesError) throw tooManyInvalid(error);
        throw error;
      }
    },
  );

  api.delete(
    '/v1/offers/by-external-id/:externalId',
    {
      onRequest: deps.guard,
      config: { apiKeyScope: 'offers:write' },
      schema: {
        tags: ['offers'],
        summary: "Withdraw one of the project's offers",
        operationId: 'withdrawOfferByExternalId',
        description:
          "Sets the offer's status to `withdrawn` (searches stop finding it unless they ask for `status=withdrawn`). Only offers the key's project imported; another project's offer with the same external id is untouched. Needs the `offers:write` scope.",
        security: API_KEY_SECURITY,
        params: ExternalIdParams,
        querystring: NoQuery,
        response: { 200: WithdrawnSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const key = keyOf(request);
      const { externalId } = request.params;
      const id = await deps.imports.withdraw({
        environment: deps.environment,
        projectId: key.projectId,
        externalId,
      });
      return { id, externalId, status: 'withdrawn' as const };
    },
  );
}

function keyOf(request: FastifyRequest): KeyRecord {
  const key = request.apiKey;
  if (!key) throw new Error('API-key guard did not run');
  return key;
}

function tooLarge(maxBytes: number, linesRead: number | null): ProblemError {
  const kept =
    linesRead === null
      ? 'Nothing was imported.'
      : `The valid lines among the first ${linesRead} were imported (re-sending them is harmless).`;
  return new ProblemError(
    'payload_too_large',
    `An import body may hold at most ${maxBytes} bytes (IMPORT_MAX_BYTES). ${kept} Split the offers over several requests.`,
  );
}

function tooManyInvalid(error: ImportTooManyInvalidLinesError): ProblemError {
  const { created, updated, unchanged } = error.result;
  return new ProblemError(
    'import_too_many_invalid_lines',
    `More than ${error.maxFailedLines} lines of the body are invalid (IMPORT_MAX_FAILED_LINES): the import stopped at line ${error.linesRead}. The valid lines before it were kept: ${created} created, ${updated} updated, ${unchanged} unchanged (re-sending them is harmless). Check the body's format against the first errors of a smaller import.`,
  );
}
