import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '../db/database.js';
import { ERRORS, type ErrorCode, errorTypeUrl, type ParameterError, ProblemError } from './errors.js';
import { findUnsafeValues } from './safe-values.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ErrorCode;
  requestId: string;
  errors?: ParameterError[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The public origin of this listener's environment: problem `type` URLs resolve there. */
    publicOrigin: string;
  }
}

export function problemBody(request: FastifyRequest, error: ProblemError, instance?: string): Problem {
  const entry = ERRORS[error.code];
  return {
    type: errorTypeUrl(error.code, request.server.publicOrigin ?? ''),
    title: entry.title,
    status: entry.status,
    detail: error.detail,
    // The path only: the query may hold a secret (`apiKey`, `refresh`).
    instance: instance ?? request.url.split('?')[0] ?? '/',
    code: error.code,
    requestId: String(request.id),
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ProblemError,
  options: { instance?: string } = {},
): FastifyReply {
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  return reply
    .code(ERRORS[error.code].status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemBody(request, error, options.instance));
}

export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  /** Where in the schema it failed (`#/properties/sort/anyOf/1/pattern`). */
  schemaPath?: string;
  /** The offending value (Ajv's `verbose` option). */
  data?: unknown;
}

/** Turns schema-validation failures into `invalid_parameter` entries naming each parameter. */
export function parameterErrors(
  validation: readonly AjvError[],
  context: string | undefined,
): ParameterError[] {
  const seen = new Map<string, string>();
  // A union of literals fails as one `const` error per alternative: list them as the choices.
  const choices = new Map<string, unknown[]>();
  const patterns = new Map<string, string>();
  const given = new Set<string>();
  for (const error of validation) {
    // Query parameters are flat (`category/0` is `category`); body fields are named by their
    // dotted path (`location.country`, `query.priceMin`), array positions left out.
    const segments = error.instancePath
      .replace(/^\//, '')
      .split('/')
      .filter((s) => s !== '' && !/^\d+$/.test(s));
    const path = context === 'body' ? segments : segments.slice(0, 1);
    const within = (name: string) => (context === 'body' ? [...path, name].join('.') : name);
    let parameter = path.join('.');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'const' && Array.isArray(error.data)) {
      if (!seen.has(parameter)) seen.set(parameter, 'must be given once');
      continue;
    }
    if (error.keyword === 'const') {
      choices.set(parameter, [...(choices.get(parameter) ?? []), error.params.allowedValue]);
      continue;
    }
    // A pattern beside a union of literals (`sort=attr.NAME`) is one more choice.
    if (error.keyword === 'pattern' && /\/anyOf\/\d+\//.test(error.schemaPath ?? '')) {
      patterns.set(parameter, String(error.params.pattern));
      continue;
    }
    if (error.keyword === 'anyOf' && (choices.has(parameter) || patterns.has(parameter))) continue;
    if (error.keyword === 'additionalProperties') {
      parameter = within(String(error.params.additionalProperty));
      message = context === 'querystring' ? 'is not a known parameter' : 'is not a known field';
    } else if (error.keyword === 'required') {
      parameter = within(String(error.params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'type' && Array.isArray(error.data)) {
      // Repeated: unless a repeatable branch of a union says why the values were refused
      // (`attr.brand` given 21 times is too many, not a parameter to give once).
      given.add(parameter);
      continue;
    } else if (error.keyword === 'type') {
      message = `must be ${articled(String(error.params.type))}`;
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    }
    // Report each parameter once, with its first (most specific) reason.
    if (parameter && !seen.has(parameter)) seen.set(parameter, message);
  }
  for (const parameter of given) if (!seen.has(parameter)) seen.set(parameter, 'must be given once');
  for (const [parameter, values] of choices) {
    const pattern = patterns.get(parameter);
    const more = pattern ? `, or match ${pattern}` : '';
    if (!seen.has(parameter)) seen.set(parameter, `must be one of: ${values.join(', ')}${more}`);
  }
  for (const [parameter, pattern] of patterns)
    if (!seen.has(parameter)) seen.set(parameter, `must match ${pattern}`);
  return [...seen].map(([parameter, message]) => ({ parameter, message }));
}

const articled = (type: string) => (type === 'integer' ? 'an integer' : `a ${type}`);

const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    detail: 'The request body is larger than allowed.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'This content type is not accepted here.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'malformed_body',
    detail: 'The Content-Length does not match the body.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed_body', detail: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed_body', detail: 'The body is not valid JSON.' },
};

/** Maps anything thrown to a problem: expected errors keep their code; the unexpected become 500. */
export function toProblem(request: FastifyRequest, error: FastifyError | Error): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof DatabaseUnavailableError) {
    return new ProblemError('unavailable', 'The database cannot be reached right now. Retry shortly.', {
      headers: { 'retry-after': '1' },
    });
  }
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation) {
    const errors = parameterErrors(fastifyError.validation, fastifyError.validationContext);
    return new ProblemError('invalid_parameter', describeParameters(errors), { errors });
  }
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return new ProblemError(known.code, known.detail);
  if (error instanceof SyntaxError && (fastifyError.statusCode ?? 500) === 400) {
    return new ProblemError('malformed_body', 'The body is not valid JSON.');
  }
  request.log.error({ err: error }, 'unhandled error');
  return new ProblemError('internal_error', 'An unexpected error occurred.');
}

export function describeParameters(errors: readonly ParameterError[]): string {
  return errors.map((e) => `${e.parameter} ${e.message}`).join('; ');
}

/**
 * Issue 13: which methods answer at a concrete path, from the routes as declared (`:param` is
 * one segment, `*` the rest; a trailing slash does not matter, as for the router).
 */
function createRouteTable() {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  return {
    add(url: string, method: string | string[]) {
      const source = trim(url)
        .split(/(:[A-Za-z0-9_]+|\*)/)
        .map((part) =>
          part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      routes.push({ pattern: new RegExp(`^${source}$`), methods: [method].flat() });
    },
    allowed(path: string): string[] {
      const target = trim(path);
      const methods = routes.filter((r) => r.pattern.test(target)).flatMap((r) => r.methods);
      return [...new Set(methods)].sort();
    },
  };
}

export function registerProblemHandlers(app: FastifyInstance, servedVersions: readonly string[]): void {
  app.setErrorHandler((error, request, reply) =>
    sendProblem(request, reply, toProblem(request, error as Error)),
  );
  // Issue 13: path parameters and query values of every route, with a schema or not (the
  // portal's and console's pages have none), carry no NUL or control character into a store.
  app.addHook('preValidation', (request, _reply, done) => {
    const errors = [
      ...findUnsafeValues(request.params, { lineBreaks: false }),
      ...findUnsafeValues(request.query, { lineBreaks: false }),
    ].map((u) => ({ parameter: u.path.replace(/^\//, '').split('/')[0] ?? '', message: u.message }));
    if (errors.length === 0) return done();
    done(new ProblemError('invalid_parameter', describeParameters(errors), { errors }));
  });
  const table = createRouteTable();
  app.addHook('onRoute', (route) => table.add(route.url, route.method));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allow = table.allowed(path);
    if (allow.length > 0) {
      reply.header('allow', allow.join(', '));
      return sendProblem(
        request,
        reply,
        new ProblemError(
          'method_not_allowed',
          `${request.method} is not answered here. Allowed: ${allow.join(', ')}.`,
        ),
      );
    }
    const version = /^\/(v\d+)(\/|$)/.exec(path)?.[1];
    if (version && !servedVersions.includes(version)) {
      return sendProblem(
        request,
        reply,
        new ProblemError(
          'version_not_found',
          `API version ${version} is not served. Served versions: ${servedVersions.join(', ')}.`,
        ),
      );
    }
    return sendProblem(request, reply, new ProblemError('not_found', `Nothing lives at ${path}.`));
  });
}
