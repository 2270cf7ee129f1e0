import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Schema validation of requests. Query strings, path parameters and headers arrive as text, so
 * their values are coerced (`limit=5` is a number; a repeated parameter is an array). JSON
 * bodies are typed already and are validated as sent: `{"title": null}` or `{"lat": "48"}` is
 * an error naming the field, never silently turned into `""` or `48`.
 */
const COMMON: Options = {
  // Unknown parameters and fields are an error (SPEC §6), not silently dropped.
  removeAdditional: false,
  allErrors: true,
  useDefaults: true,
  // Gives errors their offending value, to tell a repeated parameter from a mistyped one.
  verbose: true,
};

function instance(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const textual = instance({ coerceTypes: 'array' });
  const json = instance({ coerceTypes: false });
  return ({ schema, httpPart }) => (httpPart === 'body' ? json : textual).compile(schema as object);
}
