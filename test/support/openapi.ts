/**
 * The served OpenAPI document writes each path relative to its server (`{base_url}`,
 * `{auth_url}` or the origin); tests that call the routes need the path on the listener.
 */
export interface OpenApiDocument {
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
}

export function listenerPath(doc: OpenApiDocument, path: string): string {
  const item = doc.paths[path];
  const server = item?.servers?.[0] ?? doc.servers[0];
  const prefix = server ? new URL(server.url).pathname.replace(/\/$/, '') : '';
  return `${prefix}${path}`;
}

/** Every operation with its method and its path on the listener (`GET /v1/offers/`). */
export function operations(
  doc: OpenApiDocument,
): { method: string; path: string; op: Record<string, unknown> }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'servers' && method !== 'parameters')
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path: listenerPath(doc, path),
        op: op as Record<string, unknown>,
      })),
  );
}
