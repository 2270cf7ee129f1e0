import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerAccountRoutes } from '../accounts/account-routes.js';
import { registerRecoveryRoutes } from '../accounts/area-routes.js';
import { registerDeveloperAccessRoutes } from '../accounts/console-access.js';
import type { AccountRecovery } from '../accounts/recovery.js';
import type { SecondFactors } from '../accounts/second-factor.js';
import type { ApplicationState } from '../applications/model.js';
import type { ApplicationService } from '../applications/service.js';
import type { AuditLog } from '../audit/service.js';
import { type LoginThrottle, unlockAccount } from '../auth/login-throttle.js';
import type { DeveloperService } from '../developers/service.js';
import type { KeyRecord } from '../keys/model.js';
import type { KeyService } from '../keys/service.js';
import type { OperatorService } from '../operators/service.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import type { Project } from '../projects/model.js';
import type { ProjectService } from '../projects/service.js';
import type { SearchSettingsService } from '../search-settings/service.js';
import type { SessionService } from '../sessions/service.js';
import type { SynonymService } from '../synonyms/service.js';
import type { UsageService } from '../usage/service.js';
import { CONFIRMATION_MISMATCH, confirmed } from '../web/confirm.js';
import { offerCounts } from '../web/empty-environments.js';
import { flashes } from '../web/flash.js';
import { type Signed, sessionArea } from '../web/session-area.js';
import { CONSOLE_PAGE_SIZE, type ConsoleSearch } from './model.js';
import {
  type ApplicationView,
  applicationsPage,
  auditPage,
  confirmKeyActionPage,
  consolePage,
  developersPage,
  keyPage,
  keysPage,
  NAV,
  projectsPage,
} from './pages.js';
import { registerSearchSettingsPage, SEARCH_SETTINGS_FLASHES } from './search-settings-page.js';
import type { OperatorActions } from './service.js';

export interface ConsoleDeps {
  secure: boolean;
  operators: OperatorService;
  developers: DeveloperService;
  projects: ProjectService;
  keys: KeyService;
  applications: ApplicationService;
  usage: UsageService;
  sessions: SessionService;
  audit: AuditLog;
  throttle: LoginThrottle;
  /** Issue 27: password reset (and, on the portal, email verification). */
  recovery: AccountRecovery;
  /** Issue 27: two-factor sign-in. */
  factors: SecondFactors;
  /** `CONSOLE_REQUIRE_2FA`: operators without a second factor enrol at sign-in. */
  require2fa: boolean;
  /** What an operator does, audited (console/service.ts); built once by createDeps. */
  operatorActions: OperatorActions;
  consoleSearch: ConsoleSearch;
  /** Issue 23: the declared attributes (the page "Search settings"). */
  searchSettings: SearchSettingsService;
  /** Issue 23: the synonym rules (the page "Search settings"). */
  synonyms: Pick<SynonymService, 'list' | 'add' | 'remove'>;
  /** Issue 25: an empty environment says so on the console's first page. */
  offerCount?: (environment: Environment) => Promise<number>;
}

const FLASHES = {
  approved: 'Application approved; the developer can reveal the key once in the portal.',
  rejected: 'Application rejected; the developer sees the reason.',
  'grant-refresh': 'Refresh permission granted.',
  'revoke-refresh': 'Refresh permission withdrawn; the refresh tokens this key obtained are revoked.',
  'grant-write': 'offers:write granted: this key may now import and withdraw its project’s offers.',
  'revoke-write': 'offers:write withdrawn.',
  revoke: 'Key revoked.',
  plan: 'Plan saved.',
  unlocked:
    'Sign-in unlocked: the account can try again at once (on this instance; others follow through Redis).',
  'not-locked': 'That account had no sign-in lockout on this instance (others were told through Redis).',
} as const;
type KeyActionName = 'grant-refresh' | 'revoke-refresh' | 'grant-write' | 'revoke-write' | 'revoke' | 'plan';
/** `?page=N` (1-based); anything else is the first page. */
const pageOf = (request: FastifyRequest) => {
  const raw = (request.query as Record<string, unknown>).page;
  return typeof raw === 'string' && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
};
const text = (request: FastifyRequest, name: string) => {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 254) : '';
};

/** The operator console at `/console/` (issue 5): operators only. */
export async function registerConsoleRoutes(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const area = sessionArea(app, {
    area: 'console',
    kind: 'operator',
    secure: deps.secure,
    sessions: deps.sessions,
    throttle: deps.throttle,
    audit: deps.audit,
    authenticate: (email, password) => deps.operators.authenticate(email, password),
    load: (id) => deps.operators.get(id),
    secondFactor: async (account) =>
      (await deps.factors.enrolled({ kind: 'operator', id: account.id, email: account.email }))
        ? 'code'
        : deps.require2fa
          ? 'enrol'
          : null,
  });
  // Issue 27: forgot password, the reset link.
  registerRecoveryRoutes(app, area, { area: 'console', recovery: deps.recovery, throttle: deps.throttle });
  registerAccountRoutes(app, area, {
    area: 'console',
    secure: deps.secure,
    factors: deps.factors,
    sessions: deps.sessions,
    throttle: deps.throttle,
    nav: NAV,
  });
  registerDeveloperAccessRoutes(app, area, { ...deps, nav: NAV });
  const actions = deps.operatorActions;
  const flash = flashes('console', deps.secure, { ...FLASHES, ...SEARCH_SETTINGS_FLASHES });
  const search = deps.consoleSearch;
  // Issue 25: the navigation shows how many applications wait, on every console page.
  const pendingCounts = new WeakMap<FastifyRequest, number>();
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' && request.url.startsWith('/console/')) {
      pendingCounts.set(request, (await deps.applications.list({ state: 'pending' })).length);
    }
  });
  const view = (request: FastifyRequest) => {
    const s: Signed = area.signed(request);
    return { who: s.account.email, csrf: s.session.csrfToken, pending: pendingCounts.get(request) };
  };
  const idParam = (request: FastifyRequest) => String((request.params as { id?: string }).id ?? '');
  const ownerEmail = async (project: Project | undefined) =>
    project ? ((await deps.developers.get(project.developerId))?.email ?? project.developerId) : '—';
  const notFound = (reply: FastifyReply, what: string) =>
    area.fail(reply, 'not_found', `There is no ${what} with this id.`);

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
      applicationsPage(view(request), {
        state,
        items,
        counts: await offerCounts(deps.offerCount),
        flash: flash.take(request, reply),
      }),
    );
  });
  app.post('/console/applications/:id/approve', async (request, reply) => {
    const s = area.signed(request);
    await actions.approve(s.actor, idParam(request), {
      grantRefresh: area.form(request).grantRefresh === 'yes',
    });
    return flash.redirect(reply, '/console/applications', 'approved');
  });
  app.post('/console/applications/:id/reject', async (request, reply) => {
    const s = area.signed(request);
    await actions.reject(s.actor, idParam(request), area.form(request).reason ?? '');
    return flash.redirect(reply, '/console/applications', 'rejected');
  });

  app.get('/console/keys', async (request, reply) => {
    const q = text(request, 'q').trim();
    const found = await search.keyIds(q, pageOf(request));
    const keys = (await Promise.all(found.items.map((id) => deps.keys.get(id)))).filter(
      (k): k is KeyRecord => k !== undefined,
    );
    return area.page(reply, 200, keysPage(view(request), { q, keys, paging: found }));
  });
  app.get('/console/keys/:id', async (request, reply) => {
    const key = await deps.keys.get(idParam(request));
    if (!key) return notFound(reply, 'key');
    const project = await deps.projects.get(key.projectId);
    const usage = await deps.usage.forKey(key.id, { days: 30 });
    return area.page(
      reply,
      200,
      keyPage(view(request), {
        key,
        project,
        ownerEmail: await ownerEmail(project),
        usage,
        flash: flash.take(request, reply),
      }),
    );
  });
  const keyAction = (
    name: KeyActionName,
    run: (s: Signed, keyId: string, form: Record<string, string>) => Promise<unknown>,
  ) => {
    const destructive = name === 'revoke' || name === 'revoke-refresh' ? name : null;
    if (destructive) {
      app.get(`/console/keys/:id/${name}`, async (request, reply) => {
        const key = await deps.keys.get(idParam(request));
        if (!key) return notFound(reply, 'key');
        return area.page(reply, 200, confirmKeyActionPage(view(request), { key, action: destructive }));
      });
    }
    return app.post(`/console/keys/:id/${name}`, async (request, reply) => {
      const id = idParam(request);
      const key = await deps.keys.get(id);
      if (!key) return notFound(reply, 'key');
      const form = area.form(request);
      if (destructive && !confirmed(form, id)) {
        const page = confirmKeyActionPage(view(request), {
          key,
          action: destructive,
          error: CONFIRMATION_MISMATCH,
        });
        return area.page(reply, 400, page);
      }
      await run(area.signed(request), id, form);
      return flash.redirect(reply, `/console/keys/${id}`, name);
    });
  };
  keyAction('grant-refresh', (s, id) => actions.grantRefresh(s.actor, id));
  keyAction('revoke-refresh', (s, id) => actions.revokeRefresh(s.actor, id));
  keyAction('grant-write', (s, id) => actions.grantWrite(s.actor, id));
  keyAction('revoke-write', (s, id) => actions.revokeWrite(s.actor, id));
  keyAction('revoke', (s, id) => actions.revoke(s.actor, id));
  keyAction('plan', (s, id, form) => {
    const raw = (form.rate ?? '').trim();
    if (raw !== '' && !/^\d{1,7}$/.test(raw))
      throw new UsageError('a plan is a whole number of requests per second');
    return actions.setPlan(s.actor, id, raw === '' ? null : Number(raw));
  });

  app.get('/console/projects', async (request, reply) => {
    const q = text(request, 'q').trim();
    const found = await search.projectIds(q, pageOf(request));
    const projects = (await Promise.all(found.items.map((id) => deps.projects.get(id)))).filter(
      (p): p is Project => p !== undefined,
    );
    const items = [];
    for (const project of projects) {
      items.push({
        project,
        ownerEmail: await ownerEmail(project),
        keys: await deps.keys.list({ projectId: project.id }),
      });
    }
    return area.page(reply, 200, projectsPage(view(request), { q, items, paging: found }));
  });
  app.get('/console/developers', async (request, reply) => {
    const q = text(request, 'q').trim();
    return area.page(
      reply,
      200,
      developersPage(view(request), {
        q,
        paging: await search.developers(q, pageOf(request)),
        flash: flash.take(request, reply),
      }),
    );
  });
  app.post('/console/unlock', async (request, reply) => {
    const s = area.signed(request);
    const form = area.form(request);
    const account = unlockAccount(form.area ?? '', form.email ?? '');
    if (!account) return area.fail(reply, 'invalid', 'Choose an account kind and an email.');
    const { found } = await deps.operatorActions.unlockLogin(s.actor, account);
    return flash.redirect(reply, '/console/developers', found ? 'unlocked' : 'not-locked');
  });
  registerSearchSettingsPage(app, {
    area,
    flash,
    settings: deps.searchSettings,
    synonyms: deps.synonyms,
    render: (request, body, message) =>
      consolePage(view(request), 'Search settings', body, '/console/search-settings', message),
  });
  app.get('/console/audit', async (request, reply) => {
    const filter = {
      action: text(request, 'action').trim(),
      actor: text(request, 'actor').trim(),
      target: text(request, 'target').trim(),
    };
    const where = {
      action: filter.action || undefined,
      actor: filter.actor || undefined,
      target: filter.target || undefined,
    };
    const page = pageOf(request);
    const [entries, total] = await Promise.all([
      deps.audit.list({ ...where, limit: CONSOLE_PAGE_SIZE, offset: (page - 1) * CONSOLE_PAGE_SIZE }),
      deps.audit.count(where),
    ]);
    const paging = { items: entries, total, page, pageSize: CONSOLE_PAGE_SIZE };
    return area.page(reply, 200, auditPage(view(request), { filter, paging }));
  });
}
