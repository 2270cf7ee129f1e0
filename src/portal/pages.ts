import type { KeyApplication } from '../applications/store.js';
import type { KeyRecord } from '../keys/store.js';
import type { Project } from '../projects/store.js';
import type { UsageDay } from '../usage/service.js';
import { stateBadge } from '../web/badges.js';
import { formatTime } from '../web/format.js';
import { html, type SafeHtml } from '../web/html.js';
import { appLayout, csrfField, newAccountFields } from '../web/layout.js';
import { usageChart } from '../web/usage-chart.js';

/** The developer portal's pages (issue 5). Plain forms, no script. */
export interface PortalSession {
  who: string;
  csrf: string;
}

const NAV = [
  { href: '/portal/', label: 'Projects' },
  { href: '/portal/projects/new', label: 'New project' },
];

function layout(s: PortalSession, title: string, body: SafeHtml, current?: string, flash?: string): string {
  return appLayout({ area: 'portal', title, body, flash, session: { ...s, nav: NAV, current } });
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
    : html`<table><thead><tr><th scope="col">Project</th><th scope="col">Active keys</th><th scope="col">Pending applications</th><th scope="col">Redirect destinations</th><th scope="col">Created</th></tr></thead><tbody>
${projects.map(
  ({ project: p, activeKeys, pendingApplications }) =>
    html`<tr><td><a href="/portal/projects/${p.id}">${p.name}</a></td><td>${activeKeys}</td><td>${pendingApplications === 0 ? 'none' : html`${stateBadge('pending')} ${pendingApplications}`}</td><td>${p.redirectUris.length}</td><td>${formatTime(p.createdAt)}</td></tr>`,
)}</tbody></table>`
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

function applicationRow(a: KeyApplication, csrf: string): SafeHtml {
  const decision =
    a.state === 'rejected'
      ? html`Rejected: ${a.decisionReason ?? ''}`
      : a.state === 'pending'
        ? 'Waiting for an operator.'
        : a.keyWaiting
          ? html`<form method="post" action="/portal/applications/${a.id}/reveal" class="inline">${csrfField(csrf)}<button type="submit" class="inline">Reveal key</button></form> <span class="hint">Shown once.</span>`
          : html`Key <a href="/portal/keys/${a.keyId ?? ''}">${a.keyId ?? ''}</a> issued${a.revealedAt ? html`, revealed ${formatTime(a.revealedAt)}` : ''}.`;
  return html`<tr><td>${a.environment}</td><td>${stateBadge(a.state)}</td><td>${a.wantsRefresh ? html`asked${a.refreshReason ? html`: ${a.refreshReason}` : ''}` : 'no'}</td><td>${formatTime(a.createdAt)}</td><td>${decision}</td></tr>`;
}

export function projectPage(
  s: PortalSession,
  p: {
    project: Project;
    applications: readonly KeyApplication[];
    keys: readonly KeyRecord[];
    flash?: string;
  },
): string {
  const { project } = p;
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
<p><a href="/portal/projects/${project.id}/edit">Edit project</a></p>

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
    : html`<table><thead><tr><th scope="col">Environment</th><th scope="col">State</th><th scope="col">Refresh permission</th><th scope="col">Applied</th><th scope="col">Outcome</th></tr></thead><tbody>${p.applications.map((a) => applicationRow(a, s.csrf))}</tbody></table>`
}

<h2>Keys</h2>
${keyTable(p.keys)}`,
    undefined,
    p.flash,
  );
}

export function keyTable(keys: readonly KeyRecord[], base = '/portal/keys'): SafeHtml {
  if (keys.length === 0) return html`<p class="empty">No key yet.</p>`;
  return html`<table><thead><tr><th scope="col">Key</th><th scope="col">Environment</th><th scope="col">State</th><th scope="col">Refresh</th><th scope="col">Created</th><th scope="col">Last used</th></tr></thead><tbody>
${keys.map(
  (k) =>
    html`<tr><td><a href="${base}/${k.id}">${k.id}</a><br><code>${k.hint}</code></td><td>${k.environment}</td><td>${stateBadge(k.state)}</td><td>${k.refreshAllowed ? 'granted' : 'no'}</td><td>${formatTime(k.createdAt)}</td><td>${formatTime(k.lastUsedAt)}</td></tr>`,
)}</tbody></table>`;
}

export function keyFacts(k: KeyRecord): SafeHtml {
  return html`<dl class="facts">
<dt>Key id</dt><dd><code>${k.id}</code></dd>
<dt>Looks like</dt><dd><code>${k.hint}</code></dd>
<dt>Environment</dt><dd>${k.environment}</dd>
<dt>State</dt><dd>${stateBadge(k.state)}${k.revokedAt ? html` since ${formatTime(k.revokedAt)}` : ''}</dd>
<dt>Refresh permission</dt><dd>${k.refreshAllowed ? 'granted' : 'not granted'}</dd>
<dt>Plan</dt><dd>${k.rateLimitRps === null ? 'environment default' : `${k.rateLimitRps} requests/s`}</dd>
<dt>Created</dt><dd>${formatTime(k.createdAt)}</dd>
<dt>Last used</dt><dd>${formatTime(k.lastUsedAt)}</dd>
</dl>`;
}

export function keyPage(
  s: PortalSession,
  p: { key: KeyRecord; project: Project; usage: readonly UsageDay[] },
): string {
  const { key } = p;
  return layout(
    s,
    `Key ${key.id}`,
    html`<h1>Key ${key.id}</h1>
<p class="lead">Project <a href="/portal/projects/${p.project.id}">${p.project.name}</a></p>
${keyFacts(key)}
<h2>Usage, last 30 days</h2>
${usageChart(p.usage)}
${
  key.state === 'active'
    ? html`<h2>Revoke</h2>
<p>Revoking is immediate and final: every call with this key is refused from then on.</p>
<form method="post" action="/portal/keys/${key.id}/revoke" class="inline">${csrfField(s.csrf)}<button type="submit" class="inline danger">Revoke this key</button></form>`
    : ''
}`,
  );
}

export function revealPage(
  s: PortalSession,
  p: { key: KeyRecord; secret: string; project: Project },
): string {
  return layout(
    s,
    'Your new key',
    html`<h1>Your new ${p.key.environment} key</h1>
<div class="notice" role="status">Copy it now: this is the only time it is shown. Vitrine keeps only its hash.</div>
<label for="secret">API key for ${p.project.name}</label>
<code class="secret" id="secret">${p.secret}</code>
<p class="hint">Send it as the <code>X-Api-Key</code> header. Key id: <code>${p.key.id}</code>.</p>
<p><a href="/portal/projects/${p.project.id}">Back to the project</a></p>`,
  );
}

export function alreadyRevealedMessage(): string {
  return 'This key was already shown once and cannot be shown again. Revoke it and apply for a new one if it was lost.';
}
