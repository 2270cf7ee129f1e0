import { ERROR_DOCS_PATH } from './errors.js';

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
    description: "Requests per second of the key's plan.",
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

/**
 * Optional query parameters show no example: Swagger UI would fill it into "Try it" and send a
 * parameter nobody asked for. The example stays readable in the description.
 */
function unfillOptionalParameters(operation: Json): void {
  if (!Array.isArray(operation.parameters)) return;
  for (const parameter of operation.parameters) {
    if (!isObject(parameter) || parameter.required === true) continue;
    const schema = isObject(parameter.schema) ? parameter.schema : {};
    const examples = [
      ...(Array.isArray(schema.examples) ? schema.examples : []),
      ...(Array.isArray(parameter.examples) ? parameter.examples : []),
      ...('example' in parameter ? [parameter.example] : []),
    ];
    delete schema.examples;
    delete schema.example;
    delete parameter.examples;
    delete parameter.example;
    if (examples.length > 0 && typeof parameter.description === 'string') {
      parameter.description = `${parameter.description} Example: \`${String(examples[0])}\`.`;
    }
  }
}

/** Problem examples were declared with a relative `type`; this listener's origin goes in front. */
function absoluteProblemTypes(node: unknown, origin: string): void {
  if (Array.isArray(node)) for (const item of node) absoluteProblemTypes(item, origin);
  if (!isObject(node)) return;
  if (typeof node.type === 'string' && node.type.startsWith(`${ERROR_DOCS_PATH}#`)) {
    node.type = `${origin}${node.type}`;
  }
  for (const value of Object.values(node)) absoluteProblemTypes(value, origin);
}

export interface ListenerAddresses {
  environment: string;
  origin: string;
}

/**
 * The document of one listener: its `servers` entry is its environment's `{base_url}`
 * (`<origin>/v1`), the auth server's operations carry `{auth_url}` (`<origin>/auth`) as their
 * own server, and the operational ones (`/healthz`) the origin; each path is then relative to
 * its server, as the docs write them (`{base_url}/offers/`, `{auth_url}/token`).
 */
function placeOnServers(document: Json, { environment, origin }: ListenerAddresses): void {
  const paths = isObject(document.paths) ? document.paths : {};
  const placed: Json = {};
  const servers = [
    { prefix: '/v1', url: `${origin}/v1`, description: `{base_url} of the ${environment} environment` },
    { prefix: '/auth', url: `${origin}/auth`, description: `{auth_url} of the ${environment} environment` },
  ];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const server = servers.find((s) => path.startsWith(`${s.prefix}/`));
    const relative = server ? path.slice(server.prefix.length) : path;
    if (relative in placed) throw new Error(`OpenAPI: two paths become ${relative}`);
    if (server !== servers[0]) {
      item.servers = [
        server
          ? { url: server.url, description: server.description }
          : { url: origin, description: `the ${environment} listener` },
      ];
    }
    placed[relative] = item;
  }
  document.paths = placed;
  const base = servers[0] as (typeof servers)[number];
  document.servers = [{ url: base.url, description: base.description }];
  absoluteProblemTypes(document.paths, origin);
}

export function refineOpenApi(document: Json, addresses: ListenerAddresses): Json {
  const paths = isObject(document.paths) ? document.paths : {};
  const named = new Map<string, { schema: Json; text: string }>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation)) continue;
      // Public operations say so explicitly; codegen otherwise assumes a global default.
      operation.security ??= [];
      unfillOptionalParameters(operation);
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
  placeOnServers(document, addresses);
  return document;
}
