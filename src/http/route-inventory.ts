import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered route as the app holds it: what the security matrix is derived from. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The OpenAPI security schemes the route declares (`ApiKeyHeader`, `BearerToken`, …). */
  security: string[];
  /** The route is left out of the OpenAPI document (pages, assets, probes). */
  hidden: boolean;
}

const inventories = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `app` and its plugins from now on (Fastify's `onRoute`
 * hook), so tests enumerate the routes the app really serves instead of a hand-kept list.
 */
export function trackRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  inventories.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as { security?: Record<string, string[]>[]; hide?: boolean };
    const security = [...new Set((schema.security ?? []).flatMap((s) => Object.keys(s)))];
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue; // Fastify's automatic HEAD twin of a GET
      routes.push({ method, url: route.url, security, hidden: schema.hide === true });
    }
  });
}

/** The routes recorded by `trackRoutes` (empty when it was not called on this instance). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return inventories.get(app) ?? [];
}
