import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';

const CSS = fs.readFileSync(new URL('./assets/vitrine.css', import.meta.url), 'utf8');
const FAVICON = fs.readFileSync(new URL('./assets/favicon.svg', import.meta.url), 'utf8');

/** The pages' stylesheet and icon (issue 14: a route module of their own, not the auth server's). */
export function registerAssetRoutes(app: FastifyInstance): void {
  app.get('/assets/vitrine.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CSS),
  );
  for (const path of ['/assets/favicon.svg', '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
    );
  }
}
