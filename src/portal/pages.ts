import type { KeyApplication } from '../applications/model.js';
import type { KeyRecord } from '../keys/model.js';
import type { Environment } from '../platform/environment.js';
import type { Project } from '../projects/model.js';
import type { UsageDay } from '../usage/service.js';
import { stateBadge } from '../web/badges.js';
import { confirmationBody } from '../web/confirm.js';
import { formatTime } from '../web/format.js';
import { html, type SafeHtml } from '../web/html.js';
import { appLayout, csrfField, newAccountFields } from '../web/layout.js';
import { type Cell, dataTable } from '../web/table.js';
import { usageChart } from '../web/usage-chart.js';
import { keyFacts, keyTable } from './key-views.js';
import { publishableKeyForm, snippetSection } from './publishable-pages.js';
import { refreshState } from './refresh-state.js';

/** The developer portal's pages (issue 5). Plain forms, no script. */
export interface PortalSession {
  who: string;
  csrf: string;
}

export const NAV = [
  { href: '/portal/', label: 'Projects' },
  { href: '/portal/projects/new', label: 'New project' },
  { href: '/portal/account', label: 'Account' },
];

export /** Every portal page loads copy.js: a Copy button on the one-time key and on every snippet. */
function layout(s: PortalSession, title: string, body: SafeHtml, current?: string, flash?: string): string {
  const withCopy = html`${body}
<script src="/portal/assets/copy.js" defer></script>`;
  return appLayout({ area: 'portal', title, body: withCopy, flash, session: { ...s, nav: NAV, current } });
}

export function signupPage(p: {
  csrf: string;
  email?: string;
  name?: string;
  error?: string;
  minPasswordLength: number;
}): string {
  return appLayout({
    area: 'portal',
    title: 'Create a developer account',
    body: html`<div class="narrow">
<h1>Create a developer account</h1>
<p class="lead">Register projects and apply for API keys.</p>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="/portal/signup" class="stack" novalidate>
${csrfField(p.csrf)}
${newAccountFields(p)}
<button type="submit">Create account</button>
</form>
<p class="meta">Already have an account? <a href="/portal/signin">Sign in</a>.</p>
</div>`,
  });
}

/** `{base_url}` and `{auth_url}` of each environment. */
export interface ApiUrls {
  base: Record<Environment, string>;
  auth: Record<Environment, string>;
}

/**
 * Where the API is and a first request to paste (issue 15): both environments' addresses, then
 * curl and the SDK against the key's environment. Never the secret: `$VITRINE_KEY` stands for it.
 */
export function quickstart(urls: ApiUrls, key?: KeyRecord): SafeHtml {
  const environment = key?.environment ?? 'testing';
  const base = urls.base[environment];
  const keyLine = key
    ? html`<p>The commands below use key <code>${key.id}</code> (<code>${key.hint}</code>) of the ${environment} environment: put its secret in <code>VITRINE_KEY</code>. Vitrine cannot show the secret again; <code>GET ${base}/key</code> tells which key you hold.</p>`
    : html`<p>Put a ${environment} key's secret in <code>VITRINE_KEY</code>, then:</p>`;
  return html`<section class="quickstart" aria-labelledby="quickstart-title">
<h2 id="quickstart-title">Call the API</h2>
${dataTable(
  [
    'Environment',
    { label: '{base_url}', heading: html`<code>{base_url}</code>` },
    { label: '{auth_url}', heading: html`<code>{auth_url}</code>` },
  ],
  (['testing', 'production'] as const).map((env) => [
    env,
    html`<code>${urls.base[env]}</code>`,
    html`<code>${urls.auth[env]}</code>`,
  ]),
)}
${keyLine}
<pre><code>curl -s -H "X-Api-Key: $VITRINE_KEY" '${base}/offers/?q=bike&amp;limit=3'</code></pre>
<p>With the TypeScript client, <code>@vitrine/client</code>:</p>
<pre><code>import { Vitrine } from '@vitrine/client';

const vitrine = new Vitrine({ baseUrl: '${base}', apiKey: process.env.VITRINE_KEY });
const page = await vitrine.offers.search({ q: 'bike', limit: 3 });</code></pre>
<p class="meta">Every endpoint, parameter and error: the <a href="/docs">API reference</a>.</p>
</section>`;
}

export interface ProjectSummary {
  project: Project;
  activeKeys: number;
  pendingApplications: number;
}

export function dashboardPage(s: PortalSession, projects: readonly ProjectSummary[], flash?: string): string {
  return layout(
    s,
    'Your projects',
    html`<h1>Your projects</h1>
${
  projects.length === 0
    ? html`<p class="empty">You have no project yet. A project holds your app's redirect destinations and its API keys. <a href="/portal/projects/new">Create your first project</a>.</p>`
    : dataTable(
        ['Project', 'Active keys', 'Pending applications', 'Redirect destinations', 'Created'],
        projects.map(({ project: p, activeKeys, pendingApplications }) => [
          html`<a href="/portal/projects/${p.id}">${p.name}</a>`,
          activeKeys,
          pendingApplications === 0 ? 'none' : html`${stateBadge('pending')} ${pendingApplications}`,
          p.redirectUris.length,
          formatTime(p.createdAt),
        ]),
      )
}
<p><a class="button" href="/portal/projects/new">New project</a></p>`,
    '/portal/',
    flash,
  );
}

export interface ProjectFormValues {
  name: string;
  description: string;
  website: string;
  redirectUris: string;
}

export function projectFormPage(
  s: PortalSession,
  p: { project?: Project; values: ProjectFormValues; error?: string },
): string {
  const editing = p.project !== undefined;
  const title = editing ? `Edit ${p.project?.name}` : 'New project';
  return layout(
    s,
    title,
    html`<h1>${title}</h1>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="${editing ? `/portal/projects/${p.project?.id}` : '/portal/projects'}" class="stack" novalidate>
${csrfField(s.csrf)}
<label for="name">Name</label>
<input id="name" name="name" type="text" required maxlength="100" value="${p.values.name}" aria-describedby="name-hint">
<p class="hint" id="name-hint">Shown to end users on the sign-in page.</p>
<label for="description">Description <span class="hint">(optional)</span></label>
<textarea id="description" name="description" rows="3" maxlength="2000">${p.values.description}</textarea>
<label for="website">Website <span class="hint">(optional)</span></label>
<input id="website" name="website" type="url" maxlength="500" value="${p.values.website}" placeholder="https://example.com">
<label for="redirectUris">Redirect destinations <span class="hint">(one per line)</span></label>
<textarea id="redirectUris" name="redirectUris" rows="4" aria-describedby="redirect-hint">${p.values.redirectUris}</textarea>
<p class="hint" id="redirect-hint">Absolute URLs your app receives tokens at after <code>/auth/connect</code>: https, or http on localhost only; no query, no fragment.</p>
<button type="submit">${editing ? 'Save changes' : 'Create project'}</button>
</form>
${editing ? html`<p class="meta"><a href="/portal/projects/${p.project?.id}">Back to the project</a></p>` : ''}`,
    editing ? undefined : '/portal/projects/new',
  );
}

function applicationRow(a: KeyApplication, csrf: string, key?: KeyRecord): Cell[] {
  const decision =
    a.state === 'rejected'
      ? html`Rejected: ${a.decisionReason ?? ''}`
      : a.state === 'pending'
        ? 'Waiting for an operator.'
        : a.keyWaiting
          ? html`<form method="post" action="/portal/applications/${a.id}/reveal" class="inline">${csrfField(csrf)}<button type="submit" class="inline">Reveal key</button></form> <span class="hint">Shown once.</span>`
          : html`Key <a href="/portal/keys/${a.keyId ?? ''}">${a.keyId ?? ''}</a> issued${a.revealedAt ? html`, revealed ${formatTime(a.revealedAt)}` : ''}.`;
  return [a.environment, stateBadge(a.state), refreshState(a, key), formatTime(a.createdAt), decision];
}

export function projectPage(
  s: PortalSession,
  p: {
    project: Project;
    applications: readonly KeyApplication[];
    keys: readonly KeyRecord[];
    urls: ApiUrls;
    flash?: string;
    /** Show the publishable-key form (issue 16). */
    publishable?: boolean;
    playground?: SafeHtml;
  },
): string {
  const { project } = p;
  const firstActive = p.keys.find((k) => k.state === 'active');
  return layout(
    s,
    project.name,
    html`<h1>${project.name}</h1>
<p class="lead">${project.description || 'No description.'}</p>
<dl class="facts">
<dt>Project id</dt><dd><code>${project.id}</code></dd>
<dt>Website</dt><dd>${project.website ?? '—'}</dd>
<dt>Redirect destinations</dt><dd>${project.redirectUris.length === 0 ? 'None yet: add one before sending users to /auth/connect.' : html`<ul>${project.redirectUris.map((u) => html`<li><code>${u}</code></li>`)}</ul>`}</dd>
<dt>Created</dt><dd>${formatTime(project.createdAt)}</dd>
</dl>
<p><a href="/portal/projects/${project.id}/edit">Edit project</a> · <a href="/portal/projects/${project.id}/webhooks">Webhooks</a></p>

<h2>Apply for a key</h2>
<form method="post" action="/portal/projects/${project.id}/applications" class="stack">
${csrfField(s.csrf)}
<label for="environment">Environment</label>
<select id="environment" name="environment">
<option value="testing">testing (issued at once)</option>
<option value="production">production (an operator approves)</option>
</select>
<label class="check"><input type="checkbox" name="wantsRefresh" value="yes" id="wantsRefresh">Ask for the refresh permission</label>
<label for="refreshReason">Why does your app need refresh tokens? <span class="hint">(if asked)</span></label>
<textarea id="refreshReason" name="refreshReason" rows="2" maxlength="1000"></textarea>
<button type="submit">Apply</button>
</form>

<h2>Applications</h2>
${
  p.applications.length === 0
    ? html`<p class="empty">No application yet. Apply for a testing key above to start calling the API.</p>`
    : dataTable(
        ['Environment', 'State', 'Refresh permission', 'Applied', 'Outcome'],
        p.applications.map((a) =>
          applicationRow(
            a,
            s.csrf,
            p.keys.find((k) => k.id === a.keyId),
          ),
        ),
      )
}

${p.publishable ? publishableKeyForm(project, s.csrf) : ''}

<h2>Keys</h2>
${keyTable(p.keys)}
${quickstart(p.urls, firstActive)}
${p.playground ?? ''}`,
    undefined,
    p.flash,
  );
}

export function keyPage(
  s: PortalSession,
  p: {
    key: KeyRecord;
    project: Project;
    usage: readonly UsageDay[];
    urls: ApiUrls;
    baseUrls?: Readonly<Record<Environment, string>>;
  },
): string {
  const { key } = p;
  return layout(
    s,
    `Key ${key.id}`,
    html`<h1>Key ${key.id}</h1>
<p class="lead">Project <a href="/portal/projects/${p.project.id}">${p.project.name}</a></p>
${keyFacts(key)}
${key.state === 'active' && key.kind !== 'publishable' ? quickstart(p.urls, key) : ''}
${snippetSection(p.baseUrls, key, null)}
<h2>Usage, last 30 days</h2>
${usageChart(p.usage)}
${
  key.state === 'active'
    ? html`<h2>Roll</h2>
<p>A new secret for this key, shown once. The old one can keep working for a while, so you can deploy the new one first: the key's id, permissions, plan and the tokens it obtained stay as they are.</p>
<p><a class="button" href="/portal/keys/${key.id}/roll">Roll this key…</a></p>
<h2>Revoke</h2>
<p>Revoking is immediate and final: every call with this key is refused from then on.</p>
<p><a class="button danger" href="/portal/keys/${key.id}/revoke">Revoke this key…</a></p>`
    : ''
}`,
  );
}

export function revokeKeyPage(
  s: PortalSession,
  p: { key: KeyRecord; project: Project; error?: string },
): string {
  return layout(
    s,
    `Revoke ${p.key.id}?`,
    confirmationBody({
      title: `Revoke key ${p.key.id}?`,
      consequences: html`Every call with this ${p.key.environment} key of ${p.project.name} is refused within a second, on every instance, and the refresh tokens it obtained stop working: end users of your app must sign in again with another key. <strong>This cannot be undone.</strong>`,
      action: `/portal/keys/${p.key.id}/revoke`,
      csrf: s.csrf,
      expected: p.key.id,
      button: 'Revoke the key',
      cancelHref: `/portal/keys/${p.key.id}`,
      error: p.error,
    }),
  );
}

export function rollKeyPage(
  s: PortalSession,
  p: { key: KeyRecord; project: Project; error?: string },
): string {
  const { key } = p;
  return layout(
    s,
    `Roll ${key.id}?`,
    html`<h1>Roll key ${key.id}?</h1>
<div class="warning" role="note">A new secret replaces <code>${key.hint}</code>. Until the overlap ends, both work; after it, calls with the old secret are refused (<code>api_key_revoked</code>). Deploy the new secret before the overlap ends.</div>
<form method="post" action="/portal/keys/${key.id}/roll" class="stack" novalidate>
${csrfField(s.csrf)}
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<label for="overlap">The old secret keeps working for</label>
<select id="overlap" name="overlap">
<option value="none">no time: refuse it at once</option>
<option value="1h">1 hour</option>
<option value="24h" selected>24 hours</option>
<option value="7d">7 days</option>
</select>
<label for="confirm">To confirm, type <code>${key.id}</code></label>
<input id="confirm" name="confirm" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false">
<button type="submit" class="danger">Roll the key</button>
</form>
<p><a href="/portal/keys/${key.id}">Cancel, keep the current secret</a></p>`,
  );
}

/**
 * The one-time secret of a reveal (issue 15): selectable whole in one click (`user-select: all`),
 * with a Copy button that copy.js shows where script runs (the page loads it).
 */
export function secretField(label: string, secret: string): SafeHtml {
  return html`<label for="secret">${label}</label>
<code class="secret" id="secret">${secret}</code>
<p class="actions"><button type="button" class="copy" data-copy="secret" hidden>Copy</button> <span class="hint">One click on the key selects all of it.</span></p>`;
}

export function revealPage(
  s: PortalSession,
  p: { key: KeyRecord; secret: string; project: Project; urls: ApiUrls },
): string {
  return layout(
    s,
    'Your new key',
    html`<h1>Your new ${p.key.environment} key</h1>
<div class="warning" role="alert"><strong>Store this key now.</strong> This is the only time it is shown: Vitrine keeps only its hash and cannot show it again. Whoever holds it calls the API as ${p.project.name}: keep it out of source code, front ends and logs.</div>
${secretField(`API key for ${p.project.name}`, p.secret)}
<p class="hint">Send it as the <code>X-Api-Key</code> header. Key id: <code>${p.key.id}</code>.</p>
${quickstart(p.urls, p.key)}
<p><a href="/portal/projects/${p.project.id}">Back to the project</a></p>`,
  );
}

/** A new publishable key, shown once, with its origins, filters and browser snippet (issue 16). */
export function publishableRevealPage(
  s: PortalSession,
  p: { key: KeyRecord; secret: string; project: Project; baseUrls?: Readonly<Record<Environment, string>> },
): string {
  return layout(
    s,
    'Your new publishable key',
    html`<h1>Your new ${p.key.environment} publishable key</h1>
<div class="warning" role="alert"><strong>Copy it now.</strong> This is the only time it is shown. It is meant to be public (it lives in your pages, limited to its origins and filters), but Vitrine keeps only its hash.</div>
${secretField(`Publishable key for ${p.project.name}`, p.secret)}
${keyFacts(p.key)}
${snippetSection(p.baseUrls, p.key, p.secret)}
<p><a href="/portal/projects/${p.project.id}">Back to the project</a></p>`,
  );
}

export function alreadyRevealedMessage(): string {
  return 'This key was already shown once and cannot be shown again. Revoke it and apply for a new one if it was lost.';
}
