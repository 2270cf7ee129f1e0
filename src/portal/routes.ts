import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerAccountRoutes } from '../accounts/account-routes.js';
import { registerRecoveryRoutes } from '../accounts/area-routes.js';
import type { AccountRecovery } from '../accounts/recovery.js';
import type { SecondFactors } from '../accounts/second-factor.js';
import type { AuditLog } from '../audit/service.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { DeveloperService } from '../developers/service.js';
import { parseFixedFilters } from '../keys/publishable.js';
import type { SearchQuery } from '../offers/schemas.js';
import type { SearchOutcome } from '../offers/service.js';
import { type Environment, isEnvironment } from '../platform/environment.js';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { SessionService } from '../sessions/service.js';
import { offerCounts } from '../web/empty-environments.js';
import { flashes } from '../web/flash.js';
import { type Signed, sessionArea } from '../web/session-area.js';
import type { WebhookService } from '../webhooks/service.js';
import { registerKeyChangeRoutes } from './key-change-routes.js';
import {
  type ApiUrls,
  alreadyRevealedMessage,
  dashboardPage,
  keyPage,
  NAV,
  type ProjectFormValues,
  projectFormPage,
  projectPage,
  publishableRevealPage,
  revealPage,
  signupPage,
} from './pages.js';
import { PLAYGROUND_FIELDS, type PlaygroundInput, playgroundSection, runPlayground } from './playground.js';
import type { DeveloperActions } from './service.js';
import { registerWebhookPortalRoutes, WEBHOOK_FLASHES } from './webhook-routes.js';

export interface PortalDeps {
  /** `https:` origin: Secure, `__Host-` cookies. */
  secure: boolean;
  /** What a developer does, with its ownership checks and audit entries (portal/service.ts). */
  developerActions: DeveloperActions;
  /** Sign-in: the portal's accounts. */
  developers: Pick<DeveloperService, 'authenticate' | 'get'>;
  sessions: SessionService;
  audit: AuditLog;
  throttle: LoginThrottle;
  /** Issue 27: password reset (and, on the portal, email verification). */
  recovery: AccountRecovery;
  /** Issue 27: two-factor sign-in. */
  factors: SecondFactors;
  /** Where the API is, per environment, for the quickstart on project and key pages. */
  urls: ApiUrls;
  /** The search the playground runs as one of the project's keys (issue 25). */
  search?: (environment: Environment, query: SearchQuery) => Promise<SearchOutcome>;
  /** Offers per environment: an empty one gets a hint with the import commands. */
  offerCount?: (environment: Environment) => Promise<number>;
  /** Issue 24: the project's Webhooks pages. */
  webhooks: WebhookService;
}

const USAGE_DAYS = 30;
const COPY_SCRIPT = fs.readFileSync(new URL('../web/assets/copy.js', import.meta.url), 'utf8');

/**
 * The developer portal at `/portal/` (issue 5). Every page past sign-in needs a
 * developer session; every project, application and key is looked up through its owner, and
 * what belongs to someone else is "not found", exactly like what does not exist.
 */
export async function registerPortalRoutes(app: FastifyInstance, deps: PortalDeps): Promise<void> {
  const area = sessionArea(app, {
    area: 'portal',
    kind: 'developer',
    secure: deps.secure,
    sessions: deps.sessions,
    throttle: deps.throttle,
    audit: deps.audit,
    authenticate: (email, password) => deps.developers.authenticate(email, password),
    load: (id) => deps.developers.get(id),
    secondFactor: async (account) =>
      (await deps.factors.enrolled({ kind: 'developer', id: account.id, email: account.email }))
        ? 'code'
        : null,
    signupUrl: '/portal/signup',
  });
  // Issue 27: forgot password, the reset link, the verification link.
  const { isVerified, unverified } = registerRecoveryRoutes(app, area, {
    area: 'portal',
    recovery: deps.recovery,
    throttle: deps.throttle,
    verifiedAt: async (id) => (await deps.developers.get(id))?.emailVerifiedAt,
  });
  registerAccountRoutes(app, area, {
    area: 'portal',
    secure: deps.secure,
    factors: deps.factors,
    sessions: deps.sessions,
    throttle: deps.throttle,
    nav: NAV,
  });
  app.get('/portal/assets/copy.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(COPY_SCRIPT),
  );
  const view = (s: Signed) => ({ who: s.account.email, csrf: s.session.csrfToken });
  const flash = flashes('portal', deps.secure, { ...FLASHES, ...WEBHOOK_FLASHES });
  const actions = deps.developerActions;
  const notFound = (reply: FastifyReply) =>
    area.fail(reply, 'not_found', 'There is no page at this address, or it is not yours to see.');

  const ownProject = (request: FastifyRequest, id: string) =>
    actions.ownProject(area.signed(request).account.id, id);
  const ownKey = (request: FastifyRequest, id: string) => actions.ownKey(area.signed(request).account.id, id);
  registerWebhookPortalRoutes(app, { area, webhooks: deps.webhooks, ownProject, notFound, flash });
  const idParam = (request: FastifyRequest) => String((request.params as { id?: string }).id ?? '');

  // Sign-up: a developer account with a portal password, then straight in.
  app.get('/portal/signup', async (request, reply) => {
    if (await area.signedIn(request)) return reply.code(303).header('location', '/portal/').send();
    return area.page(
      reply,
      200,
      signupPage({ csrf: area.preSessionToken(reply), minPasswordLength: MIN_PASSWORD_LENGTH }),
    );
  });
  app.post('/portal/signup', async (request, reply) => {
    const form = area.form(request);
    const again = (status: number, error: string) =>
      area.page(
        reply,
        status,
        signupPage({
          csrf: area.preSessionToken(reply),
          email: form.email,
          name: form.name,
          error,
          minPasswordLength: MIN_PASSWORD_LENGTH,
        }),
      );
    if (!area.preSessionValid(request)) return again(403, 'This form expired. Please try again.');
    const problem = passwordProblem(form.password ?? '');
    if (problem) return again(400, `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`);
    let developer: Awaited<ReturnType<DeveloperService['add']>>;
    try {
      developer = await actions.signup(
        { email: form.email ?? '', name: form.name, password: form.password },
        (d) => area.actorOf(request, d),
      );
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // The same words whether the address is taken or malformed would hide typos; an existing
      // account is named, as every sign-up form does, and sign-in is offered instead.
      return again(
        error.kind === 'conflict' ? 409 : 400,
        error.kind === 'conflict'
          ? 'An account with this email already exists. Sign in instead.'
          : 'Enter a valid email address.',
      );
    }
    // Issue 27: the link that confirms the address (a production key waits for it).
    await deps.recovery.sendVerification({ kind: 'developer', id: developer.id, email: developer.email });
    return area.signIn(request, reply, developer);
  });

  app.get('/portal/', async (request, reply) => {
    const s = area.signed(request);
    const summaries = await actions.dashboard(s.account.email);
    return area.page(reply, 200, dashboardPage(view(s), summaries));
  });

  const formValues = (form: Record<string, string>): ProjectFormValues => ({
    name: form.name ?? '',
    description: form.description ?? '',
    website: form.website ?? '',
    redirectUris: form.redirectUris ?? '',
  });
  const details = (v: ProjectFormValues) => ({
    name: v.name,
    description: v.description,
    website: v.website.trim() || undefined,
    redirectUris: v.redirectUris
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  });

  app.get('/portal/projects/new', async (request, reply) =>
    area.page(
      reply,
      200,
      projectFormPage(view(area.signed(request)), {
        values: { name: '', description: '', website: '', redirectUris: '' },
      }),
    ),
  );
  app.post('/portal/projects', async (request, reply) => {
    const s = area.signed(request);
    const values = formValues(area.form(request));
    try {
      const project = await actions.createProject(s.actor, s.account.email, details(values));
      return reply.code(303).header('location', `/portal/projects/${project.id}`).send();
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return area.page(reply, 400, projectFormPage(view(s), { values, error: capitalise(error.message) }));
    }
  });

  app.get('/portal/projects/:id', async (request, reply) => {
    const s = area.signed(request);
    const project = await ownProject(request, idParam(request));
    if (!project) return notFound(reply);
    const { applications, keys } = await actions.projectView(project);
    const asked = request.query as Record<string, unknown>;
    const input: PlaygroundInput = Object.fromEntries(
      PLAYGROUND_FIELDS.flatMap((name) => (typeof asked[name] === 'string' ? [[name, asked[name]]] : [])),
    );
    const key = keys.find((k) => k.id === asked.key && k.state === 'active');
    const outcome = key && deps.search ? await runPlayground(key, input, deps.search) : null;
    return area.page(
      reply,
      200,
      projectPage(view(s), {
        playground: playgroundSection({
          project,
          keys,
          key,
          input,
          base: deps.urls.base,
          outcome,
          counts: await offerCounts(deps.offerCount),
        }),
        project,
        publishable: true,
        applications: applications.reverse(),
        keys,
        urls: deps.urls,
        flash: flash.take(request, reply),
      }),
    );
  });

  app.get('/portal/projects/:id/edit', async (request, reply) => {
    const project = await ownProject(request, idParam(request));
    if (!project) return notFound(reply);
    return area.page(
      reply,
      200,
      projectFormPage(view(area.signed(request)), {
        project,
        values: {
          name: project.name,
          description: project.description,
          website: project.website ?? '',
          redirectUris: project.redirectUris.join('\n'),
        },
      }),
    );
  });
  app.post('/portal/projects/:id', async (request, reply) => {
    const s = area.signed(request);
    const project = await ownProject(request, idParam(request));
    if (!project) return notFound(reply);
    const values = formValues(area.form(request));
    try {
      await actions.updateProject(s.actor, project, details(values));
      return flash.redirect(reply, `/portal/projects/${project.id}`, 'saved');
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return area.page(
        reply,
        400,
        projectFormPage(view(s), { project, values, error: capitalise(error.message) }),
      );
    }
  });

  app.post('/portal/projects/:id/applications', async (request, reply) => {
    const s = area.signed(request);
    const project = await ownProject(request, idParam(request));
    if (!project) return notFound(reply);
    const form = area.form(request);
    const environment = form.environment ?? '';
    if (!isEnvironment(environment)) throw new UsageError('choose the production or the testing environment');
    if (environment === 'production' && !(await isVerified(s))) return unverified(reply, s);
    const application = await actions.apply(s.actor, project, {
      environment,
      wantsRefresh: form.wantsRefresh === 'yes',
      refreshReason: form.refreshReason,
    });
    const done = application.state === 'approved' ? 'issued' : 'applied';
    return flash.redirect(reply, `/portal/projects/${project.id}`, done);
  });

  // Issue 16: publishable keys need no approval; the key is shown once, with its snippet.
  app.post('/portal/projects/:id/publishable-keys', async (request, reply) => {
    const s = area.signed(request);
    const project = await ownProject(request, idParam(request));
    if (!project) return notFound(reply);
    const form = area.form(request);
    const environment = form.environment ?? '';
    if (!isEnvironment(environment)) throw new UsageError('choose the production or the testing environment');
    const lines = (value: string | undefined) =>
      (value ?? '')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '');
    const issued = await actions.issuePublishable(s.actor, project, {
      environment,
      allowedOrigins: lines(form.origins),
      fixedFilters: parseFixedFilters(lines(form.filters)),
    });
    return area.page(
      reply,
      200,
      publishableRevealPage(view(s), {
        key: issued.record,
        secret: issued.key,
        project,
        baseUrls: deps.urls.base,
      }),
    );
  });

  app.post('/portal/applications/:id/reveal', async (request, reply) => {
    const s = area.signed(request);
    const revealed = await actions.reveal(s.actor, s.account.id, idParam(request));
    if (revealed === 'not_found') return notFound(reply);
    if (revealed === 'already_revealed') {
      return area.fail(reply, 'already_revealed', alreadyRevealedMessage());
    }
    return area.page(reply, 200, revealPage(view(s), { ...revealed, urls: deps.urls }));
  });

  app.get('/portal/keys/:id', async (request, reply) => {
    const found = await ownKey(request, idParam(request));
    if (!found) return notFound(reply);
    const usage = await actions.usage(found.key.id, { days: USAGE_DAYS });
    return area.page(
      reply,
      200,
      keyPage(view(area.signed(request)), { ...found, usage, urls: deps.urls, baseUrls: deps.urls.base }),
    );
  });
  registerKeyChangeRoutes(app, { area, actions, view, notFound, flash, urls: deps.urls, ownKey, idParam });
}

const FLASHES = {
  saved: 'Project saved.',
  issued: 'Your testing key is issued. Reveal it below; it is shown once.',
  applied: 'Application sent. An operator will decide; its state shows below.',
  revoked: 'Key revoked.',
} as const;

function capitalise(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}
