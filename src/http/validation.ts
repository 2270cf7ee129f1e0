import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { findUnsafeValues, isStorableTimestamp, NON_FINITE_MESSAGE } from './safe-values.js';

/**
 * Schema validation of requests. Query strings, path parameters and headers arrive as text, so
 * their values are coerced (`limit=5` is a number; a repeated parameter is an array). JSON
 * bodies are typed already and are validated as sent: `{"title": null}` or `{"lat": "48"}` is
 * an error naming the field, never silently turned into `""` or `48`.
 *
 * Issue 13: every part is also checked for what no store can take (safe-values.ts): a NUL or
 * other control character in any string (bodies may hold tab and line breaks), a number that
 * is not finite after coercion (`limit=Infinity`, `1e309`), a `date-time` that names no real
 * instant (a leap second). Each is an `invalid_parameter` naming the parameter or field.
 */
const COMMON: Options = {
  // Unknown parameters and fields are an error, not silently dropped.
  removeAdditional: false,
  allErrors: true,
  useDefaults: true,
  // Gives errors their offending value, to tell a repeated parameter from a mistyped one.
  verbose: true,
};

function instance(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  // ajv-formats accepts `23:59:60` (RFC 3339 allows leap seconds); nothing downstream can hold one.
  ajv.addFormat('date-time', { type: 'string', validate: isStorableTimestamp });
  return ajv;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function unsafeErrors(data: unknown, lineBreaks: boolean): ErrorObject[] {
  return findUnsafeValues(data, { lineBreaks }).map((f) => ({
    keyword: 'safeValue',
    instancePath: f.path,
    schemaPath: '#',
    params: {},
    message: f.message,
  }));
}

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const textual = instance({ coerceTypes: 'array' });
  const json = instance({ coerceTypes: false });
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body';
    const validate = (body ? json : textual).compile(schema as object);
    const checked: Validate = (data) => {
      // Controls first, on the values as sent; numbers after coercion, which makes them numbers.
      const controls = unsafeErrors(data, body).filter((e) => e.message !== NON_FINITE_MESSAGE);
      const valid = validate(data);
      const schemaErrors = valid ? [] : (validate.errors ?? []);
      const numbers = unsafeErrors(data, body).filter((e) => e.message === NON_FINITE_MESSAGE);
      const errors = [...controls, ...numbers, ...schemaErrors];
      checked.errors = errors.length > 0 ? errors : null;
      return errors.length === 0;
    };
    return checked;
  };
}
