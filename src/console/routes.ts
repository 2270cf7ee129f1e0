import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApplicationService } from '../applications/service.js';
import type { ApplicationState } from '../applications/store.js';
import type { AuditLog } from '../audit/service.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { Database } from '../db/database.js';
import type { DeveloperService } from '../developers/service.js';
import type { KeyService } from '../keys/service.js';
import type { KeyRecord, KeyStore } from '../keys/store.js';
import type { OperatorService } from '../operators/service.js';
import { UsageError } from '../platform/usage-error.js';
import type { ProjectService } from '../projects/service.js';
import type { Project } from '../projects/store.js';
import type { SessionService } from '../sessions/service.js';
import type { UsageService } from '../usage/service.js';
import { type Signed, sessionArea } from '../web/session-area.js';
import {
  type ApplicationView,
  applicationsPage,
  auditPage,
  developersPage,
  keyPage,
  keysPage,
  projectsPage,
} from './pages.js';
import { createOperatorActions } from './service.js';
import { createConsoleSearch } from './store.js';

export interface ConsoleDeps {
  secure: boolean;
  db: Database;
  operators: OperatorService;
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  keyStore: KeyStore;
  applications: ApplicationService;
  usage: UsageService;
  sessions: SessionService;
  audit: AuditLog;
  throttle: LoginThrottle;
}

const FLASHES: Record<string, string> = {
  approved: 'Application approved; the developer can reveal the key once in the portal.',
  rejected: 'Application rejected; the developer sees the reason.',
  'grant-refresh': 'Refresh permission granted.',
  'revoke-refresh': 'Refresh permission withdrawn; the refresh tokens this key obtained are revoked.',
  revoke: 'Key revoked.',
  plan: 'Plan saved.',
};
const flashOf = (request: FastifyRequest) => {
  const done = (request.query as { done?: unknown }).done;
  return typeof done === 'string' && Object.hasOwn(FLASHES, done) ? FLASHES[done] : undefined;
};
const text = (request: FastifyRequest, name: string) => {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 254) : '';
};

/** The operator console at `/console/` (SPEC §4, issue 5): operators only. */
export async function consoleRoutes(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const area = sessionArea(app, {
    area: 'console',
    kind: 'operator',
    secure: deps.secure,
    sessions: deps.sessions,
    throttle: deps.throttle,
    audit: deps.audit,
    authenticate: (email, password) => deps.operators.authenticate(email, password),
    load: (id) => deps.operators.get(id),
  });
  const actions = createOperatorActions(deps);
  const search = createConsoleSearch(deps.db);
  const view = (s: Signed) => ({ who: s.account.email, csrf: s.session.csrfToken });
  const idParam = (request: FastifyRequest) => String((request.params as { id?: string }).id ?? '');
  const ownerEmail = async (project: Project | undefined) =>
    project ? ((await deps.developers.get(project.developerId))?.email ?? project.developerId) : '—';
  const notFound = (reply: FastifyReply, what: string) =>
    area.fail(reply, 404, 'Not found', `There is no ${what} with this id.`, 'not_found');

  app.get('/console/', async (_request, reply) =>
    reply.code(303).header('location', '/console/applications').send(),
  );

  app.get('/console/applications', async (request, reply) => {
    const raw = text(request, 'state') || 'pending';
    const state = (['pending', 'approved', 'rejected', 'all'] as const).find((s) => s === raw) ?? 'pending';
    const applications = await deps.applications.list(
      state === 'all' ? {} : { state: state as ApplicationState },
    );
    const items: ApplicationView[] = [];
    for (const application of applications.reverse()) {
      const project = await deps.projects.get(application.projectId);
      items.push({ application, project, ownerEmail: await ownerEmail(project) });
    }
    return area.page(
      reply,
      200,
      applicationsPage(view(area.signed(request)), { state, items, flash: flashOf(request) }),
    );
  });
  app.post('/console/applications/:id/approve', async (request, reply) => {
    const s = area.signed(request);
    await actions.approve(s.actor, idParam(request), {
      grantRefresh: area.form(request).grantRefresh === 'yes',
    });
    return reply.code(303).header('location', '/console/applications?done=approved').send();
  });
  app.post('/console/applications/:id/reject', async (request, reply) => {
    const s = area.signed(request);
    await actions.reject(s.actor, idParam(request), area.form(request).reason ?? '');
    return reply.code(303).header('location', '/console/applications?done=rejected').send();
  });

  app.get('/console/keys', async (request, reply) => {
    const q = text(request, 'q').trim();
    const keys = q
      ? ((await Promise.all((await search.keyIds(q)).map((id) => deps.keyStore.get(id)))).filter(
          Boolean,
        ) as KeyRecord[])
      : (await deps.keys.list()).reverse().slice(0, 100);
    return area.page(reply, 200, keysPage(view(area.signed(request)), { q, keys }));
  });
  app.get('/console/keys/:id', async (request, reply) => {
    const key = await deps.keyStore.get(idParam(request));
    if (!key) return notFound(reply, 'key');
    const project = await deps.projects.get(key.projectId);
    const usage = await deps.usage.forKey(key.id, { days: 30 });
    return area.page(
      reply,
      200,
      keyPage(view(area.signed(request)), {
        key,
        project,
        ownerEmail: await ownerEmail(project),
        usage,
        flash: flashOf(request),
      }),
    );
  });
  const keyAction = (
    name: string,
    run: (s: Signed, keyId: string, form: Record<string, string>) => Promise<unknown>,
  ) =>
    app.post(`/console/keys/:id/${name}`, async (request, reply) => {
      const id = idParam(request);
      if (!(await deps.keyStore.get(id))) return notFound(reply, 'key');
      await run(area.signed(request), id, area.form(request));
      return reply.code(303).header('location', `/console/keys/${id}?done=${name}`).send();
    });
  keyAction('grant-refresh', (s, id) => actions.grantRefresh(s.actor, id));
  keyAction('revoke-refresh', (s, id) => actions.revokeRefresh(s.actor, id));
  keyAction('revoke', (s, id) => actions.revoke(s.actor, id));
  keyAction('plan', (s, id, form) => {
    const raw = (form.rate ?? '').trim();
    if (raw !== '' && !/^\d{1,7}$/.test(raw))
      throw new UsageError('a plan is a whole number of requests per second');
    return actions.setPlan(s.actor, id, raw === '' ? null : Number(raw));
  });

  app.get('/console/projects', async (request, reply) => {
    const q = text(request, 'q').trim();
    const projects = q
      ? ((await Promise.all((await search.projectIds(q)).map((id) => deps.projects.get(id)))).filter(
          Boolean,
        ) as Project[])
      : (await deps.projects.list()).reverse().slice(0, 100);
    const items = [];
    for (const project of projects) {
      items.push({
        project,
        ownerEmail: await ownerEmail(project),
        keys: await deps.keys.list({ projectId: project.id }),
      });
    }
    return area.page(reply, 200, projectsPage(view(area.signed(request)), { q, items }));
  });
  app.get('/console/developers', async (request, reply) => {
    const q = text(request, 'q').trim();
    return area.page(
      reply,
      200,
      developersPage(view(area.signed(request)), { q, items: await search.developers(q) }),
    );
  });
  app.get('/console/audit', async (request, reply) => {
    const filter = {
      action: text(request, 'action').trim(),
      actor: text(request, 'actor').trim(),
      target: text(request, 'target').trim(),
    };
    const entries = await deps.audit.list({
      action: filter.action || undefined,
      actor: filter.actor || undefined,
      target: filter.target || undefined,
      limit: 500,
    });
    return area.page(reply, 200, auditPage(view(area.signed(request)), { filter, entries }));
  });
}
