/**
 * Makes the generated OpenAPI document good enough for code generators (issue 15): what every
 * route shares is declared here once instead of in each route — the response headers the hooks
 * add, `security: []` on public operations, named component schemas, string enums.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'Id of this request (`req_…`, or a sane one the caller sent); quote it when asking for help.',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: "Requests per second of the key's plan (SPEC §8).",
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window is full again.',
    schema: { type: 'integer' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' },
  },
  Link: {
    description: 'The next page: `<…>; rel="next"`, the same query with `cursor`, without the API key.',
    schema: { type: 'string' },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A union of single string constants (TypeBox literals) as one `enum`: `sort: "price" | …`. */
function collapseEnum(schema: Json): void {
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length === 0) return;
  const values: string[] = [];
  for (const member of members) {
    if (!isObject(member) || member.type !== 'string') return;
    const single = Array.isArray(member.enum) && member.enum.length === 1 ? member.enum[0] : member.const;
    if (typeof single !== 'string') return;
    values.push(single);
  }
  delete schema.anyOf;
  schema.type = 'string';
  schema.enum = values;
}

/**
 * Walks every schema below `node`: collapses literal unions and moves each schema with a
 * `title` (the name given where it is declared, e.g. `OfferSchema`'s `Offer`) to
 * `components.schemas`, leaving a `$ref`. Two different schemas under one name are an error.
 */
function refineSchemas(node: unknown, named: Map<string, { schema: Json; text: string }>): unknown {
  if (Array.isArray(node)) return node.map((item) => refineSchemas(item, named));
  if (!isObject(node)) return node;
  for (const [key, value] of Object.entries(node)) {
    // Examples are data, not schemas (a problem example has `type` and `title` too).
    if (key === 'examples' || key === 'example') continue;
    // `properties` maps names to schemas; a property called `title` is not the keyword.
    node[key] = refineSchemas(value, named);
  }
  collapseEnum(node);
  const looksLikeSchema = 'type' in node || 'anyOf' in node || 'properties' in node;
  if (typeof node.title === 'string' && looksLikeSchema) {
    const name = node.title;
    const text = JSON.stringify(node);
    const known = named.get(name);
    if (known && known.text !== text) throw new Error(`OpenAPI: two different schemas are named ${name}`);
    named.set(name, { schema: node, text });
    return { $ref: `#/components/schemas/${name}` };
  }
  return node;
}

export function refineOpenApi(document: Json): Json {
  const paths = isObject(document.paths) ? document.paths : {};
  const named = new Map<string, { schema: Json; text: string }>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation)) continue;
      // Public operations say so explicitly; codegen otherwise assumes a global default.
      operation.security ??= [];
      const keyed = JSON.stringify(operation.security).includes('ApiKeyHeader');
      const responses = isObject(operation.responses) ? operation.responses : {};
      for (const [status, response] of Object.entries(responses)) {
        if (!isObject(response)) continue;
        // Fastify-swagger's placeholder: say what the success is, from the operation's summary.
        if (response.description === 'Default Response') {
          response.description =
            status === '204' ? 'Done; no content.' : String(operation.summary ?? 'Success');
        }
        const headers: Json = isObject(response.headers) ? response.headers : {};
        headers['X-Request-Id'] = headerRef('X-Request-Id');
        if (keyed) {
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
            headers[name] = headerRef(name);
          }
        }
        if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
        if (status === '200' && method === 'get' && path === '/v1/offers/') headers.Link = headerRef('Link');
        response.headers = headers;
      }
    }
  }
  refineSchemas(paths, named);
  const components = isObject(document.components) ? document.components : {};
  const schemas: Json = isObject(components.schemas) ? components.schemas : {};
  for (const [name, { schema }] of [...named].sort(([a], [b]) => a.localeCompare(b))) schemas[name] = schema;
  components.schemas = schemas;
  components.headers = { ...(isObject(components.headers) ? components.headers : {}), ...HEADERS };
  document.components = components;
  return document;
}
