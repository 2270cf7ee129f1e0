import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/errors.js';
import { isEnvironment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from '../projects/model.js';
import type { Flashes } from '../web/flash.js';
import type { SessionArea, Signed } from '../web/session-area.js';
import type { WebhookService } from '../webhooks/service.js';
import { SUBSCRIBABLE_EVENTS } from '../webhooks/service.js';
import { endpointPage, webhookSecretPage, webhooksPage } from './webhook-pages.js';

export const WEBHOOK_FLASHES = {
  webhookRemoved: 'Endpoint removed.',
  webhookTested: 'Test event queued: it shows below once sent.',
  webhookResent: 'Delivery queued again, with the same webhook-id.',
} as const;

/**
 * The portal's Webhooks pages (issue 24), under the project they belong to: the project is
 * looked up through its owner first, then the endpoint through the project, so another
 * developer's endpoint is "not found" like one that does not exist.
 */
export function registerWebhookPortalRoutes(
  app: FastifyInstance,
  deps: {
    area: SessionArea;
    webhooks: WebhookService;
    ownProject: (request: FastifyRequest, id: string) => Promise<Project | null>;
    notFound: (reply: FastifyReply) => FastifyReply;
    flash: Flashes<keyof typeof WEBHOOK_FLASHES | string>;
  },
): void {
  const { area, webhooks } = deps;
  const view = (s: Signed) => ({ who: s.account.email, csrf: s.session.csrfToken });
  const params = (request: FastifyRequest) =>
    request.params as { id: string; endpointId?: string; deliveryId?: string };
  /** The project and, when the URL names one, its endpoint; null: not the developer's. */
  async function owned(request: FastifyRequest) {
    const { id, endpointId } = params(request);
    const project = await deps.ownProject(request, id);
    if (!project) return null;
    if (endpointId === undefined) return { project, endpoint: null };
    try {
      return { project, endpoint: await webhooks.get({ projectId: project.id }, endpointId) };
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'webhook_not_found') return null;
      throw error;
    }
  }
  const list = (project: Project) => webhooks.list({ projectId: project.id });

  app.get('/portal/projects/:id/webhooks', async (request, reply) => {
    const found = await owned(request);
    if (!found) return deps.notFound(reply);
    const page = webhooksPage(view(area.signed(request)), {
      project: found.project,
      endpoints: await list(found.project),
      flash: deps.flash.take(request, reply),
    });
    return area.page(reply, 200, page);
  });
  app.post('/portal/projects/:id/webhooks', async (request, reply) => {
    const s = area.signed(request);
    const found = await owned(request);
    if (!found) return deps.notFound(reply);
    const form = area.form(request);
    const environment = form.environment ?? '';
    if (!isEnvironment(environment)) throw new UsageError('choose the production or the testing environment');
    const eventTypes = SUBSCRIBABLE_EVENTS.filter((t) => form[`event.${t}`] === 'yes');
    try {
      const { endpoint, secret } = await webhooks.add(
        s.actor,
        { projectId: found.project.id, environment },
        { url: form.url ?? '', eventTypes },
      );
      const page = webhookSecretPage(view(s), { project: found.project, endpoint, secret, rotated: false });
      return area.page(reply, 200, page);
    } catch (error) {
      if (
        !(error instanceof ProblemError) ||
        (error.code !== 'invalid_parameter' && error.code !== 'limit_reached')
      )
        throw error;
      const page = webhooksPage(view(s), {
        project: found.project,
        endpoints: await list(found.project),
        error: error.detail,
        url: form.url,
      });
      return area.page(reply, 400, page);
    }
  });
  app.get('/portal/projects/:id/webhooks/:endpointId', async (request, reply) => {
    const found = await owned(request);
    if (!found?.endpoint) return deps.notFound(reply);
    const deliveries = await webhooks.deliveries({ projectId: found.project.id }, found.endpoint.id, 50);
    const page = endpointPage(view(area.signed(request)), {
      project: found.project,
      endpoint: found.endpoint,
      deliveries,
      flash: deps.flash.take(request, reply),
    });
    return area.page(reply, 200, page);
  });
  const action = (
    path: string,
    run: (
      s: Signed,
      found: { project: Project; endpointId: string },
      request: FastifyRequest,
    ) => Promise<string | FastifyReply>,
  ) =>
    app.post(`/portal/projects/:id/webhooks/:endpointId/${path}`, async (request, reply) => {
      const found = await owned(request);
      if (!found?.endpoint) return deps.notFound(reply);
      const s = area.signed(request);
      const done = await run(s, { project: found.project, endpointId: found.endpoint.id }, request);
      if (typeof done !== 'string') return done;
      const back = done === 'webhookRemoved' ? '' : `/${found.endpoint.id}`;
      return deps.flash.redirect(reply, `/portal/projects/${found.project.id}/webhooks${back}`, done);
    });
  const scope = (project: Project) => ({ projectId: project.id });
  action('test', async (s, f) => {
    await webhooks.test(s.actor, scope(f.project), f.endpointId);
    return 'webhookTested';
  });
  action('remove', async (s, f) => {
    await webhooks.remove(s.actor, scope(f.project), f.endpointId);
    return 'webhookRemoved';
  });
  action('deliveries/:deliveryId/resend', async (s, f, request) => {
    await webhooks.resend(s.actor, scope(f.project), f.endpointId, params(request).deliveryId ?? '');
    return 'webhookResent';
  });
  app.post('/portal/projects/:id/webhooks/:endpointId/rotate', async (request, reply) => {
    const found = await owned(request);
    if (!found?.endpoint) return deps.notFound(reply);
    const s = area.signed(request);
    const { endpoint, secret } = await webhooks.rotateSecret(
      s.actor,
      scope(found.project),
      found.endpoint.id,
    );
    return area.page(
      reply,
      200,
      webhookSecretPage(view(s), { project: found.project, endpoint, secret, rotated: true }),
    );
  });
}
