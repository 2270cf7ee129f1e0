import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseRollOverlap } from '../keys/roll-overlap.js';
import { CONFIRMATION_MISMATCH, confirmed } from '../web/confirm.js';
import type { Flashes } from '../web/flash.js';
import type { SessionArea, Signed } from '../web/session-area.js';
import { type ApiUrls, publishableRevealPage, revealPage, revokeKeyPage, rollKeyPage } from './pages.js';
import type { DeveloperActions } from './service.js';

/**
 * A developer's key changes on the portal: roll (a new secret, the old one kept for the overlap
 * chosen) and revoke, each behind a typed confirmation of the key's id (web/confirm.ts).
 */
export function registerKeyChangeRoutes(
  app: FastifyInstance,
  deps: {
    area: SessionArea;
    actions: DeveloperActions;
    view: (s: Signed) => { who: string; csrf: string };
    notFound: (reply: FastifyReply) => FastifyReply;
    flash: Flashes<'revoked' | string>;
    urls: ApiUrls;
    ownKey: (request: FastifyRequest, id: string) => ReturnType<DeveloperActions['ownKey']>;
    idParam: (request: FastifyRequest) => string;
  },
): void {
  const { area, actions, view, notFound, flash, urls, ownKey, idParam } = deps;
  app.get('/portal/keys/:id/roll', async (request, reply) => {
    const found = await ownKey(request, idParam(request));
    if (found?.key.state !== 'active') return notFound(reply);
    return area.page(reply, 200, rollKeyPage(view(area.signed(request)), found));
  });
  app.post('/portal/keys/:id/roll', async (request, reply) => {
    const s = area.signed(request);
    const found = await ownKey(request, idParam(request));
    if (found?.key.state !== 'active') return notFound(reply);
    const form = area.form(request);
    if (!confirmed(form, found.key.id)) {
      return area.page(reply, 400, rollKeyPage(view(s), { ...found, error: CONFIRMATION_MISMATCH }));
    }
    const overlap = parseRollOverlap(form.overlap ?? '');
    const issued = await actions.rollKey(s.actor, found, overlap);
    const page =
      issued.record.kind === 'publishable'
        ? publishableRevealPage(view(s), {
            key: issued.record,
            secret: issued.key,
            project: found.project,
            baseUrls: urls.base,
          })
        : revealPage(view(s), {
            key: issued.record,
            secret: issued.key,
            project: found.project,
            urls: urls,
          });
    return area.page(reply, 200, page);
  });
  app.get('/portal/keys/:id/revoke', async (request, reply) => {
    const found = await ownKey(request, idParam(request));
    if (!found) return notFound(reply);
    return area.page(reply, 200, revokeKeyPage(view(area.signed(request)), found));
  });
  app.post('/portal/keys/:id/revoke', async (request, reply) => {
    const s = area.signed(request);
    const found = await ownKey(request, idParam(request));
    if (!found) return notFound(reply);
    if (!confirmed(area.form(request), found.key.id)) {
      return area.page(reply, 400, revokeKeyPage(view(s), { ...found, error: CONFIRMATION_MISMATCH }));
    }
    await actions.revokeKey(s.actor, found);
    return flash.redirect(reply, `/portal/projects/${found.project.id}`, 'revoked');
  });
}
